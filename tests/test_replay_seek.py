"""The replay viewer steps back a turn to exactly the game a step forward reached, and jumps
floor by floor."""

from __future__ import annotations

from pathlib import Path

import pytest
import tcod.event
from tcod.event import KeySym

from roguelike.core.game import Game
from roguelike.core.snapshot import encoded_state
from roguelike.replay import seek
from roguelike.replay.fileformat import Replay, checksum_in, read_replay
from roguelike.replay.playback import KEYFRAME_EVERY, Playback
from roguelike.screens.replay import ReplayScreen

CORPUS = Path(__file__).resolve().parent.parent / "replays"


@pytest.fixture(scope="module")
def deep() -> Replay:
    """The committed replay that goes down several floors."""
    replay = read_replay(CORPUS / "floors.replay")
    assert len(seek.floor_starts(replay)) >= 3 and len(replay.steps) > KEYFRAME_EVERY + 30
    return replay


def recorded_checksum(replay: Replay, game: Game) -> str:
    """The game's checksum as the replay's format makes it (the corpus holds format 1 files)."""
    return checksum_in(replay.format, encoded_state(game))


def key(sym: KeySym) -> tcod.event.KeyDown:
    return tcod.event.KeyDown(scancode=tcod.event.Scancode.UNKNOWN, sym=sym, mod=tcod.event.Modifier.NONE)


def test_stepping_back_reaches_the_checksum_stepping_forward_reached(deep: Replay) -> None:
    forward = Playback(deep)
    sums: dict[int, str] = {}
    for _ in range(KEYFRAME_EVERY + 30):
        forward.step()
        sums[forward.game.state.turn] = recorded_checksum(deep, forward.game)
    back = Playback(deep)
    back.seek_step(forward.position)
    for _ in range(60):  # back across a kept snapshot
        seek.step_back(back)
        turn = back.game.state.turn
        assert recorded_checksum(deep, back.game) == sums[turn] == deep.steps[back.position - 1].checksum
        assert back.diverged_at is None
    assert back.game.state.turn == forward.game.state.turn - 60
    forward.close()
    back.close()


def test_stepping_back_from_the_first_turn_stays_at_the_start(deep: Replay) -> None:
    playback = Playback(deep)
    playback.step()
    seek.step_back(playback)
    assert playback.position == 0 and playback.game.state.turn == 0
    seek.step_back(playback)
    assert playback.position == 0
    playback.close()


def test_floor_starts_are_where_the_depth_changes(deep: Replay) -> None:
    starts = seek.floor_starts(deep)
    playback = Playback(deep)
    depths = []
    for start in starts:
        playback.seek_step(start)
        depths.append(playback.game.state.depth)
        if start:
            playback.seek_step(start - 1)
            assert playback.game.state.depth != depths[-1]  # the command before was still upstairs
    assert depths[0] == 1 and all(a != b for a, b in zip(depths, depths[1:]))
    playback.close()


def test_the_viewer_keys_go_back_and_floor_by_floor(deep: Replay) -> None:
    screen = ReplayScreen(Playback(deep))
    floors = seek.floor_starts(deep)
    screen.on_event(key(KeySym.RIGHTBRACKET))
    screen.on_event(key(KeySym.RIGHTBRACKET))
    assert screen.paused and screen.playback.position == floors[2]
    depth = screen.playback.game.state.depth
    screen.on_event(key(KeySym.PERIOD))
    ahead = screen.playback.position
    turn_ahead = screen.playback.game.state.turn
    screen.on_event(key(KeySym.LEFT))  # back to where the previous turn was first reached
    assert screen.playback.position <= floors[2] < ahead
    assert screen.playback.game.state.turn == turn_ahead - 1
    screen.on_event(key(KeySym.LEFTBRACKET))
    assert screen.playback.game.state.depth != depth and screen.playback.position == floors[1]
    screen.on_close()
