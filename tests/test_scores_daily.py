"""The daily seed: stable for a date and epoch, one ranked attempt a character, and the board's roll-over at 00:00 UTC."""

from __future__ import annotations

import argparse
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import numpy as np

from replay_helpers import play
from roguelike.cli.saves import games_for
from roguelike.core.commands import Mark
from roguelike.core.epoch import RULES_EPOCH
from roguelike.core.game import Game
from roguelike.replay.fileformat import read_replay
from roguelike.scores.daily import DailyStart, daily_date_of, daily_seed, today
from roguelike.scores.hall import UNRANKED, VERIFIED_MARK, daily_board, hall
from roguelike.scores.proof import prove_file

DAY = date(2026, 11, 26)


def at(moment: str) -> datetime:
    """A fixed clock reading."""
    return datetime.fromisoformat(moment)


def test_the_seed_of_a_date_never_changes_and_differs_by_date_and_epoch() -> None:
    assert daily_seed(DAY, 1) == KNOWN_SEED  # the same on every machine, in every process, under any hash seed
    assert len({daily_seed(DAY, 1), daily_seed(DAY + timedelta(days=1), 1), daily_seed(DAY, 2)}) == 3
    assert 0 <= daily_seed(DAY, 1) < 2**63


KNOWN_SEED = 93275701777781368  # changing it would give everyone another dungeon for a date already played


def test_the_seed_is_pinned_to_its_formula() -> None:
    import hashlib

    digest = hashlib.sha256(b"hedonic-hypothesis daily 2026-11-26 rules-epoch 1").digest()
    assert daily_seed(DAY, 1) == int.from_bytes(digest[:8], "big") >> 1


def test_two_names_get_the_same_floors_on_the_same_date() -> None:
    ann, bob = Game.new(daily_seed(DAY), "Ann"), Game.new(daily_seed(DAY), "Bob")
    assert np.array_equal(ann.state.floor.tiles, bob.state.floor.tiles)
    assert ann.state.floor.arrival == bob.state.floor.arrival
    ann.close()
    bob.close()


def test_the_date_rolls_over_at_midnight_utc_whatever_the_local_zone() -> None:
    assert today(lambda: at("2026-11-26T23:59:59+00:00")) == DAY
    assert today(lambda: at("2026-11-27T00:00:00+00:00")) == DAY + timedelta(days=1)
    assert today(lambda: at("2026-11-27T09:30:00+10:00")) == DAY  # 23:30 UTC
    assert daily_date_of(daily_seed(DAY), RULES_EPOCH, "2026-11-27T00:00:05+00:00") == DAY
    assert daily_date_of(12345, RULES_EPOCH, "2026-11-27T00:00:05+00:00") is None


def daily_game(root: Path, name: str, day: date, turns: int = 3000) -> str:
    """Play a daily game with the bot until it dies; its origin."""
    start = DailyStart(games_for(argparse.Namespace(data_dir=str(root), seed=None, wizard=False)), day)
    session = start.start(name)
    origin = session.game.state.origin
    play(session, turns)
    session.close()
    return str(origin)


def test_one_ranked_attempt_a_date_and_the_board_rolls_over(tmp_path: Path) -> None:
    # Today's daily, as a player plays it: a replay names the date it was recorded on (the real clock), and
    # its daily date is looked for around it (a fixed date in the past stops being found days later).
    day = today()
    assert daily_game(tmp_path, "Ann", day) == "daily"
    assert daily_game(tmp_path, "Ann", day) == "practice"  # the second attempt says so and never ranks
    assert daily_game(tmp_path, "Bob", day) == "daily"
    replays = sorted((tmp_path / "replays").glob("*.replay"))
    assert {read_replay(path).steps[0].command for path in replays} == {Mark("daily"), Mark("practice")}
    assert all(prove_file(path).daily == day.isoformat() for path in replays)
    entries = hall(tmp_path, lambda paths: [prove_file(path) for path in paths])
    last_second = datetime.combine(day, datetime.max.time().replace(microsecond=0), UTC)
    board = daily_board(entries, today(lambda: last_second).isoformat())
    assert sorted((e.proof.name, e.mark) for e in board if e.proof) == [
        ("Ann", UNRANKED),
        ("Ann", VERIFIED_MARK),
        ("Bob", VERIFIED_MARK),
    ]
    assert daily_board(entries, today(lambda: last_second + timedelta(seconds=1)).isoformat()) == []
