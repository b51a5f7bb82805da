"""The board: verified runs ranked by the score their re-simulation computed, the rest shown apart.

Only a run whose verifier said ``ranked`` (verified, played or daily, over) ranks, by its
recomputed score; of a daily date, only a character's earliest attempt (by the date its
replay records) ranks, and of the files of one game (its epoch, seed, name and commands: the
server keeps one, but two uploaded at the same moment may both be verified) only the best
placed. The order, and what breaks a tie, is the local hall's own rule
(:mod:`roguelike.ground.ranking`). Verified runs that do not rank (bots, practice,
living games, later attempts) and runs that could not be verified here (another epoch with no
runtime, a killed verifier) are listed apart, never ranked. Diverged and unreadable runs are
on no board.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from roguelike.ground.ranking import Placing, best_first, first_attempts
from roguelike.server.store import Run

OFF_BOARD = ("diverged", "unreadable")


@dataclass
class Board:
    """One board: the ranked entries in order, and the others apart."""

    epoch: int | None
    daily: str | None
    ranked: list[dict[str, Any]] = field(default_factory=list)
    unranked: list[dict[str, Any]] = field(default_factory=list)
    unverified: list[dict[str, Any]] = field(default_factory=list)

    def to_plain(self, epochs: list[int], pending: int) -> dict[str, Any]:
        """The board as JSON."""
        return {"epoch": self.epoch, "daily": self.daily, "epochs": epochs, "pending": pending,
                "ranked": self.ranked, "unranked": self.unranked, "unverified": self.unverified}


def entry(run: Run, reason: str = "") -> dict[str, Any]:
    """What the board shows of a run (everything from its verdict, nothing from the upload)."""
    proved = run.verdict
    shown = {"hash": run.hash, "status": run.status, "epoch": run.epoch, "name": proved.get("name"),
             "score": proved.get("score"), "turns": proved.get("turns"), "cause": proved.get("cause"),
             "origin": proved.get("origin"), "daily": proved.get("daily"), "feats": proved.get("feats", []),
             "recorded": proved.get("recorded"), "received": run.received}
    return {**shown, "why": reason} if reason else shown


def board_of(runs: Iterable[Run], epoch: int | None, daily: str | None) -> Board:
    """Rank the runs' verified scores; list the rest apart."""
    board = Board(epoch, daily)
    contenders: list[Run] = []
    for run in runs:
        if run.status in OFF_BOARD:
            continue
        if run.status != "verified":
            board.unverified.append(entry(run, str(run.verdict.get("detail", run.status))))
        elif run.verdict.get("ranked") is True and isinstance(run.verdict.get("score"), int):
            contenders.append(run)
        else:
            board.unranked.append(entry(run, unranked_reason(run.verdict)))
    contenders, copies = one_per_game(contenders)
    board.unranked += [entry(run, f"the same game as run {best[:12]}") for run, best in copies]
    first, later = first_attempts(contenders, placing)
    board.unranked += [entry(run, "a later attempt at that day's daily seed") for run in later]
    board.ranked = [{"rank": place, **entry(run)} for place, run in enumerate(best_first(first, placing), start=1)]
    return board


def one_per_game(runs: list[Run]) -> tuple[list[Run], list[tuple[Run, str]]]:
    """The best placed run of each game, and the other runs of a game each with the hash of the one kept."""
    best: dict[str, Run] = {}
    for run in runs:
        if run.game is not None and (run.game not in best or placing(run).order < placing(best[run.game]).order):
            best[run.game] = run
    kept = [run for run in runs if run.game is None or best[run.game] is run]
    return kept, [(run, best[run.game].hash) for run in runs if run.game is not None and best[run.game] is not run]


def placing(run: Run) -> Placing:
    """What the ranking reads of a ranked run (its verdict's score is an int: only those rank)."""
    proved = run.verdict
    turns, daily = proved.get("turns"), proved.get("daily")
    return Placing(proved["score"], turns if isinstance(turns, int) else 0, str(proved.get("recorded") or ""),
                   run.hash, str(proved.get("name") or ""), daily if isinstance(daily, str) else None)


def unranked_reason(verdict: dict[str, Any]) -> str:
    """Why a verified run does not rank."""
    origin = verdict.get("origin")
    if origin not in ("played", "daily"):
        return f"unranked origin: {origin}"
    if verdict.get("cause") is None:
        return "the game is not over"
    return "a daily game whose date its seed does not prove"
