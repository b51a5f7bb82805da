"""'Play from here' in the replay viewer: a practice game from the turn shown, marked, played on."""

from __future__ import annotations

import argparse
from pathlib import Path

import tcod.event
from tcod.event import KeySym, Modifier, Scancode

from replay_helpers import record_bot_game
from roguelike.cli.replay import practice_starter
from roguelike.replay.fileformat import read_replay
from roguelike.replay.playback import Playback
from roguelike.saves import list_saves
from roguelike.screens.base import App
from roguelike.screens.ingame import InGameScreen
from roguelike.screens.replay import ALERT, ReplayScreen


def key(sym: KeySym) -> tcod.event.KeyDown:
    return tcod.event.KeyDown(scancode=Scancode.UNKNOWN, sym=sym, mod=Modifier.NONE)


def test_p_plays_on_from_the_turn_shown_as_a_marked_practice_game(tmp_path: Path) -> None:
    path, _ = record_bot_game(tmp_path, seed=5, turns=80)
    replay = read_replay(path)
    args = argparse.Namespace(data_dir=tmp_path)
    app = App(ReplayScreen(Playback(replay), practice_starter(args, replay)))
    viewer = app.stack[-1]
    assert isinstance(viewer, ReplayScreen)
    viewer.playback.seek_turn(30)
    app.handle(key(KeySym.P))
    game_screen = app.stack[-1]
    assert isinstance(game_screen, InGameScreen)
    game = game_screen.game
    assert game.state.turn == 30 and game.state.origin == "replay"
    assert game.state.name == replay.header.name
    app.handle(key(KeySym.L))  # it plays on
    assert game_screen.session.steps > 30
    (practice,) = [info for info in list_saves(tmp_path) if info.ok]
    assert practice.path.exists()
    app.close_all()
    assert read_replay(path).steps == replay.steps  # the watched replay is left as it was


def test_at_the_death_it_says_why_not_on_the_banner(tmp_path: Path) -> None:
    replay = read_replay(Path(__file__).resolve().parent.parent / "replays" / "death-exhaustion.replay")
    screen = ReplayScreen(Playback(replay), practice_starter(argparse.Namespace(data_dir=tmp_path), replay))
    screen.playback.seek_step(screen.playback.total_steps)
    assert screen.playback.game.state.game_over
    assert screen.on_event(key(KeySym.P)) is None
    assert screen.problem.startswith("cannot play from here: the character is dead by turn")
    assert screen.note() == (screen.problem, ALERT)
    assert list_saves(tmp_path) == []
    screen.on_close()
