"""The one small object of world-wide state that systems share and saves keep.

Everything about a game that is not a component of an entity lives here: the seed,
the turn, the floors, the game's RNG and the message log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from roguelike.content import formulas
from roguelike.content.conditions import Condition
from roguelike.core.cues import Cue
from roguelike.core.chart import Chart
from roguelike.core.floor import Floor
from roguelike.core.rng import Rng

if TYPE_CHECKING:
    from roguelike.core.hunt import Hunt  # only the monsters' turn needs tcod's path finding

MESSAGE_LOG_SIZE = 50


@dataclass(frozen=True, slots=True)
class Message:
    """One line of the notification area, stamped with its turn."""

    turn: int
    text: str


@dataclass
class GameState:
    """World-wide state of one game; the fields after ``cause_of_death`` are derived or scratch, never saved."""

    seed: int
    name: str
    player: int
    rng: Rng
    floors: dict[int, Floor]
    depth: int = 1
    turn: int = 0
    messages: list[Message] = field(default_factory=list)
    cause_of_death: str | None = None
    origin: str | None = None  # "replay" or "wizard": a game that is not the character's own (saved only when set)
    monsters_still: bool = False  # wizard mode: monsters neither notice nor act (saved only when set)
    chart: Chart = field(default_factory=Chart)
    acted: bool = False
    clock_ticks: bool = False
    travel_to: int | None = None
    hunt: Hunt | None = None  # the monsters' shared plan while they act
    desperate_before: bool = False  # at the start of the action, for telling when it begins
    visible: NDArray[np.bool_] = field(
        default_factory=lambda: np.zeros((formulas.MAP_HEIGHT, formulas.MAP_WIDTH), dtype=bool)
    )
    seen_from: tuple[int, int, int, int, bytes] | None = None  # depth, x, y, radius and tiles when sight was cast
    steering: Condition | None = None  # what steers the next action instead of the player (see systems.control)
    cues: list[Cue] = field(default_factory=list)  # for animation only: never saved or checksummed

    def cue(self, kind: str, *spots: tuple[int, int], key: str = "", amount: int = 0) -> None:
        """Tell whoever draws or sounds the game that something happened (see roguelike.core.cues)."""
        self.cues.append(Cue(kind, spots, key, amount))

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
