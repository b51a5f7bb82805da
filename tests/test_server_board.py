"""The board read a page at a time from standings decided with each verdict (issue 47, R1) is the board the
server used to compute whole for every request: the same entries in the same order, ties, daily first attempts,
files of one game and runs of other epochs included, on SQLite and PostgreSQL, and on a database from before
the standings once it is opened."""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, Engine, MetaData, Table, create_engine, inspect, select
from starlette.testclient import TestClient

from roguelike.ground.ranking import Placing, best_first, first_attempts
from roguelike.server import store
from roguelike.server.app import ScoreServer, ServerConfig
from roguelike.server.board import Board, Window, board_at, entry, unranked_reason
from roguelike.server.envelope import Envelope
from roguelike.server.store import Run
from server_helpers import database, postgres  # noqa: F401

EPOCH, OTHER_EPOCH = 12, 13
DAILIES = [None, None, "2026-05-01", "2026-05-02"]
NEW_COLUMNS = ("turns", "started", "player", "standing", "certificate", "signer", "tier")


# The board as the server computed it before issue 47's R1, whole, from every decided run: the reference.
def full_board(runs: Iterable[Run]) -> Board:
    """Rank the runs' verified scores; list the rest apart (the old computation)."""
    board = Board(None, None)
    contenders: list[Run] = []
    for run in runs:
        if run.status in ("diverged", "unreadable"):
            continue
        if run.status != "verified":
            board.unverified.append(entry(run, str(run.verdict.get("detail", run.status))))
        elif run.verdict.get("ranked") is True and isinstance(run.verdict.get("score"), int):
            contenders.append(run)
        else:
            board.unranked.append(entry(run, unranked_reason(run.verdict)))
    best: dict[str, Run] = {}
    for run in contenders:
        if run.game is not None and (run.game not in best or placing(run).order < placing(best[run.game]).order):
            best[run.game] = run
    board.unranked += [
        entry(run, f"the same game as run {best[run.game].hash[:12]}")
        for run in contenders
        if run.game is not None and best[run.game] is not run
    ]
    kept = [run for run in contenders if run.game is None or best[run.game] is run]
    first, later = first_attempts(kept, placing)
    board.unranked += [entry(run, "a later attempt at that day's daily seed") for run in later]
    board.ranked = [{"rank": place, **entry(run)} for place, run in enumerate(best_first(first, placing), start=1)]
    return board


def placing(run: Run) -> Placing:
    """What the ranking reads of a ranked run."""
    proved = run.verdict
    turns, daily = proved.get("turns"), proved.get("daily")
    return Placing(
        proved["score"],
        turns if isinstance(turns, int) else 0,
        str(proved.get("recorded") or ""),
        run.hash,
        str(proved.get("name") or ""),
        daily if isinstance(daily, str) else None,
    )


@dataclass(frozen=True)
class MadeUp:
    """A made-up upload and the verdicts it gets, in order (none: it stays pending)."""

    envelope: Envelope
    verdicts: tuple[dict[str, Any], ...]


def made_up(count: int, draw: random.Random) -> list[MadeUp]:
    """Runs whose scores, turns and starts tie often; characters with several attempts at a daily date; games
    with several files (the same score, another start); bots, living games, runs unverifiable, killed, diverged,
    unreadable, pending, of another epoch, and from before runs had a game key."""
    made = []
    for number in range(count):
        digest = hashlib.sha256(f"run {number}".encode()).hexdigest()
        name, daily, copy = f"P{draw.randrange(12)}", draw.choice(DAILIES), draw.randrange(10)
        epoch = OTHER_EPOCH if number % 9 == 0 else EPOCH
        game = hashlib.sha256(f"{epoch} {name} {daily} {copy}".encode()).hexdigest()  # a game is of one epoch
        score = 10 * (int(game[:8], 16) % 4 + 1)  # one game's files share their score and turns
        proved = {
            "verdict": "verified",
            "ranked": True,
            "score": score,
            "turns": 100 + 50 * (copy % 2),
            "name": name,
            "origin": "daily" if daily else "played",
            "daily": daily,
            "cause": "overdose",
            "feats": [],
            "recorded": f"2026-05-0{draw.randrange(1, 4)}T10:00:00Z",
        }
        kind = draw.choices(
            ["ranked", "bot", "living", "unverifiable", "killed", "off", "pending", "later"], [60, 5, 5, 5, 5, 6, 4, 10]
        )[0]
        verdicts_of: dict[str, tuple[dict[str, Any], ...]] = {
            "ranked": ({**proved},),
            "bot": ({**proved, "ranked": False, "origin": "bot"},),
            "living": ({**proved, "ranked": False, "cause": None},),
            "unverifiable": ({"verdict": "unverifiable here", "detail": "no runtime for epoch 12"},),
            "killed": ({"verdict": "killed", "detail": "over its time limit"},),
            "off": ({"verdict": draw.choice(["diverged", "unreadable"]), "detail": "at step 3"},),
            "pending": (),
            "later": ({"verdict": "unverifiable here", "detail": "no runtime yet"}, {**proved}),
        }
        verdicts = verdicts_of[kind]
        made.append(MadeUp(Envelope(digest.encode(), digest, epoch, 10, None if number % 23 == 0 else game), verdicts))
    return made


