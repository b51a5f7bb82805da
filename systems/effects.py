"""Losing control to monsters: stun, panic and confusion, and their wearing off.

A stun holds the player whatever else wants the controls. Panic and confusion come
after Desperation and a weak Will and give way to them (they respect ``TakenOver``).
"""

from __future__ import annotations

import esper

from components import Attributes, Confused, MoveIntent, Panicked, Player, Position, Stunned, TakenOver
from roguelike.content import formulas
from roguelike.core.ecs import Phase, system
from roguelike.core.floor import WALKABLE
from roguelike.core.state import GameState
from systems.monsters import NEIGHBOURS, monsters_in_sight, occupied

STUNNED_REASON = "Stunned: you cannot move."
PANIC_REASON = "Panic: you run and cannot stop."
NERVE_REASON = "Your nerve fails: you flee the monsters."
CONFUSED_REASON = "Confused: your moves go the wrong way."
EFFECT_REASONS = frozenset({STUNNED_REASON, PANIC_REASON, NERVE_REASON, CONFUSED_REASON})

# Each timed status, the reason shown while it lasts and the message when it ends.
STATUS_TEXTS: tuple[tuple[type[Stunned] | type[Panicked] | type[Confused], str, str], ...] = (
    (Stunned, STUNNED_REASON, "You can move again."),
    (Panicked, PANIC_REASON, "The panic passes."),
    (Confused, CONFUSED_REASON, "Your head clears."),
)


@system(Player, MoveIntent, Stunned)
def hold_stunned(state: GameState, entity: int, player: Player, intent: MoveIntent, stunned: Stunned) -> None:
    """A stunned player does nothing, not even what Desperation wants."""
    intent.dx = intent.dy = 0
    esper.add_component(entity, TakenOver(STUNNED_REASON))


@system(Player, Position, Attributes, MoveIntent)
def flee_in_panic(
    state: GameState, entity: int, player: Player, pos: Position, attrs: Attributes, intent: MoveIntent
) -> None:
    """Panic (a status, or low Nerve with a monster in sight) runs from what is seen."""
    panicked = esper.has_component(entity, Panicked)
    if esper.has_component(entity, TakenOver) or not (panicked or formulas.panics(attrs.nerve)):
        return
    threats = monsters_in_sight(state)
    if not panicked and not threats:
        return
    intent.dx, intent.dy = flee_step(state, (pos.x, pos.y), threats)
    reason = PANIC_REASON if panicked else NERVE_REASON
    esper.add_component(entity, TakenOver(reason))
    if not panicked:
        say_once(state, "Your nerve breaks. You run.")


@system(Player, MoveIntent, Confused)
def invert_confused(state: GameState, entity: int, player: Player, intent: MoveIntent, confused: Confused) -> None:
    """Confusion turns the player's own step around: left is right, up is down."""
    if not esper.has_component(entity, TakenOver):
        intent.dx, intent.dy = -intent.dx, -intent.dy


@system(Player, phase=Phase.CLOCK)
def wear_off_effects(state: GameState, entity: int, player: Player) -> None:
    """Every timed status loses a turn; the player is told when one ends."""
    for status, _, ends in STATUS_TEXTS:
        current = esper.try_component(entity, status)
        if current is None:
            continue
        current.turns -= 1
        if current.turns <= 0:
            esper.remove_component(entity, status)
            state.say(ends)


def flee_step(state: GameState, at: tuple[int, int], threats: list[tuple[int, int]]) -> tuple[int, int]:
    """The step farthest from the nearest threat (at random with none); (0, 0) if cornered."""
    free = free_steps(state, at)
    if not threats:
        return state.rng.choice(free) if free else (0, 0)
    x, y = at

    def safety(step: tuple[int, int]) -> int:
        return min((x + step[0] - tx) ** 2 + (y + step[1] - ty) ** 2 for tx, ty in threats)

    best = max((safety(step) for step in free), default=0)
    if best <= safety((0, 0)):
        return 0, 0
    return state.rng.choice([step for step in free if safety(step) == best])


def free_steps(state: GameState, at: tuple[int, int]) -> list[tuple[int, int]]:
    """Steps onto open tiles where nothing stands (panic runs past doors and doses)."""
    floor, taken = state.floor, occupied(blockers_only=False)
    x, y = at
    return [
        (dx, dy)
        for dx, dy in NEIGHBOURS
        if WALKABLE[floor.tile(x + dx, y + dy)] and (x + dx, y + dy) not in taken
    ]


def say_once(state: GameState, text: str) -> None:
    """Say something unless it is already the newest message (no spam while it lasts)."""
    if not state.messages or state.messages[-1].text != text:
        state.say(text)


def stun_reason(state: GameState) -> str | None:
    """Why the player cannot act because of a stun, if stunned."""
    return STUNNED_REASON if esper.has_component(state.player, Stunned) else None


def lost_control_reason(state: GameState) -> str | None:
    """Why panic or confusion will steer the player's next action, if they will."""
    player = state.player
    if esper.has_component(player, Panicked):
        return PANIC_REASON
    nerve = esper.component_for_entity(player, Attributes).nerve
    if formulas.panics(nerve) and monsters_in_sight(state):
        return NERVE_REASON
    return CONFUSED_REASON if esper.has_component(player, Confused) else None
