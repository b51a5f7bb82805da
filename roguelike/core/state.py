"""The one small object of world-wide state that systems share and saves keep.

Everything about a game that is not a component of an entity lives here: the seed,
the turn, the floors, the game's RNG and the message log.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from roguelike.content import formulas
from roguelike.core.floor import Floor
from roguelike.core.rng import Rng

MESSAGE_LOG_SIZE = 50


@dataclass
class Message:
    """One line of the notification area, stamped with its turn."""

    turn: int
    text: str


@dataclass
class GameState:
    """World-wide state of one game; ``visible`` and the flags after ``messages`` are per-action scratch."""

    seed: int
    name: str
    player: int
    rng: Rng
    floors: dict[int, Floor]
    depth: int = 1
    turn: int = 0
    messages: list[Message] = field(default_factory=list)
    cause_of_death: str | None = None
    acted: bool = False
    clock_ticks: bool = False
    doors_opened: bool = False  # a monster opened a door after the player's sight was cast
    travel_to: int | None = None
    visible: NDArray[np.bool_] = field(
        default_factory=lambda: np.zeros((formulas.MAP_HEIGHT, formulas.MAP_WIDTH), dtype=bool)
    )

    @property
    def floor(self) -> Floor:
        """The floor the player is on."""
        return self.floors[self.depth]

    @property
    def game_over(self) -> bool:
        """Whether the player has died."""
        return self.cause_of_death is not None

    def say(self, text: str) -> None:
        """Add a line to the notification area."""
        self.messages.append(Message(self.turn, text))
        del self.messages[:-MESSAGE_LOG_SIZE]
