"""Replays and saves agree: resuming continues the replay, a replay becomes a save, a save is rebuilt."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest
from tcod.event import KeySym

from conftest import ROOT
from replay_helpers import only_replay
from roguelike.bots.bot import Bot
from roguelike.cli.main import main
from roguelike.cli.saves import games_for
from roguelike.core.plain import snapshot_digest
from roguelike.core.session import Session
from roguelike.core.snapshot import encode
from roguelike.replay.fileformat import read_replay, replay_bytes
from roguelike.replay.recorder import replay_path
from roguelike.replay.verify import Outcome, verify
from roguelike.saves import Games, inspect_save, read_save, settle
from roguelike.saves.slots import is_slotted
from roguelike.screens.loadgame import LoadGameScreen
from save_helpers import envelope_middles, key, screen_rows
from test_replay_record_verify import changed_command

SEED = 53
# Seeds whose bot games end in a death: on 58 the death comes on a turn no earlier command
# reached; on 53 the fatal dose is taken on a turn the command before it had already reached,
# where the character still lived ("the end" is after every command, not that turn's first).
DYING_SEEDS = (58, 53)


def games(root: Path, seed: int = SEED) -> Games:
    """The games of a data directory, recorded as ``hedonic play`` records them."""
    return games_for(argparse.Namespace(data_dir=str(root), seed=seed))


def bot_steps(session: Session, count: int) -> None:
    """Let the bot give ``count`` commands (fewer if the character dies)."""
    bot = Bot()
    for _ in range(count):
        if session.game.state.game_over:
            return
        session.apply(bot.choose(session.game))
    settle(session)  # the autosave writes in the background; wait until the last step is on disk


def the_save(root: Path) -> Path:
    """The one save of a data directory."""
    (save,) = (root / "saves").glob("*.save")
    return save


def test_a_game_saved_quit_and_resumed_gives_the_replay_of_one_played_straight(tmp_path: Path) -> None:
    straight = games(tmp_path / "straight").new("Ann")
    bot_steps(straight, 80)
    straight.close()
    halves = games(tmp_path / "halves").new("Ann")
    bot_steps(halves, 35)
    halves.close()
    resumed = games(tmp_path / "halves").resume(the_save(tmp_path / "halves"))
    bot_steps(resumed, 45)
    resumed.close()
    whole, joined = read_replay(only_replay(tmp_path / "straight")), read_replay(only_replay(tmp_path / "halves"))
    assert len(joined.steps) == 80
    assert joined.steps == whole.steps
    assert verify(joined).outcome is Outcome.MATCHED


def test_the_replay_and_the_save_agree_on_every_saved_turn(tmp_path: Path) -> None:
    session = games(tmp_path).new("Ann")
    for _ in range(5):
        bot_steps(session, 7)
        save = read_save(the_save(tmp_path))
        replay = read_replay(only_replay(tmp_path))
        assert save.header["steps"] == len(replay.steps)
        assert save.checksum == replay.steps[-1].checksum
    session.close()


def test_a_replay_one_step_ahead_of_its_save_brings_the_save_up_to_it_on_resume(tmp_path: Path) -> None:
    session = games(tmp_path).new("Ann")
    bot_steps(session, 20)
    session.close()
    replay = only_replay(tmp_path)
    kept = read_replay(replay)
    # As if killed after recording step 20 but before saving it: the save is at step 19.
    session = games(tmp_path / "other").new("Ann")
    bot_steps(session, 19)
    session.close()
    save = the_save(tmp_path)
    save.write_bytes(the_save(tmp_path / "other").read_bytes())
    resumed = games(tmp_path).resume(save)
    assert resumed.steps == 20  # the recorded step 20 is played, not cut
    bot_steps(resumed, 1)
    resumed.close()
    after = read_replay(replay)
    assert after.steps[:20] == kept.steps and len(after.steps) == 21 and verify(after).outcome is Outcome.MATCHED


CRASHING_SIMULATE = """
import sys
from roguelike.cli.main import main
from roguelike.core.game import Game