def whole(engine: Engine, epoch: int, daily: str | None, limit: int) -> Board:
    """Every page of a board, put together."""
    board = Board(epoch, daily)
    with engine.connect() as connection:
        offset = 0
        while True:
            page = board_at(connection, epoch, daily, Window(offset, limit))
            board.ranked += page.ranked
            board.witnessed += page.witnessed
            board.unranked += page.unranked
            board.unverified += page.unverified
            offset += limit
            if offset >= max(page.totals.values()):
                assert page.totals == {
                    "witnessed": len(board.witnessed),
                    "ranked": len(board.ranked),
                    "unranked": len(board.unranked),
                    "unverified": len(board.unverified),
                }
                return board


def assert_boards_as_before(engine: Engine, limit: int) -> Counter[str]:
    """Every board (each epoch, each daily date) paged equals the old computation; how many of the epochs' boards'
    runs ranked, were other files of a ranked game, were later attempts."""
    kinds: Counter[str] = Counter()
    for epoch in (EPOCH, OTHER_EPOCH):
        for daily in (None, *sorted({day for day in DAILIES if day})):
            with engine.connect() as connection:
                expected = full_board(store.decided_runs(connection, epoch, daily))
            got = whole(engine, epoch, daily, limit)
            assert got.ranked == expected.ranked, (epoch, daily)
            assert got.unranked == expected.unranked, (epoch, daily)
            assert got.unverified == expected.unverified, (epoch, daily)
            if daily is None:
                kinds.update(["ranked"] * len(got.ranked) + [why(shown["why"]) for shown in got.unranked])
    return kinds


def why(reason: str) -> str:
    """The kind of a reason not to rank."""
    return "copy" if reason.startswith("the same game") else "later" if reason.startswith("a later") else "other"


def test_the_paged_board_is_the_whole_board_as_before_whatever_order_the_verdicts_came_in(database: str) -> None:
    draw = random.Random(47)
    runs = made_up(500, draw)
    engine = store.open_engine(database)
    with engine.begin() as connection:
        for run in runs:
            store.add_run(connection, run.envelope)
    written = [(run.envelope.digest, verdict) for run in runs for verdict in run.verdicts]
    draw.shuffle(written)  # a run's second verdict may come before its first: then only the first is written
    for digest, verdict in written:
        with engine.begin() as connection:
            store.record_verdict(connection, digest, verdict)
    kinds = assert_boards_as_before(engine, limit=17)
    engine.dispose()
    assert kinds["ranked"] > 150 and kinds["copy"] > 20 and kinds["later"] > 20, kinds  # a board worth the name


def test_a_database_from_before_the_standings_gets_them_from_its_verdicts(database: str) -> None:
    draw = random.Random(11)
    runs = made_up(300, draw)
    old = MetaData()
    Table(
        "runs",
        old,
        *[
            Column(column.name, column.type, primary_key=column.primary_key)
            for column in store.runs.columns
            if column.name not in NEW_COLUMNS
        ],
    )
    made = create_engine(database)
    old.create_all(made)
    with made.begin() as connection:  # rows as the server wrote them before: the verdict and its first columns
        connection.execute(old.tables["runs"].insert(), [old_row(run) for run in runs])
    made.dispose()
    engine = store.open_engine(database)
    assert set(NEW_COLUMNS) <= {column["name"] for column in inspect(engine).get_columns("runs")}
    assert {"runs_board", "runs_apart"} <= {index["name"] for index in inspect(engine).get_indexes("runs")}
    assert_boards_as_before(engine, limit=100)
    pending = next(run for run in runs if not run.verdicts and run.envelope.epoch == EPOCH)
    with engine.begin() as connection:  # a run left pending by the old server joins the board when decided
        store.record_verdict(
            connection,
            pending.envelope.digest,
            {
                "verdict": "verified",
                "ranked": True,
                "score": 10**6,
                "turns": 1,
                "name": "New",
                "origin": "played",
                "cause": "overdose",
                "recorded": "2026-06-01T00:00:00Z",
            },
        )
    assert assert_boards_as_before(engine, limit=100)["ranked"] > 0
    assert whole(engine, EPOCH, None, 100).ranked[0]["hash"] == pending.envelope.digest
    engine.dispose()


