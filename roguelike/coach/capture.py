"""A review's first step, in a worker: verify the replay whole and keep the game at some places.

The replay is re-simulated by the verifier (:func:`roguelike.replay.verify.run_steps`,
every checksum compared) with an observer that keeps the snapshot at the positions asked
for, so a game is turned into states in the one pass that proves it. A replay that does
not verify gives no states at all.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from roguelike.core.game import Game
from roguelike.core.session import Session, Step
from roguelike.core.snapshot import snapshot_bytes
from roguelike.replay.fileformat import Replay
from roguelike.replay.verify import Outcome, run_steps


@dataclass(frozen=True)
class Captured:
    """The verdict on a replay and, if it verified, its game's snapshot at each position asked for."""

    verified: bool
    problem: str  # why it did not verify ("" when it did)
    cause: str | None  # how the character died, if the replay ends in a death
    snapshots: dict[int, bytes] = field(default_factory=dict)


class Keeper:
    """An observer keeping the snapshot after the commands at chosen positions."""

    def __init__(self, positions: set[int]) -> None:
        self.positions = positions
        self.kept: dict[int, bytes] = {}

    def after_step(self, game: Game, step: Step) -> None:
        """Keep this step's snapshot if its position was asked for."""
        if step.index in self.positions:
            self.kept[step.index] = step.snapshot

    def close(self, game: Game) -> None:
        """Nothing to release."""


def capture(replay: Replay, positions: list[int]) -> Captured:
    """Verify ``replay`` and keep its game's snapshot at ``positions`` (commands applied)."""
    game = Game.new(replay.header.seed, replay.header.name)
    keeper = Keeper(set(positions))
    if 0 in keeper.positions:
        keeper.kept[0] = snapshot_bytes(game)
    try:
        verdict = run_steps(Session(game, [keeper]), replay, None)
    finally:
        game.close()
    if verdict.outcome is not Outcome.MATCHED:
        return Captured(False, verdict.details[0] if verdict.details else "it does not verify", None)
    return Captured(True, "", verdict.cause, keeper.kept)
