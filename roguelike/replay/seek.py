"""Moving through a replay the other way: back a turn, and floor by floor.

Going back restores the nearest snapshot the :class:`~roguelike.replay.playback.Playback`
kept (one every ``KEYFRAME_EVERY`` commands) and plays forward from it, every command
checked against its recorded checksum, so a step back lands on exactly the game a step
forward reached. Floor changes are read from the step records' witness (the depth), so
finding them plays nothing.
"""

from __future__ import annotations

import bisect

from roguelike.replay.fileformat import Replay, Witness
from roguelike.replay.playback import Playback
from roguelike.replay.witness import apply_changes


def floor_starts(replay: Replay) -> list[int]:
    """Positions (commands applied) where the player has just arrived on a floor: 0 first."""
    starts, depth = [0], 1
    facts_now: Witness = {}
    for position, record in enumerate(replay.steps, start=1):
        facts_now = apply_changes(facts_now, record.changes)
        now = int(facts_now.get("depth", depth))
        if now != depth:
            starts.append(position)
        depth = now
    return starts


def step_back(playback: Playback) -> None:
    """Back to where the previous turn began (or the start)."""
    turn = playback.game.state.turn
    playback.seek_turn(max(0, turn - 1))


def previous_floor(playback: Playback, starts: list[int]) -> None:
    """To the arrival on this floor, or on the one before if already there."""
    index = bisect.bisect_left(starts, playback.position) - 1
    playback.seek_step(starts[max(0, index)])


def next_floor(playback: Playback, starts: list[int]) -> None:
    """To the arrival on the next floor (or the end, on the last one)."""
    index = bisect.bisect_right(starts, playback.position)
    playback.seek_step(starts[index] if index < len(starts) else playback.total_steps)
