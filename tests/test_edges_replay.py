"""Edges of the replay viewer: one key steps a whole turn, another one command."""

from __future__ import annotations

from pathlib import Path

from tcod.event import KeySym

from replay_helpers import only_replay
from roguelike.core.commands import Move, Wait
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.replay.fileformat import Replay, read_replay
from roguelike.replay.playback import Playback
from roguelike.replay.recorder import recording_observers
from roguelike.screens.replay import HINT_ROWS, ReplayScreen
from test_replay_screen import key


def bumping_replay(root: Path) -> Replay:
    """A recorded game that walks left into a wall (bumps: commands that end no turn), then waits."""
    game = Game.new(11, "Bumper")
    session = Session(game, recording_observers(root, game))
    for command in [Move(-1, 0)] * 40 + [Wait()] * 3:
        session.apply(command)
    session.close()
    game.close()
    return read_replay(only_replay(root))


def test_a_step_is_one_turn_and_the_other_key_one_command(tmp_path: Path) -> None:
    replay = bumping_replay(tmp_path)
    turns = [record.turn for record in replay.steps]
    bump = next(i for i in range(1, len(turns)) if turns[i] == turns[i - 1])  # a command that ended no turn
    screen = ReplayScreen(Playback(replay))
    screen.playback.seek_step(bump)  # just before the bump
    turn = screen.playback.game.state.turn
    screen.on_event(key(KeySym.COMMA))
    assert (screen.playback.position, screen.playback.game.state.turn) == (bump + 1, turn)
    screen.on_event(key(KeySym.PERIOD))
    assert screen.playback.game.state.turn == turn + 1
    assert ". a turn  , a command" in " ".join(HINT_ROWS)
    screen.on_close()
