"""One ranking rule: the local hall and the score server's board put the same games in the same order,
ties included, and the board stays right (and linear) with tens of thousands of ranked runs."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from sqlalchemy import insert

from roguelike.ground.ranking import Placing, best_first, first_attempts
from roguelike.scores.hall import UNRANKED, VERIFIED_MARK, Entry, ranked
from roguelike.scores.proof import VERIFIED, Proof
from roguelike.server import store
from roguelike.server.board import Window, board_at
from roguelike.server.envelope import Envelope
from server_helpers import database, postgres  # noqa: F401

EPOCH = 12


def digest(label: str) -> str:
    """A made-up replay's SHA-256."""
    return hashlib.sha256(label.encode()).hexdigest()


def proof(name: str, score: int, turns: int, recorded: str, daily: str | None = None) -> Proof:
    """A verified, ranked game's proof."""
    return Proof(
        f"{name}.replay",
        VERIFIED,
        rules_epoch=EPOCH,
        seed=1,
        name=name,
        origin="daily" if daily else "played",
        daily=daily,
        turns=turns,
        commands=turns,
        cause="overdose",
        score=score,
        recorded=recorded,
    )


# Equal scores broken every way the rule knows, and a character's two attempts at one daily date.
GAMES = {
    "best": proof("Bea", 300, 900, "2026-03-09T10:00:00Z"),
    "fewer turns": proof("Cid", 200, 400, "2026-03-05T10:00:00Z"),
    "earlier": proof("Dee", 200, 500, "2026-03-01T10:00:00Z"),
    "same start": proof("Eve", 200, 500, "2026-03-01T10:00:00Z"),
    "later": proof("Fay", 200, 500, "2026-03-02T10:00:00Z"),
    "first attempt": proof("Ann", 200, 500, "2026-03-03T08:00:00Z", daily="2026-03-03"),
    "second attempt": proof("Ann", 250, 100, "2026-03-03T09:00:00Z", daily="2026-03-03"),
}


def test_the_hall_and_the_board_rank_equal_scores_the_same_way(tmp_path: Path) -> None:
    labels = list(GAMES)
    # File names and upload times that would give another order if either side used them.
    entries = [
        Entry(tmp_path / f"{len(labels) - index}.replay", digest(label), GAMES[label], VERIFIED_MARK)
        for index, label in enumerate(labels)
    ]
    engine = store.open_engine(f"sqlite:///{tmp_path}/scores.sqlite")
    for label in reversed(labels):
        with engine.begin() as connection:
            store.add_run(connection, Envelope(label.encode(), digest(label), EPOCH, 1, digest(f"game {label}")))
            store.record_verdict(connection, digest(label), json.loads(GAMES[label].to_json()))
    same_start = sorted(["earlier", "same start"], key=digest)
    expected = [digest(label) for label in ["best", "fewer turns", *same_start, "later", "first attempt"]]

    hall = ranked(entries)
    with engine.connect() as connection:
        board = board_at(connection, EPOCH, None, Window())
    engine.dispose()

    assert [entry.digest for entry in hall if entry.mark == VERIFIED_MARK] == expected
    assert [entry["hash"] for entry in board.ranked] == expected
    assert [entry.digest for entry in hall if entry.mark == UNRANKED] == [digest("second attempt")]
    assert [entry["hash"] for entry in board.unranked] == [digest("second attempt")]


def test_of_equal_scores_fewer_turns_then_the_earlier_start_rank_first() -> None:
    places = [
        Placing(10, 50, "2026-01-02", "a"),
        Placing(10, 40, "2026-01-03", "b"),
        Placing(11, 90, "2026-01-09", "c"),
        Placing(10, 50, "2026-01-01", "d"),
    ]
    assert [place.digest for place in best_first(places, lambda place: place)] == ["c", "b", "d", "a"]


def test_only_a_characters_earliest_attempt_at_a_daily_date_ranks() -> None:
    places = [
        Placing(5, 1, "2026-01-01T12:00", "late", "Ann", "2026-01-01"),
        Placing(1, 1, "2026-01-01T09:00", "early", "Ann", "2026-01-01"),
        Placing(9, 1, "2026-01-01T12:00", "other", "Bob", "2026-01-01"),
        Placing(9, 1, "2026-01-01T13:00", "next day", "Ann", "2026-01-02"),
        Placing(9, 1, "2026-01-01T14:00", "not daily", "Ann"),
    ]
    first, later = first_attempts(places, lambda place: place)
    assert [place.digest for place in first] == ["early", "other", "next day", "not daily"]
    assert [place.digest for place in later] == ["late"]


RUNS = 20_000


def test_a_board_of_twenty_thousand_ranked_runs_is_in_order(database: str) -> None:
    """Every run is a daily attempt; each character has two, and only the earlier ranks. Scores are a
    permutation, so the order is known without the rule: the board once took time quadratic in them. The runs
    are written as a server before the standings wrote them: opening the database works them out."""
    half = RUNS // 2
    score = [(number * 7919) % RUNS for number in range(RUNS)]  # 7919 is prime to 20,000: every score once
    rows = []
    for number in range(RUNS):
        verdict = {
            "verdict": VERIFIED,
            "ranked": True,
            "score": score[number],
            "turns": 100,
            "name": f"p{number % half}",
            "origin": "daily",
            "daily": "2026-05-01",
            "cause": "overdose",
            "recorded": f"2026-05-01T{'09' if number < half else '10'}:00:00Z",
        }
        rows.append(
            {
                "hash": digest(str(number)),
                "received": "2026-05-02T00:00:00Z",
                "epoch": EPOCH,
                "commands": 100,
                "size": 1000,
                "status": VERIFIED,
                "verdict": json.dumps(verdict),
                "score": score[number],
                "ranked": True,
                "name": verdict["name"],
                "origin": "daily",
                "daily": "2026-05-01",
                "decided": "2026-05-02T00:00:00Z",
            }
        )
    engine = store.open_engine(database)
    with engine.begin() as connection:
        connection.execute(insert(store.runs), rows)
    engine.dispose()
    engine = store.open_engine(database)
    shown: list[dict[str, list[dict[str, Any]]]] = []
    with engine.connect() as connection:
        for offset in range(0, half, 1000):
            page = board_at(connection, EPOCH, None, Window(offset, 1000))
            shown.append({"ranked": page.ranked, "unranked": page.unranked})
    engine.dispose()
    board = {part: [entry for page in shown for entry in page[part]] for part in ("ranked", "unranked")}
    firsts = sorted(range(half), key=lambda number: -score[number])
    assert [entry["hash"] for entry in board["ranked"]] == [digest(str(number)) for number in firsts]
    assert [entry["rank"] for entry in board["ranked"]] == list(range(1, half + 1))
    assert sorted(entry["hash"] for entry in board["unranked"]) == sorted(
        digest(str(number)) for number in range(half, RUNS)
    )
    assert {entry["why"] for entry in board["unranked"]} == {"a later attempt at that day's daily seed"}