original = Game.apply

def apply(self, command):
    if self.state.turn >= 15:
        raise RuntimeError("the floor gave way")
    original(self, command)

Game.apply = apply
sys.exit(main(sys.argv[1:]))
"""


def test_a_crash_leaves_the_last_save_intact_and_in_step_with_the_replay(tmp_path: Path) -> None:
    simulate = ["simulate", "--name", "Ann", "--seed", str(SEED), "--turns", "100", "--data-dir", str(tmp_path)]
    crashed = subprocess.run(
        [sys.executable, "-c", CRASHING_SIMULATE, *simulate],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    assert crashed.returncode == 70
    save, replay = read_save(the_save(tmp_path)), read_replay(only_replay(tmp_path))
    assert save.plain["turn"] == 15 and save.checksum == replay.steps[-1].checksum
    assert replay.crash is not None
    assert f"Your last save is untouched: {the_save(tmp_path).resolve()}" in crashed.stderr
    # Played on after the crash: the game's replay goes on, the report's copy keeps the crash.
    resumed = games(tmp_path).resume(the_save(tmp_path))
    bot_steps(resumed, 5)
    resumed.close()
    played_on = read_replay(only_replay(tmp_path))
    assert played_on.crash is None and len(played_on.steps) == len(replay.steps) + 5
    assert verify(played_on).outcome is Outcome.MATCHED
    (copy,) = (tmp_path / "crashes").glob("*.replay")
    assert read_replay(copy).crash is not None


def recorded_game(root: Path, commands: int = 60, seed: int = SEED) -> Path:
    """A played and quit game's replay."""
    session = games(root, seed).new("Ann")
    bot_steps(session, commands)
    session.close()
    return only_replay(root)


def test_a_replay_becomes_a_save_at_a_chosen_turn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = recorded_game(tmp_path / "mine")
    target = tmp_path / "dev"
    status = main(["replay", str(source), "--to-turn", "25", "--save-as", "Bea", "--data-dir", str(target)])
    assert status == 0, capsys.readouterr().err
    info = inspect_save(the_save(target))
    assert (info.name, info.turn) == ("Bea", 25)
    assert "saved Bea at turn 25" in capsys.readouterr().out
    # Play on from there: the new save's replay goes on recording and verifies.
    session = games(target).resume(the_save(target))
    bot_steps(session, 10)
    session.close()
    played_on = read_replay(replay_path(target, the_save(target).stem))
    assert played_on.header.name == "Bea" and verify(played_on).outcome is Outcome.MATCHED
    assert played_on.steps[24].turn == 25 and len(played_on.steps) == read_save(the_save(target)).header["steps"]


def test_a_replay_saved_under_its_own_name_is_the_recorded_game(tmp_path: Path) -> None:
    source = recorded_game(tmp_path / "mine")
    assert (
        main(["replay", str(source), "--to-turn", "30", "--save-as", "Ann", "--data-dir", str(tmp_path / "dev")]) == 0
    )
    recorded = read_replay(source).steps[29]
    # The save is the recorded game, marked as made from a replay (it never counts).
    marked = dict(read_save(the_save(tmp_path / "dev")).plain)
    assert marked.pop("origin") == "replay"
    assert snapshot_digest(encode(marked)) == recorded.checksum


@pytest.mark.parametrize("seed", DYING_SEEDS)
def test_no_save_past_the_end_or_of_a_dead_character(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], seed: int
) -> None:
    source = recorded_game(tmp_path / "mine", commands=10_000, seed=seed)
    final = read_replay(source).final_turn
    assert (
        main(["replay", str(source), "--to-turn", str(final + 5), "--save-as", "Bea", "--data-dir", str(tmp_path)]) == 1
    )
    assert "ends at turn" in capsys.readouterr().err
    assert main(["replay", str(source), "--save-as", "Bea", "--data-dir", str(tmp_path)]) == 1
    assert "dead" in capsys.readouterr().err
    assert not list((tmp_path / "saves").glob("*.save")) and not list((tmp_path / "replays").glob("*.replay"))