def old_row(run: MadeUp) -> dict[str, Any]:
    """A run's row as the server before issue 47's R1 wrote it (its last verdict)."""
    row = {
        "hash": run.envelope.digest,
        "received": "2026-05-03T00:00:00Z",
        "epoch": run.envelope.epoch,
        "commands": 10,
        "size": 64,
        "status": "pending",
        "ranked": False,
        "game": run.envelope.game,
        "verdict": None,
        "score": None,
        "name": None,
        "origin": None,
        "daily": None,
        "decided": None,
    }
    if not run.verdicts:
        return row
    verdict = run.verdicts[-1]
    score = verdict.get("score") if verdict["verdict"] == "verified" else None
    return {
        **row,
        "status": verdict["verdict"],
        "verdict": json.dumps(verdict),
        "score": score,
        "ranked": verdict.get("ranked") is True and score is not None,
        "name": verdict.get("name"),
        "origin": verdict.get("origin"),
        "daily": verdict.get("daily"),
        "decided": "2026-05-03T00:00:00Z",
    }


def test_a_verdict_that_beats_a_games_ranked_file_takes_its_place(database: str) -> None:
    engine = store.open_engine(database)
    proved = {
        "verdict": "verified",
        "ranked": True,
        "score": 50,
        "turns": 9,
        "name": "Ann",
        "origin": "daily",
        "daily": "2026-05-01",
        "cause": "overdose",
    }
    files = [Envelope(label.encode(), label * 64, EPOCH, 9, "g" * 64) for label in "abc"]
    with engine.begin() as connection:
        for envelope in files:
            store.add_run(connection, envelope)
    standings = []
    for envelope, recorded in zip(files, ["2026-05-01T12", "2026-05-01T09", "2026-05-01T10"], strict=True):
        with engine.begin() as connection:
            store.record_verdict(connection, envelope.digest, {**proved, "recorded": recorded})
        with engine.connect() as connection:
            standings.append(dict(connection.execute(select(store.runs.c.hash, store.runs.c.standing)).all()))
    assert [found["a" * 64] for found in standings] == ["ranked", "copy", "copy"]
    assert standings[-1] == {"a" * 64: "copy", "b" * 64: "ranked", "c" * 64: "copy"}
    engine.dispose()


def test_the_board_is_answered_a_page_at_a_time_with_links_to_the_next(database: str) -> None:
    # none pending (nothing to verify), all of one epoch (the default board)
    runs = [run for run in made_up(400, random.Random(5)) if run.verdicts and run.envelope.epoch == EPOCH]
    engine = store.open_engine(database)
    with engine.begin() as connection:
        for run in runs:
            store.add_run(connection, run.envelope)
            for verdict in run.verdicts:
                store.record_verdict(connection, run.envelope.digest, verdict)
    every = whole(engine, EPOCH, None, 1000).ranked
    engine.dispose()
    with TestClient(ScoreServer(ServerConfig(database)).app) as client:
        first = client.get("/board.json").json()
        second = client.get("/board.json", params={"epoch": EPOCH, "page": 2, "limit": 7}).json()
        shifted = client.get("/board.json", params={"epoch": EPOCH, "offset": 3, "limit": 5}).json()
        page = client.get("/board", params={"limit": 5}, headers={"accept": "text/html"}).text
        refused = [
            client.get("/board.json", params=asked).status_code
            for asked in (
                {"page": 0},
                {"limit": 0},
                {"limit": 1001},
                {"offset": -1},
                {"page": 1, "offset": 0},
                {"page": "9" * 40},
            )
        ]
    assert (first["epoch"], first["offset"], first["limit"]) == (EPOCH, 0, 100)
    assert first["ranked"] == every[:100] and first["totals"]["ranked"] == len(every) > 100
    assert second["ranked"] == every[7:14] and second["offset"] == 7
    assert shifted["ranked"] == every[3:8]
    assert f"Ranked 1-5 of {len(every)}" in page and f"href='/board?epoch={EPOCH}&amp;page=2&amp;limit=5'" in page
    assert refused == [400] * 6
