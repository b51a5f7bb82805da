"""Every game records a replay that re-simulates to the same checksums, turn after turn."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from conftest import ROOT
from replay_helpers import bot_commands, only_replay, record_bot_game
from roguelike import __version__
from roguelike.cli.main import main
from roguelike.cli.verifying import verify_file
from roguelike.core.commands import Move, Wait
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.core.snapshot import checksum
from roguelike.replay.fileformat import Replay, parse_replay, read_replay, replay_bytes
from roguelike.replay.recorder import SYNC_EVERY, recording_observers
from roguelike.replay.verify import Outcome, verify
from roguelike.saves.autosave import writer


def test_a_replay_holds_the_header_and_every_commands_checksum(tmp_path: Path) -> None:
    path, steps = record_bot_game(tmp_path, seed=11, turns=40, name="Ada")
    replay = read_replay(path)
    assert (replay.header.seed, replay.header.name, replay.header.version) == (11, "Ada", __version__)
    assert replay.header.date and replay.header.game_id == path.stem
    assert [r.command for r in replay.steps] == [s.command for s in steps]
    assert [r.checksum for r in replay.steps] == [s.checksum for s in steps]
    assert [r.turn for r in replay.steps] == [s.turn for s in steps]


def test_each_record_is_on_disk_as_soon_as_its_command_is_applied(tmp_path: Path) -> None:
    game = Game.new(4, "Bot")
    session = Session(game, recording_observers(tmp_path, game))
    for count in range(1, 6):
        step = session.apply(Wait())
        on_disk = read_replay(only_replay(tmp_path))
        assert len(on_disk.steps) == count
        assert on_disk.steps[-1].checksum == step.checksum == checksum(game)
    session.close()


def test_a_killed_game_leaves_a_replay_complete_up_to_its_last_turn(tmp_path: Path) -> None:
    script = textwrap.dedent(f"""
        import os, signal
        from pathlib import Path
        from roguelike.core.commands import Wait
        from roguelike.core.game import Game
        from roguelike.replay.recorder import recording_observers
        from roguelike.core.session import Session
        game = Game.new(8, "Victim")
        session = Session(game, recording_observers(Path({str(tmp_path)!r}), game))
        for _ in range(25):
            session.apply(Wait())
        os.kill(os.getpid(), signal.SIGKILL)
    """)
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert result.returncode == -signal.SIGKILL
    out, err = io.StringIO(), io.StringIO()
    assert verify_file(only_replay(tmp_path), out, err) == 0
    assert "25 commands" in out.getvalue()


def test_verify_reports_the_turns_it_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, steps = record_bot_game(tmp_path, seed=3, turns=50)
    assert main(["replay", "--verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"{steps[-1].turn} turns verified ({len(steps)} commands)" in out


def changed_command(replay: Replay, index: int) -> Replay:
    """The same replay with one command swapped for another (a game that went otherwise)."""
    steps = list(replay.steps)
    old = steps[index - 1]
    other = Wait() if isinstance(old.command, Move) else Move(1, 0)
    steps[index - 1] = replace(old, command=other)
    return replace(replay, steps=steps)


def test_the_first_divergence_is_named_with_what_differed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, steps = record_bot_game(tmp_path, seed=3, turns=50)
    path.write_bytes(replay_bytes(changed_command(read_replay(path), 30)))
    assert main(["replay", "--verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"diverged at turn {steps[29].turn} (step 30" in out
    assert f"checksum: recorded {steps[29].checksum}, now " in out
    assert "player " in out  # the facts that differ, e.g. the player's position or action points


def test_several_files_give_the_worst_status(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good, _ = record_bot_game(tmp_path / "a", seed=3, turns=20)
    bad = tmp_path / "bad.replay"
    bad.write_bytes(b"nonsense")
    assert main(["replay", "--verify", str(good), str(bad)]) == 2
    out, err = capsys.readouterr()
    assert "verified" in out and "bad.replay" in err


def test_verifying_twice_gives_the_same_checksums(tmp_path: Path) -> None:
    path, steps = record_bot_game(tmp_path, seed=12, turns=80)
    replay = read_replay(path)
    first, second = verify(replay), verify(replay)
    assert first.outcome is second.outcome is Outcome.MATCHED
    assert first.checksums == second.checksums == [s.checksum for s in steps]


def run_hedonic(args: list[str], hash_seed: str) -> subprocess.CompletedProcess[str]:
    """``hedonic`` in a fresh interpreter with a given PYTHONHASHSEED."""
    env = dict(os.environ, PYTHONHASHSEED=hash_seed, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "roguelike", *args], env=env, capture_output=True, text=True, cwd=ROOT)


def test_recording_and_verifying_do_not_depend_on_the_hash_seed(tmp_path: Path) -> None:
    records = []
    for hash_seed in ("0", "4242"):
        data_dir = tmp_path / hash_seed
        run_hedonic(
            ["simulate", "--seed", "21", "--turns", "300", "--data-dir", str(data_dir)], hash_seed
        ).check_returncode()
        replay = read_replay(only_replay(data_dir))
        records.append((replay.steps, replay.crash))
    assert records[0] == records[1]
    for hash_seed in ("1", "random"):
        result = run_hedonic(["replay", "--verify", str(only_replay(tmp_path / "0"))], hash_seed)
        assert result.returncode == 0, result.stdout + result.stderr
        assert "turns verified" in result.stdout


def test_simulate_records_its_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--seed", "5", "--turns", "40", "--data-dir", str(tmp_path)]) == 0
    replay = read_replay(only_replay(tmp_path))
    assert (replay.header.seed, replay.header.name) == (5, "Bot")
    assert replay.steps and verify(replay).outcome is Outcome.MATCHED
    assert replay.steps == read_replay(only_replay(tmp_path)).steps
    assert f"checksum: {replay.steps[-1].checksum}" in capsys.readouterr().out


def test_replays_record_commands_not_keys(tmp_path: Path) -> None:
    commands = bot_commands(seed=6, turns=30)
    game = Game.new(6, "Bot")
    session = Session(game, recording_observers(tmp_path, game))
    for command in commands:
        session.apply(command)
    session.close()
    assert [r.command for r in read_replay(only_replay(tmp_path)).steps] == commands


class FakeTerminal(io.StringIO):
    """A stderr that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_long_replays_show_progress_on_a_terminal_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("roguelike.replay.verify.PROGRESS_EVERY", 10)
    path, _ = record_bot_game(tmp_path, seed=3, turns=40)
    terminal, pipe = FakeTerminal(), io.StringIO()
    assert verify_file(path, io.StringIO(), terminal) == 0
    assert "verifying " in terminal.getvalue() and "/40 commands" in terminal.getvalue()
    assert verify_file(path, io.StringIO(), pipe) == 0
    assert pipe.getvalue() == ""