def damage(path: Path) -> bytes:
    """Flip a byte in the middle of a file (of both copies in a two-slot save); the damaged bytes."""
    data = bytearray(path.read_bytes())
    for middle in envelope_middles(bytes(data)) if is_slotted(bytes(data)) else [len(data) // 2]:
        data[middle] ^= 0xFF
    path.write_bytes(bytes(data))
    return bytes(data)


def test_a_damaged_save_is_rebuilt_from_its_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    replay = recorded_game(tmp_path)
    save = the_save(tmp_path)
    damaged = damage(save)
    assert not inspect_save(save).ok
    assert main(["replay", "--rebuild", str(save)]) == 0
    assert "Rebuilt Ann's save" in capsys.readouterr().out
    assert read_save(save).checksum == read_replay(replay).steps[-1].checksum
    assert save.with_name(save.name + ".damaged").read_bytes() == damaged
    resumed = games(tmp_path).resume(save)
    bot_steps(resumed, 5)
    resumed.close()
    assert verify(read_replay(replay)).outcome is Outcome.MATCHED


def test_a_good_save_or_a_damaged_replay_is_not_used_to_rebuild(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replay = recorded_game(tmp_path)
    save = the_save(tmp_path)
    before = save.read_bytes()
    assert main(["replay", "--rebuild", str(replay)]) == 1
    assert "not damaged" in capsys.readouterr().err and save.read_bytes() == before
    damaged = damage(save)
    damage(replay)
    assert main(["replay", "--rebuild", str(save)]) == 1
    assert "replay cannot be used" in capsys.readouterr().err
    assert save.read_bytes() == damaged


def test_a_replay_that_no_longer_plays_the_same_rebuilds_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replay = recorded_game(tmp_path)
    replay.write_bytes(replay_bytes(changed_command(read_replay(replay), 11)))
    save = the_save(tmp_path)
    damaged = damage(save)
    assert main(["replay", "--rebuild", str(save)]) == 1
    assert "diverged" in capsys.readouterr().err and save.read_bytes() == damaged


def test_the_load_screen_rebuilds_a_damaged_save_with_r(tmp_path: Path) -> None:
    recorded_game(tmp_path)
    save = the_save(tmp_path)
    damage(save)
    screen = LoadGameScreen(games(tmp_path))
    assert "damaged" in "\n".join(screen_rows(screen))
    assert screen.on_event(key(KeySym.R)) is None
    rows = "\n".join(screen_rows(screen))
    assert "Rebuilt Ann's save" in rows and "R: rebuild" in rows
    assert screen.saves[0].ok and screen.saves[0].name == "Ann"
    screen.on_event(key(KeySym.R))
    assert "only a damaged save is rebuilt" in "\n".join(screen_rows(screen))


def test_a_game_resumed_before_its_first_move_goes_on_being_recorded(tmp_path: Path) -> None:
    import argparse

    from roguelike.cli.saves import games_for
    from roguelike.core.commands import Wait
    from roguelike.replay.fileformat import read_replay

    games = games_for(argparse.Namespace(data_dir=tmp_path, seed=5))
    games.new("Ann").close()  # quit before the first move
    info = games.last()
    assert info is not None
    session = games.resume(info.path)
    for _ in range(5):
        session.apply(Wait())
    session.close()
    assert not session.notices.lines()
    (replay,) = (tmp_path / "replays").glob("*.replay")
    assert len(read_replay(replay).steps) == 5


def test_a_replay_that_diverges_leaves_no_half_replay_behind_its_refused_save(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = recorded_game(tmp_path / "mine")
    source.write_bytes(replay_bytes(changed_command(read_replay(source), 11)))
    target = tmp_path / "dev"
    assert main(["replay", str(source), "--to-turn", "30", "--save-as", "Ann", "--data-dir", str(target)]) == 1
    assert "diverged" in capsys.readouterr().err
    assert not list((target / "saves").glob("*.save")) and not list((target / "replays").glob("*.replay"))
