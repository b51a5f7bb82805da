"""The headless game: created from a seed and a name, advanced only by commands.

A :class:`Game` never reads the clock, the console size or the global ``random``; a
test, a bot, a benchmark and both frontends drive the very same object.
"""

from __future__ import annotations

import itertools
from typing import TypeVar

import esper

from components import (
    ActionPoints,
    Attributes,
    BlocksMovement,
    MoveIntent,
    Palette,
    Player,
    Position,
    Record,
    Renderable,
    StateOfMind,
    Tolerance,
)
from roguelike.content import formulas
from roguelike.core.commands import Command, Move
from roguelike.core.ecs import run_system, run_turn
from roguelike.core.rng import Rng, derive_seed
from roguelike.core.sight import field_of_view
from roguelike.core.state import GameState
from roguelike.core.world import ensure_floor, wake_floor
from systems import TURN
from systems.control import control_reason
from systems.perception import shift_colours, update_field_of_view

C = TypeVar("C")
GAME_SALT = 0x6A3E
PLAYER_COLOUR = (255, 255, 255)
_world_names = itertools.count(1)

WELCOME = "You wake up shaking. A dose must be near."


class Game:
    """One game of Hedonic Hypothesis, living in its own esper world."""

    def __init__(self, state: GameState, world: str) -> None:
        self.state = state
        self.world = world

    @classmethod
    def new(cls, seed: int, name: str) -> Game:
        """A fresh game on floor 1: the player in a room with one dose in sight."""
        world = fresh_world()
        state = GameState(seed=seed, name=name, player=0, rng=Rng(derive_seed(seed, GAME_SALT)), floors={})
        floor = ensure_floor(state, 1)
        state.player = esper.create_entity(*starting_player(name, floor.arrival))
        wake_floor(state)
        state.say(WELCOME)
        game = cls(state, world)
        run_system(update_field_of_view, state)
        run_system(shift_colours, state)
        return game

    def activate(self) -> None:
        """Make this game's world the one esper works on."""
        if esper.current_world != self.world:
            esper.switch_world(self.world)

    def apply(self, command: Command) -> None:
        """Advance the game by one player action."""
        self.activate()
        if self.state.game_over:
            return
        state = self.state
        state.acted = state.clock_ticks = state.doors_opened = False
        dx, dy = (command.dx, command.dy) if isinstance(command, Move) else (0, 0)
        intent = esper.try_component(state.player, MoveIntent)
        if intent is None:
            esper.add_component(state.player, MoveIntent(dx, dy))
        else:
            intent.dx, intent.dy = dx, dy
        run_turn(TURN, state)

    def refresh_visible(self) -> None:
        """Recompute which tiles the player sees (derived data, not saved)."""
        self.activate()
        pos = self.player_component(Position)
        self.state.visible = field_of_view(self.state.floor, pos.x, pos.y)

    def player_component(self, kind: type[C]) -> C:
        """One of the player's components."""
        self.activate()
        return esper.component_for_entity(self.state.player, kind)

    def palette(self) -> Palette:
        """The world's current colours."""
        return self.player_component(Palette)

    def control_reason(self) -> str | None:
        """Why the player's next key will not steer, or None if it will."""
        self.activate()
        return control_reason(self.state)

    def close(self) -> None:
        """Forget this game's esper world."""
        if esper.current_world == self.world:
            esper.switch_world("default")
        if self.world in esper.list_worlds():
            esper.delete_world(self.world)


def fresh_world() -> str:
    """Switch esper to a new, empty world and return its name."""
    name = f"game-{next(_world_names)}"
    esper.switch_world(name)
    esper.clear_database()
    return name


def starting_player(name: str, at: tuple[int, int]) -> list[object]:
    """The components of a new player character."""
    start = formulas.ATTRIBUTE_START
    saturation, brightness = formulas.palette_for(formulas.STATE_OF_MIND_START)
    return [
        Player(name),
        Position(*at),
        Renderable("@", PLAYER_COLOUR, layer=2, always_bright=True),
        BlocksMovement(),
        StateOfMind(formulas.STATE_OF_MIND_START),
        Attributes(start, start, start),
        Tolerance(formulas.TOLERANCE_START),
        Record(),
        Palette(saturation, brightness, False),
        ActionPoints(formulas.action_points(start)),
    ]
