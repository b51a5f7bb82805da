"""World-wide state by lifetime: what is saved, what one action produces, what is derived.

:class:`GameState` is everything saved that is not a component of an entity (the seed,
the turn, the floors, the game's RNG, the message log); :class:`ActionRecord` lives for
one action; :class:`View` is derived from the saved state. Systems get all three as a
:class:`Now`. Whether something is saved is a matter of which of them holds it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from roguelike.content import formulas
from roguelike.content.conditions import Condition
from roguelike.core.chart import Chart
from roguelike.core.cues import Cue
from roguelike.core.floor import Floor
from roguelike.core.rng import Rng, WorldClock

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
    """Everything about a game that the snapshot saves and that is not a component of an entity.

    Exactly what is saved, and nothing else (``tests/test_state_lifetimes.py`` holds it):
    what one action produces lives in an :class:`ActionRecord`, what is derived from the
    saved state in the :class:`View`.
    """

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

    @property
    def floor(self) -> Floor:
        """The floor the player is on."""
        return self.floors[self.depth]

    @property
    def game_over(self) -> bool:
        """Whether the player has died."""
        return self.cause_of_death is not None

    def clock(self) -> WorldClock:
        """Where the world draws this turn on this floor (:class:`~roguelike.core.rng.WorldClock`)."""
        return WorldClock(self.seed, self.depth, self.turns_here)

    @property
    def turns_here(self) -> int:
        """Turns since the player arrived on this floor (0 on the first turn there)."""
        # The chart's floor changes are saved, so a loaded game counts from the same turn.
        return self.turn - self.chart.floors[-1][0] if self.chart.floors else self.turn

    def say(self, text: str) -> None:
        """Add a line to the notification area."""
        self.messages.append(Message(self.turn, text))
        del self.messages[:-MESSAGE_LOG_SIZE]


@dataclass(slots=True)
class ActionRecord:
    """What one action of the player produces and hands along the schedule; never saved.

    :meth:`roguelike.core.game.Game.apply` makes a fresh one for every action, so nothing
    in it outlives the action (the game keeps the last one for whoever animates it).
    """

    acted: bool = False  # the action did something (a step, a bump, a wait): it costs a point
    clock_ticks: bool = False  # it was the turn's last action: the world's clock runs
    wading: int = 0  # a step into water: the world's clock runs this many times more
    travel_to: int | None = None  # the floor the player is going to
    hunt: Hunt | None = None  # the monsters' shared plan while they act
    desperate_before: bool = False  # at the start of the action, for telling when Desperation begins
    cues: list[Cue] = field(default_factory=list)  # for animation only: never compared or checksummed

    def cue(self, kind: str, *spots: tuple[int, int], key: str = "", amount: int = 0) -> None:
        """Tell whoever draws or sounds the game that something happened (see roguelike.core.cues)."""
        self.cues.append(Cue(kind, spots, key, amount))


@dataclass(slots=True)
class View:
    """What is derived from the saved state, never saved: sight, and who steers next.

    Rebuilt by the schedule's derive phases (``at_start``) when a game begins or is loaded
    and kept up to date by them after every action; readers (the panel, the keys, the
    bots) only read it.
    """

    visible: NDArray[np.bool_] = field(
        default_factory=lambda: np.zeros((formulas.MAP_HEIGHT, formulas.MAP_WIDTH), dtype=bool)
    )
    seen_from: tuple[int, int, int, int, bytes] | None = None  # depth, x, y, radius and tiles when sight was cast
    steering: Condition | None = None  # what steers the next action instead of the player (see systems.control)


@dataclass(slots=True)
class Now:
    """What a system sees as it runs: the saved state, this action's record, the derived view."""

    state: GameState
    action: ActionRecord
    view: View
