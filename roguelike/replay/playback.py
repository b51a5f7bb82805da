"""Playback: a replay's game stepped forward command by command, or moved to any turn.

Used by the replay screen and by ``--to-turn``. Every step is checked against its
recorded checksum, so playback stops and says so where the game no longer matches.
Going back restarts from the nearest kept snapshot (one every ``KEYFRAME_EVERY``
steps), so jumping around a long replay stays quick. Snapshots are kept encoded, as a
save holds them: a plain snapshot can share mutable values with the live game.
"""

from __future__ import annotations

import bisect

import msgpack

from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.core.snapshot import from_plain, snapshot_bytes
from roguelike.replay.fileformat import Replay, checksum_in

KEYFRAME_EVERY = 200


class Playback:
    """A replay's game at some step; ``position`` commands have been applied."""

    def __init__(self, replay: Replay) -> None:
        self.replay = replay
        self.keyframes: dict[int, bytes] = {}
        self.diverged_at: int | None = None
        self.session = Session(Game.new(replay.header.seed, replay.header.name))
        self.keyframes[0] = snapshot_bytes(self.game)

    @property
    def game(self) -> Game:
        """The game as it stands at the current position."""
        return self.session.game

    @property
    def position(self) -> int:
        """How many recorded commands have been applied."""
        return self.session.steps

    @property
    def total_steps(self) -> int:
        """How many commands the replay holds."""
        return len(self.replay.steps)

    @property
    def at_end(self) -> bool:
        """Whether there is nothing more to play (the end, or a divergence)."""
        return self.position >= self.total_steps or self.diverged_at is not None

    def step(self) -> bool:
        """Apply the next command; False at the end or where the game diverged."""
        if self.at_end:
            return False
        record = self.replay.steps[self.position]
        if checksum_in(self.replay.format, self.session.apply(record.command).state) != record.checksum:
            self.diverged_at = record.index
            return False
        if self.position % KEYFRAME_EVERY == 0:
            self.keyframes.setdefault(self.position, snapshot_bytes(self.game))
        return True

    def step_turn(self) -> bool:
        """Apply commands until the game turn moves on (bumps into walls end no turn)."""
        turn = self.game.state.turn
        while self.step():
            if self.game.state.turn != turn:
                return True
        return False

    def seek_step(self, target: int) -> None:
        """Move to just after command ``target`` (0 is the start)."""
        target = max(0, min(target, self.total_steps))
        if target < self.position:
            self.restore(max(k for k in self.keyframes if k <= target))
        while self.position < target and self.step():
            pass

    def seek_turn(self, turn: int) -> None:
        """Move to the first step that reaches game turn ``turn`` (or the end)."""
        turns = [record.turn for record in self.replay.steps]
        self.seek_step(bisect.bisect_left(turns, turn) + 1 if turn > 0 else 0)

    def restore(self, position: int) -> None:
        """Jump back to a kept snapshot."""
        self.game.close()
        plain = msgpack.unpackb(self.keyframes[position], raw=False, strict_map_key=False)
        self.session = Session(from_plain(plain), steps=position)
        self.diverged_at = None

    def close(self) -> None:
        """Free the game's world."""
        self.game.close()
