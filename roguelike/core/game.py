"""The headless game: created from a seed and a name, advanced only by commands.

A :class:`Game` never reads the clock, the console size or the global ``random``; a
test, a bot, a benchmark and both frontends drive the very same object.
"""

from __future__ import annotations

from typing import TypeVar

import esper

from components import Dose, Find, HighStreak, MoveIntent, Palette, Position, Record, Score
from components.intents import NOT_CARRIED
from roguelike.content import formulas
from roguelike.content.conditions import Condition
from roguelike.core import cues
from roguelike.core.commands import Command, Mark, Move, PickUp, TakeCarried, Wizard
from roguelike.core.ecs import run_start, run_turn
from roguelike.core.ecsworld import EcsWorld
from roguelike.core.player import PLAYER_COLOUR as PLAYER_COLOUR
from roguelike.core.player import starting_player
from roguelike.core.rng import Rng, derive_seed
from roguelike.core.score import Breakdown, breakdown
from roguelike.core.state import ActionRecord, GameState, Now, View
from roguelike.core.wizard import apply_developer
from roguelike.core.world import Roster, doses_on_floor, ensure_floor, finds_on_floor, occupied, roster, wake_floor
from systems import TURN

C = TypeVar("C")
GAME_SALT = 0x6A3E

WELCOME = "You wake up shaking. A dose must be near."


class Game:
    """One game of Hedonic Hypothesis, living in its own esper world.

    ``state`` is what is saved (with the world's components), ``view`` what is derived
    from it (sight, who steers), ``action`` the record of the last action (its cues).
    """

    def __init__(self, state: GameState, world: EcsWorld) -> None:
        self.state = state
        self.world = world
        self.view = View()
        self.action = ActionRecord()

    @classmethod
    def new(cls, seed: int, name: str) -> Game:
        """A fresh game on floor 1: the player in a room with one dose in sight."""
        world = fresh_world()
        state = GameState(seed=seed, name=name, player=0, rng=Rng(derive_seed(seed, GAME_SALT)), floors={})
        floor = ensure_floor(state, 1)
        state.player = world.create(*starting_player(name, floor.arrival))
        wake_floor(state)
        state.say(WELCOME)
        state.chart.add(formulas.STATE_OF_MIND_START)
        state.chart.floors.append((0, 1))
        game = cls(state, world)
        run_start(TURN, game.now())
        return game

    def activate(self) -> None:
        """Make this game's world current, for tests and benches that call esper themselves."""
        self.world.enter()

    def apply(self, command: Command) -> None:
        """Advance the game by one player action."""
        self.world.enter()
        if self.state.game_over:
            return
        state = self.state
        self.action = ActionRecord()
        if isinstance(command, (Mark, Wizard)):  # developer commands take no time
            apply_developer(state, command)
            self.refresh_visible()
            return
        intent = esper.try_component(state.player, MoveIntent)
        if intent is None:
            intent = MoveIntent(0, 0)
            esper.add_component(state.player, intent)
        intent_of(command, intent)
        run_turn(TURN, self.now())
        if state.game_over:
            pos = esper.component_for_entity(state.player, Position)
            self.action.cue(cues.DEATH, (pos.x, pos.y), key=state.cause_of_death or "")

    def refresh_visible(self) -> None:
        """Derive again what is never saved: sight, colours, who steers next.

        Loading does it; so must a test or a tool that changes components by hand.
        """
        self.world.enter()
        self.view.seen_from = None
        run_start(TURN, self.now())

    def now(self) -> Now:
        """The saved state, the current action's record and the view, as the systems see them."""
        return Now(self.state, self.action, self.view)

    def player_component(self, kind: type[C]) -> C:
        """One of the player's components."""
        return self.world.component(self.state.player, kind)

    def monsters(self) -> Roster:
        """Every monster of the player's floor with its position, in id order."""
        self.world.enter()
        return roster()

    def doses(self) -> list[tuple[int, Position, Dose]]:
        """Every dose of the player's floor with its position, in id order."""
        self.world.enter()
        return doses_on_floor()

    def finds(self) -> list[tuple[int, Position, Find]]:
        """Every find of the player's floor with its position, in id order: none unless the player is High."""
        self.world.enter()
        return finds_on_floor()

    def taken_tiles(self) -> set[tuple[int, int]]:
        """Tiles where anything of the player's floor stands (doses included)."""
        self.world.enter()
        return occupied(blockers_only=False)

    def score(self) -> Breakdown:
        """The score as it stands, with its parts (panel, death screen, morgue, history)."""
        record, streak = self.player_component(Record), self.player_component(HighStreak)
        return breakdown(self.state.floor, record, self.player_component(Score), streak)

    def player_component_or_none(self, kind: type[C]) -> C | None:
        """One of the player's components, or None if the player lacks it."""
        return self.world.try_component(self.state.player, kind)

    def palette(self) -> Palette:
        """The world's current colours."""
        return self.player_component(Palette)

    def control_reason(self) -> str | None:
        """Why the player's next key will not steer, or None if it will (decided once per action)."""
        steering = self.view.steering
        return None if steering is None else steering.reason

    def steering(self) -> Condition | None:
        """The condition that steers the player's next action, or None (decided once per action)."""
        return self.view.steering

    def close(self) -> None:
        """Forget this game's esper world."""
        self.world.close()


def intent_of(command: Command, intent: MoveIntent) -> None:
    """Rewrite the player's intent in place for a command: a step, picking up, taking a carried dose, a wait."""
    intent.dx, intent.dy = (command.dx, command.dy) if isinstance(command, (Move, PickUp)) else (0, 0)
    intent.pick_up = isinstance(command, PickUp)
    intent.carried = command.index if isinstance(command, TakeCarried) else NOT_CARRIED


def fresh_world() -> EcsWorld:
    """A new, empty esper world, made current."""
    return EcsWorld()
