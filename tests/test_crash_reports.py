"""An unexpected exception writes a report, ends the replay with the crash and says where both are."""

from __future__ import annotations

import argparse
from pathlib import Path
from types import TracebackType

import pytest

from replay_helpers import only_replay
from roguelike.cli.main import main
from roguelike.core.commands import Command
from roguelike.core.game import Game
from roguelike.core.session import Step
from roguelike.replay.fileformat import read_replay
from roguelike.replay.recorder import ReplayRecorder
from roguelike.replay.verify import Outcome, verify
from roguelike.saves import crash
from roguelike.saves.crash import EXIT_CRASHED, guarded

CRASH_TURN = 12


def explode_at_turn(monkeypatch: pytest.MonkeyPatch, turn: int = CRASH_TURN) -> None:
    """Make the game logic raise once the game reaches ``turn``."""
    original = Game.apply

    def apply(self: Game, command: Command) -> None:
        if self.state.turn >= turn:
            raise RuntimeError("the floor gave way")
        original(self, command)

    monkeypatch.setattr(Game, "apply", apply)


def simulate(data_dir: Path, *extra: str) -> int:
    """``hedonic simulate`` into a data directory."""
    return main(["simulate", "--seed", "5", "--turns", "200", "--data-dir", str(data_dir), *extra])


def the_report(data_dir: Path) -> Path:
    """The one crash report written."""
    (report,) = (data_dir / "crashes").glob("crash-*.txt")
    return report


def test_a_crash_writes_a_report_with_what_a_developer_needs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    explode_at_turn(monkeypatch)
    assert simulate(tmp_path) == EXIT_CRASHED
    report = the_report(tmp_path)
    text = report.read_text()
    copy, replay = report.with_suffix(".replay"), only_replay(tmp_path).resolve()
    for expected in (
        "Traceback (most recent call last)",
        "RuntimeError: the floor gave way",
        "game version: ",
        "seed: 5",
        f"turn: {CRASH_TURN}",
        f"\nreplay: {copy}",
        f"game replay: {replay}",
        "crashed applying: ",
    ):
        assert expected in text
    assert copy.read_bytes() == replay.read_bytes()


def test_the_player_is_told_the_absolute_paths_in_plain_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    explode_at_turn(monkeypatch)
    simulate(tmp_path)
    err = capsys.readouterr().err
    assert "stopped because of a bug" in err
    assert str(the_report(tmp_path).resolve()) in err
    assert str(the_report(tmp_path).with_suffix(".replay").resolve()) in err
    assert "Traceback" not in err


def test_the_replay_ends_with_the_crashing_command_and_reproduces_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    explode_at_turn(monkeypatch)
    simulate(tmp_path)
    replay = read_replay(only_replay(tmp_path))
    assert replay.crash is not None and replay.crash.command is not None
    assert replay.crash.index == len(replay.steps) + 1
    assert "the floor gave way" in replay.crash.error
    still_broken = verify(replay)
    assert still_broken.outcome is Outcome.DIVERGED and "crashed again" in still_broken.details[0]
    monkeypatch.undo()  # the bug is fixed
    fixed = verify(replay)
    assert fixed.outcome is Outcome.MATCHED and "no longer happens" in fixed.details[0]


def test_a_crash_in_an_observer_is_recorded_as_after_the_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = ReplayRecorder.after_step

    def after_step(self: ReplayRecorder, game: Game, step: Step) -> None:
        original(self, game, step)
        if game.state.turn >= CRASH_TURN:
            raise OSError("the autosave's disk vanished")

    monkeypatch.setattr(ReplayRecorder, "after_step", after_step)
    simulate(tmp_path)
    replay = read_replay(only_replay(tmp_path))
    assert replay.crash is not None and replay.crash.command is None
    assert "crashed after the game logic" in the_report(tmp_path).read_text()


def test_debug_opens_the_debugger_instead(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    explode_at_turn(monkeypatch)
    opened: list[TracebackType | None] = []
    monkeypatch.setattr("pdb.post_mortem", opened.append)
    assert simulate(tmp_path, "--debug") == EXIT_CRASHED
    assert len(opened) == 1 and opened[0] is not None
    assert not (tmp_path / "crashes").exists()


def test_an_unwritable_data_directory_still_shows_the_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    explode_at_turn(monkeypatch)
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the data directory should be")
    assert simulate(blocked) == EXIT_CRASHED
    err = capsys.readouterr().err
    assert "RuntimeError: the floor gave way" in err and "could not write a crash report" in err


def test_ctrl_c_is_not_a_crash(tmp_path: Path) -> None:
    def interrupted(args: argparse.Namespace) -> int:
        raise KeyboardInterrupt

    assert guarded(interrupted, argparse.Namespace(data_dir=str(tmp_path))) == 130
    assert not (tmp_path / "crashes").exists()


def test_a_crash_before_any_game_still_gets_a_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(crash, "WATCHED", crash.Watched())

    def broken(args: argparse.Namespace) -> int:
        raise ValueError("the title screen fell over")

    assert guarded(broken, argparse.Namespace(data_dir=str(tmp_path))) == EXIT_CRASHED
    text = the_report(tmp_path).read_text()
    assert "ValueError: the title screen fell over" in text and "no game was played" in text
    assert "replay" not in capsys.readouterr().err
