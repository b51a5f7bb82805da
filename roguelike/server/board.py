"""The board: verified runs ranked by the score their re-simulation computed, the rest shown apart, a page at a time.

Only a run whose verifier said ``ranked`` (verified, played or daily, over) ranks, by its
recomputed score; of a daily date, only a character's earliest attempt (by the date its
replay records) ranks, and of the files of one game (its epoch, seed, name and commands: the
server keeps one, but two uploaded at the same moment may both be verified) only the best
placed. The order, and what breaks a tie, is the local hall's own rule
(:mod:`roguelike.ground.ranking`). Verified runs that do not rank (bots, practice,
living games, later attempts) and runs that could not be verified here (another epoch with no
runtime, a killed verifier) are listed apart, never ranked. Diverged and unreadable runs are
on no board.

The ranked runs are in two tiers, each its own list: the witnessed runs (played on this server, or on one whose
key it trusts: ``roguelike.server.witnessed``) above the verified uploads, each ranked by the same rule.

Where each run stands was decided when its verdict was written (``roguelike.server.standing``),
so a request reads one page of each list from the database's indexes, in order, and parses the
verdicts of that page only: the ranked runs of each tier by :data:`PLACING_ORDER`, the others by hash
(the "verified, not ranked" list: the unranked, then the other files of ranked games, then
the later attempts).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import ColumnElement, Connection, func, select

from roguelike.server.standing import APART, COPY, LATER, RANKED, UNVERIFIED
from roguelike.server.store import UPLOAD, WITNESSED, Run, runs

PAGE = 100  # entries of each list a page shows unless asked for another count
MOST = 1000  # the most a page shows
PLACING_ORDER = (runs.c.score.desc(), runs.c.turns, runs.c.started, runs.c.hash)  # ranking.Placing.order, in SQL


@dataclass(frozen=True)
class Window:
    """Which entries of each list a page shows: ``limit`` of them from the ``offset``-th (0 first)."""

    offset: int = 0
    limit: int = PAGE


@dataclass
class Board:
    """One page of a board: the ranked entries in order, and the others apart, and how many each list has."""

    epoch: int | None
    daily: str | None
    window: Window = field(default_factory=Window)
    totals: dict[str, int] = field(default_factory=dict)
    ranked: list[dict[str, Any]] = field(default_factory=list)  # the verified uploads that rank
    witnessed: list[dict[str, Any]] = field(default_factory=list)  # the witnessed runs that rank
    unranked: list[dict[str, Any]] = field(default_factory=list)
    unverified: list[dict[str, Any]] = field(default_factory=list)

    def to_plain(self, epochs: list[int], pending: int) -> dict[str, Any]:
        """The board as JSON."""
        return {
            "epoch": self.epoch,
            "daily": self.daily,
            "epochs": epochs,
            "pending": pending,
            "offset": self.window.offset,
            "limit": self.window.limit,
            "totals": self.totals,
            "witnessed": self.witnessed,
            "ranked": self.ranked,
            "unranked": self.unranked,
            "unverified": self.unverified,
        }


def entry(run: Run, reason: str = "") -> dict[str, Any]:
    """What the board shows of a run (everything from its verdict, nothing from the upload)."""
    proved = run.verdict
    shown = {
        "hash": run.hash,
        "status": run.status,
        "epoch": run.epoch,
        "name": proved.get("name"),
        "score": proved.get("score"),
        "turns": proved.get("turns"),
        "cause": proved.get("cause"),
        "origin": proved.get("origin"),
        "daily": proved.get("daily"),
        "feats": proved.get("feats", []),
        "recorded": proved.get("recorded"),
        "received": run.received,
    }
    if run.certificate is not None:
        shown["witness"] = witness_shown(run)
    return {**shown, "why": reason} if reason else shown


def witness_shown(run: Run) -> dict[str, Any]:
    """What the board shows of a run's certificate: who played it where and when, and whether its key is trusted."""
    certified = json.loads(run.certificate or "{}")
    return {
        "account": certified.get("account"),
        "key": certified.get("key_id"),
        "trusted": run.tier == WITNESSED,
        "started": certified.get("started"),
        "ended": certified.get("ended"),
    }


