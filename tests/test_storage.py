"""The data directory has one owner: every file the game writes lies where ``DataDir`` names it,
and a finished game's ending (``end_game``) leaves its replay, its morgue file and its standing."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from replay_helpers import play
from roguelike.cli.saves import games_for
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.frontend.colourprobe import hint_once
from roguelike.records.ending import end_game
from roguelike.records.morguefile import NOT_RECORDED
from roguelike.replay.fileformat import read_replay
from roguelike.replay.recorder import recording_observers
from roguelike.saves import read_history
from roguelike.saves.crash import report_crash
from roguelike.scores.proof import VERIFIED
from roguelike.scores.scorefile import import_file
from roguelike.screens import bindings
from roguelike.settings import Motion, Preferences
from roguelike.storage.datadir import DataDir

SEED = 11  # the bot dies within a few hundred turns


def folders_and_files(folders: DataDir) -> tuple[set[Path], set[Path]]:
    """Every folder and every file at the top of a data directory that ``DataDir`` names."""
    named = {
        folders.saves,
        folders.history,
        folders.replays,
        folders.morgue,
        folders.crashes,
        folders.imported,
        folders.server,
    }
    return named, {folders.hall_cache, folders.settings, folders.keys, folders.colour_hint}


def test_every_file_a_game_and_its_ending_write_lies_where_the_data_directory_names_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folders = DataDir(tmp_path / "data")
    bindings.load(folders.root)
    Preferences.load(folders.root).change("motion", Motion.FULL)
    session = games_for(argparse.Namespace(data_dir=str(folders.root), seed=SEED)).new("Ann")
    play(session, 3000)
    assert session.game.state.game_over
    ending = end_game(session)
    assert ending.standing is not None
    ending.standing.thread.join(timeout=300)
    import_file(folders.root, ending.replay or Path())
    report_crash(RuntimeError("a crash after the game"), folders.root)
    hint_once(folders.colour_hint, 16, lambda text: None)
    capsys.readouterr()

    written = [path for path in folders.root.rglob("*") if path.is_file()]
    named_folders, named_files = folders_and_files(folders)
    strays = [path for path in written if path not in named_files and not named_folders & set(path.parents)]
    assert strays == []
    assert all(folders.names(path) for path in written)
    game_id = ending.replay.stem if ending.replay else ""
    assert ending.replay == folders.replay(game_id) and folders.record(game_id).is_file()
    assert not folders.save(game_id).exists()  # the dead character's save is retired
    assert ending.morgue is not None and ending.morgue.parent == folders.morgue
    assert [entry.name for entry in read_history(folders.root).records] == ["Ann"]
    for path in (folders.hall_cache, folders.settings, folders.keys, folders.colour_hint):
        assert path.is_file(), path
    for folder in (folders.crashes, folders.imported):
        assert any(folder.rglob("*.*")), folder


def test_a_stray_file_is_not_named_by_the_data_directory(tmp_path: Path) -> None:
    folders = DataDir(tmp_path)
    assert folders.names(folders.replay("x")) and folders.names(folders.settings)
    assert not folders.names(tmp_path / "notes.txt") and not folders.names(tmp_path / "elsewhere" / "a.save")


def test_a_file_outside_a_data_directorys_folders_has_no_data_directory(tmp_path: Path) -> None:
    folders = DataDir(tmp_path)
    assert DataDir.of_replay(folders.replay("g")) == folders and DataDir.of_save(folders.save("g")) == folders
    assert DataDir.of_replay(tmp_path / "g.replay") is None and DataDir.of_save(folders.replay("g")) is None


def test_the_ending_of_a_finished_game_gives_its_replay_its_morgue_file_and_its_standing(tmp_path: Path) -> None:
    game = Game.new(SEED, "Ann")
    session = Session(game, recording_observers(tmp_path, game, "ann"))
    play(session, 3000)
    ending = end_game(session)
    folders = DataDir(tmp_path)
    assert ending.game is game and ending.replay == folders.replay("ann")
    assert read_replay(folders.replay("ann")).final_turn == game.state.turn  # closed, complete, readable
    assert ending.morgue is not None and ending.morgue_line == f"Morgue file: {ending.morgue}"
    assert ending.morgue.name == f"ann-turn{game.state.turn}.txt"
    assert (
        f"Ann {'died' if game.state.cause_of_death in ('overdose', 'exhaustion') else 'was killed'}"
        in ending.morgue.read_text(encoding="utf-8")
    )
    assert ending.standing is not None
    ending.standing.thread.join(timeout=300)
    assert ending.standing.proof is not None and ending.standing.proof.verdict == VERIFIED
    assert ending.standing.line() == f"Verified: {ending.standing.proof.score} points, #1 of 1 in the hall."
    assert "\nVerified\n" in ending.morgue.read_text(encoding="utf-8")  # the standing noted it in the morgue file


def test_an_unrecorded_game_ends_with_no_replay_no_morgue_file_and_no_standing() -> None:
    game = Game.new(SEED, "Ghost")
    session = Session(game)
    play(session, 3000)
    ending = end_game(session)
    assert (ending.replay, ending.morgue, ending.morgue_line, ending.standing) == (None, None, NOT_RECORDED, None)