def test_a_replay_file_round_trips_through_its_bytes(tmp_path: Path) -> None:
    path, _ = record_bot_game(tmp_path, seed=9, turns=30)
    replay = read_replay(path)
    assert parse_replay(replay_bytes(replay)).steps == replay.steps


def test_a_replay_that_cannot_be_recorded_is_told_in_the_game_not_on_the_screen(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from roguelike.core.notices import Notices

    (tmp_path / "replays").write_text("a file where the folder should be")
    notices = Notices()
    observers = recording_observers(tmp_path, Game.new(4, "Unrecorded"), notices=notices)
    assert observers == []
    assert any("not being recorded" in line for line in notices.lines())
    assert capsys.readouterr().err == ""


def syncs_while_recording(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, saved: bool) -> tuple[int, int]:
    """How many fsyncs of the replay COMMANDS commands asked for, and how many closing it added."""
    import roguelike.replay.recorder as recorder

    synced: list[int] = []
    monkeypatch.setattr(recorder, "sync_quietly", synced.append)
    game = Game.new(4, "Bot")
    session = Session(game, recording_observers(tmp_path, game, saved=saved))
    for _ in range(COMMANDS):
        session.apply(Wait())
    writer().submit(lambda: None).result()  # the syncs asked for have run
    while_playing = len(synced)
    session.close()
    assert len(read_replay(only_replay(tmp_path)).steps) == COMMANDS
    return while_playing, len(synced) - while_playing


COMMANDS = 2 * SYNC_EVERY + 5


def test_a_saved_games_replay_is_synced_every_few_dozen_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    while_playing, closing = syncs_while_recording(tmp_path, monkeypatch, saved=True)
    assert (while_playing, closing) == (3, 1)  # the header, after records 32 and 64, and at the end


def test_an_unsaved_games_replay_is_synced_when_it_closes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    while_playing, closing = syncs_while_recording(tmp_path, monkeypatch, saved=False)
    assert (while_playing, closing) == (0, 1)