def board_at(connection: Connection, epoch: int | None, daily: str | None, window: Window) -> Board:
    """One page of the board of an epoch (every epoch when None) and a daily date (every game when None)."""
    where: list[ColumnElement[bool]] = [runs.c.standing.is_not(None)]
    if epoch is not None:
        where.append(runs.c.epoch == epoch)
    if daily is not None:
        where.append(runs.c.daily == daily)
    tiers: Counter[tuple[str, str]] = Counter()
    counted: Counter[str] = Counter()  # by standing, every tier
    for standing, tier, count in connection.execute(
        select(runs.c.standing, runs.c.tier, func.count()).where(*where).group_by(runs.c.standing, runs.c.tier)
    ):
        tiers[standing, tier or UPLOAD] += count
        counted[standing] += count
    board = Board(
        epoch,
        daily,
        window,
        {
            "witnessed": tiers[RANKED, WITNESSED],
            "ranked": tiers[RANKED, UPLOAD],
            "unranked": sum(counted[standing] for standing in APART),
            "unverified": counted[UNVERIFIED],
        },
    )
    board.witnessed = ranked_of(connection, where, WITNESSED, window)
    board.ranked = ranked_of(connection, where, UPLOAD, window)
    board.unranked = apart(connection, where, window, counted)
    unverified = connection.execute(
        select(runs)
        .where(*where, runs.c.standing == UNVERIFIED)
        .order_by(runs.c.hash)
        .offset(window.offset)
        .limit(window.limit)
    )
    board.unverified = [entry(run, str(run.verdict.get("detail", run.status))) for run in map(Run.from_row, unverified)]
    return board


def ranked_of(
    connection: Connection, where: list[ColumnElement[bool]], tier: str, window: Window
) -> list[dict[str, Any]]:
    """The page's window of one tier's ranked runs, in order, each with its rank in the tier."""
    ranked = connection.execute(
        select(runs)
        .where(*where, runs.c.standing == RANKED, runs.c.tier == tier)
        .order_by(*PLACING_ORDER)
        .offset(window.offset)
        .limit(window.limit)
    )
    return [{"rank": place, **entry(Run.from_row(row))} for place, row in enumerate(ranked, window.offset + 1)]


def apart(
    connection: Connection, where: list[ColumnElement[bool]], window: Window, counted: Counter[str]
) -> list[dict[str, Any]]:
    """The page's window of the "verified, not ranked" list: its parts one after another, each by hash."""
    rows: list[Any] = []
    skip = window.offset
    for standing in APART:
        if skip >= counted.get(standing, 0):
            skip -= counted.get(standing, 0)
            continue
        if len(rows) == window.limit:
            break
        rows += connection.execute(
            select(runs)
            .where(*where, runs.c.standing == standing)
            .order_by(runs.c.hash)
            .offset(skip)
            .limit(window.limit - len(rows))
        ).all()
        skip = 0
    shown = [(Run.from_row(row), row.standing) for row in rows]
    kept = best_of_games(connection, {run.game for run, standing in shown if standing == COPY and run.game})
    return [entry(run, why(run, standing, kept)) for run, standing in shown]


def best_of_games(connection: Connection, games: set[str]) -> dict[str, str]:
    """The hash of the file of each game that stands for it (ranked, or a later attempt)."""
    if not games:
        return {}
    found = connection.execute(
        select(runs.c.game, runs.c.hash).where(runs.c.game.in_(sorted(games)), runs.c.standing.in_((RANKED, LATER)))
    )
    return {row.game: row.hash for row in found}


def why(run: Run, standing: str, kept: dict[str, str]) -> str:
    """Why a verified run does not rank."""
    if standing == COPY:
        return f"the same game as run {kept.get(run.game or '', '')[:12]}"
    if standing == LATER:
        return "a later attempt at that day's daily seed"
    return unranked_reason(run.verdict)


def unranked_reason(verdict: dict[str, Any]) -> str:
    """Why a verified run does not rank."""
    origin = verdict.get("origin")
    if origin not in ("played", "daily"):
        return f"unranked origin: {origin}"
    if verdict.get("cause") is None:
        return "the game is not over"
    return "a daily game whose date its seed does not prove"
