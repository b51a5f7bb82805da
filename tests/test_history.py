"""Permadeath and the character history: the record is durable before the save is retired."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from roguelike.core.commands import Wait
from roguelike.saves import CharacterRecord, Games, list_saves, read_history
from roguelike.saves import autosave as autosave_module
from roguelike.saves.history import write_record
from roguelike.storage.atomic import remove_durably
from roguelike.storage.datadir import DataDir
from roguelike.storage.errors import SaveError
from save_helpers import about_to_die, played


def die(session: Any) -> None:
    """Let the character die of exhaustion."""
    about_to_die(session)
    while not session.game.state.game_over:
        session.apply(Wait())


def test_death_records_the_character_then_retires_its_save(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session, _ = played(tmp_path, name="Ann", turns=20)
    (path,) = (tmp_path / "saves").glob("*.save")
    order: list[str] = []
    real_write, real_remove = write_record, remove_durably

    def write(record_file: Path, record: CharacterRecord) -> None:
        order.append("record")
        real_write(record_file, record)

    def remove(file: Path) -> None:
        assert DataDir(tmp_path).record(path.stem).exists(), "the record must be on disk before the save goes"
        order.append("retire")
        real_remove(file)

    monkeypatch.setattr(autosave_module, "write_record", write)
    monkeypatch.setattr(autosave_module, "remove_durably", remove)
    die(session)
    session.close()
    assert order == ["record", "retire"]
    assert not path.exists() and not path.with_suffix(".lock").exists()
    (record,) = read_history(tmp_path).records
    state = session.game.state
    assert (record.name, record.turns, record.cause) == ("Ann", state.turn, state.cause_of_death)
    assert record.cause in ("exhaustion", "depression")  # whichever came first, as it happened


def test_a_death_that_cannot_be_recorded_keeps_the_save(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session, _ = played(tmp_path, turns=5)
    (path,) = (tmp_path / "saves").glob("*.save")

    def full_disk(record_file: Path, record: CharacterRecord) -> None:
        raise SaveError(record_file, "no space left on device", doing="record")

    monkeypatch.setattr(autosave_module, "write_record", full_disk)
    die(session)
    session.close()
    assert path.exists()
    assert any("Cannot record this death" in line for line in session.notices.lines())
    assert read_history(tmp_path).records == []
    monkeypatch.undo()
    assert Games(tmp_path).saves() == []  # the next start finishes the burial
    (record,) = read_history(tmp_path).records
    assert record.turns == session.game.state.turn
    assert not path.exists()


def test_a_crash_between_the_dead_save_and_the_record_is_settled_at_the_next_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session, _ = played(tmp_path, turns=5)
    monkeypatch.setattr(autosave_module.Autosave, "bury", lambda self, game: None)  # the process "dies" here
    die(session)
    turn = session.game.state.turn
    session.close()
    monkeypatch.undo()
    assert list_saves(tmp_path)[0].dead
    assert Games(tmp_path).last() is None
    (record,) = read_history(tmp_path).records
    assert record.turns == turn
    assert list((tmp_path / "saves").glob("*.save")) == []


def test_a_dead_character_cannot_be_resumed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session, _ = played(tmp_path, turns=5)
    (path,) = (tmp_path / "saves").glob("*.save")
    monkeypatch.setattr(autosave_module.Autosave, "bury", lambda self, game: None)
    die(session)
    session.close()
    with pytest.raises(SaveError, match="has died"):
        Games(tmp_path).resume(path)


def record(name: str, turns: int, died_at: int = 1_700_000_000) -> CharacterRecord:
    """A made-up record."""
    return CharacterRecord(name, turns, 2, 3, "overdose", 4, 0, 1, 7, died_at)


def test_the_history_is_sorted_by_turns_survived(tmp_path: Path) -> None:
    for index, (name, turns) in enumerate([("Short", 10), ("Long", 900), ("Middle", 300), ("Tie", 300)]):
        write_record(DataDir(tmp_path).record(f"id{index}"), record(name, turns, died_at=1_700_000_000 + index))
    assert [r.name for r in read_history(tmp_path).records] == ["Long", "Middle", "Tie", "Short"]


def test_a_damaged_record_is_reported_and_the_others_still_listed(tmp_path: Path) -> None:
    write_record(DataDir(tmp_path).record("good"), record("Good", 5))
    bad = DataDir(tmp_path).record("bad")
    bad.write_bytes(b"\x89HHR\r\n\x1a\n garbage")
    history = read_history(tmp_path)
    assert [r.name for r in history.records] == ["Good"]
    (problem,) = history.problems
    assert problem.path == bad and bad.read_bytes().endswith(b"garbage")


def test_a_record_is_not_a_save_and_a_save_is_not_a_record(tmp_path: Path) -> None:
    session, _ = played(tmp_path, turns=2)
    session.close()
    (save,) = (tmp_path / "saves").glob("*.save")
    os.makedirs(tmp_path / "history", exist_ok=True)
    os.replace(save, DataDir(tmp_path).record("x"))
    (problem,) = read_history(tmp_path).problems
    assert "not a Hedonic Hypothesis character record" in problem.reason


def test_records_from_before_the_score_still_list_and_sort_last_by_score(tmp_path: Path) -> None:
    from dataclasses import asdict

    from roguelike.core.snapshot import encode
    from roguelike.saves.container import RECORD_MAGIC, seal
    from roguelike.saves.history import by_score
    from roguelike.storage.atomic import write_atomic

    old = asdict(record("Before", 500))
    del old["score"], old["origin"]  # as format 1 wrote a character's own record
    path = DataDir(tmp_path).record("old")
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, seal(RECORD_MAGIC, 1, encode({}), encode(old)))
    write_record(DataDir(tmp_path).record("new"), dataclass_replace(record("After", 100), score=40))
    records = read_history(tmp_path).records
    assert [(r.name, r.score) for r in records] == [("Before", None), ("After", 40)]
    assert [r.name for r in sorted(records, key=by_score)] == ["After", "Before"]


def dataclass_replace(value: CharacterRecord, **changes: Any) -> CharacterRecord:
    """A copy of a record with some fields changed."""
    import dataclasses

    return dataclasses.replace(value, **changes)


def old_record_file(path: Path, version: int, **fields: Any) -> None:
    """A record file as an older record format (``version``) wrote it: no floors' points."""
    from dataclasses import asdict

    from roguelike.core.snapshot import encode
    from roguelike.saves.container import RECORD_MAGIC, seal
    from roguelike.storage.atomic import write_atomic

    plain = {**asdict(dataclass_replace(record("Deep", 5000), **fields)), "deepest": 15}
    del plain["floor_points"], plain["origin"]
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, seal(RECORD_MAGIC, version, encode({}), encode(plain)))


def test_an_old_record_shows_the_floors_points_its_own_version_counted(tmp_path: Path) -> None:
    from roguelike.screens.death import score_line

    for made_by in ("0.2.0", "1.3.0", "1.4.0"):
        old_record_file(DataDir(tmp_path).record(made_by), 5, game=made_by, score=2000)
    read = {r.game: r for r in read_history(tmp_path).records}
    # floor N paid 10 x N until 1.4.0, then 10 x N down to floor 12 and 120 below; before 0.3.0 nothing
    assert {made_by: r.floor_points for made_by, r in read.items()} == {"0.2.0": 0, "1.3.0": 1190, "1.4.0": 1130}
    assert "floors 1190, " in str(score_line(read["1.3.0"]))
    assert "floors 1130, " in str(score_line(read["1.4.0"]))


def test_a_record_keeps_what_its_floors_paid_and_an_unscored_one_has_none(tmp_path: Path) -> None:
    write_record(DataDir(tmp_path).record("new"), dataclass_replace(record("Now", 9), score=50, floor_points=30))
    old_record_file(DataDir(tmp_path).record("unscored"), 2, game="0.1.0", score=None)
    assert {r.name: r.floor_points for r in read_history(tmp_path).records} == {"Deep": None, "Now": 30}
