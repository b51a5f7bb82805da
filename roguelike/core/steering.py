"""Who steers the player: the behaviours the conditions table names, and the rule that picks one.

:mod:`roguelike.content.conditions` lists the conditions in order of strength, each naming
a :class:`~roguelike.content.conditions.Trigger` (when it holds) and a
:class:`~roguelike.content.conditions.Steer` (the step it takes). Here each trigger and each
steer is one function, in :data:`HOLDS` and :data:`STEPS`; :func:`who_steers` walks the
table and returns the first condition that holds. The scheduled systems that act on it
are in :mod:`systems.control`.
"""

from __future__ import annotations

from collections.abc import Callable

import esper

from components import ActionPoints, Attributes, Carried, Monster, Position, StateOfMind
from components.monsters import Status
from components.registry import SAVED_COMPONENTS
from roguelike.content import formulas
from roguelike.content.conditions import CONDITIONS, Condition, Steer, Timed, Trigger
from roguelike.core.floor import PASSABLE, WALKABLE
from roguelike.core.pathing import NEIGHBOURS, step_toward, travel_cost
from roguelike.core.rng import Purpose, Rng
from roguelike.core.state import Now
from roguelike.core.world import doses_on_floor, entities_at, monsters_in_sight, occupied

Step = tuple[int, int]
Holds = Callable[[Now, Condition, Attributes], bool]
StepFn = Callable[[Now, Position, Attributes, Step], Step]


def status_component(timed: Timed) -> type[Status]:
    """The registered component of a timed condition."""
    cls = SAVED_COMPONENTS[timed.component]
    assert issubclass(cls, Status), timed.component
    return cls


# Each timed condition with its component, in the table's order.
STATUSES: tuple[tuple[Condition, Timed, type[Status]], ...] = tuple(
    (condition, condition.timed, status_component(condition.timed))
    for condition in CONDITIONS.values()
    if condition.timed is not None
)
STATUS_OF: dict[str, type[Status]] = {condition.key: cls for condition, _, cls in STATUSES}


def who_steers(now: Now) -> Condition | None:
    """The condition steering the next action, or None if the player will."""
    attrs = esper.component_for_entity(now.state.player, Attributes)
    for condition, holds in ORDER:
        if holds(now, condition, attrs):
            return condition
    return None


def has_status(now: Now, condition: Condition, attrs: Attributes) -> bool:
    """A timed condition holds while its component is on the player."""
    return esper.has_component(now.state.player, STATUS_OF[condition.key])


def is_desperate(now: Now, condition: Condition, attrs: Attributes) -> bool:
    """Desperation holds at or below the Desperation line."""
    return formulas.is_desperate(esper.component_for_entity(now.state.player, StateOfMind).value, attrs.will)


def is_desperate_carrying(now: Now, condition: Condition, attrs: Attributes) -> bool:
    """Desperation with a dose carried takes that dose rather than walking to one."""
    return carries(now) and is_desperate(now, condition, attrs)


def is_pocket_pulled(now: Now, condition: Condition, attrs: Attributes) -> bool:
    """A Will at its weakest, in Withdrawal, gives way to a dose it carries."""
    som = esper.component_for_entity(now.state.player, StateOfMind).value
    return formulas.pocket_pulls(attrs.will, som) and carries(now)


def carries(now: Now) -> bool:
    """Whether the player carries a dose."""
    carried = esper.try_component(now.state.player, Carried)
    return carried is not None and bool(carried.kinds)


def is_pulled(now: Now, condition: Condition, attrs: Attributes) -> bool:
    """A weak Will is pulled while a dose in sight lies within its reach."""
    if not formulas.irresistible_range(attrs.will):
        return False
    return weak_will_step(now, esper.component_for_entity(now.state.player, Position), attrs) is not None


def is_afraid(now: Now, condition: Condition, attrs: Attributes) -> bool:
    """A Nerve at the panic level fails while a monster is in sight."""
    return formulas.panics(attrs.nerve) and bool(monsters_in_sight(now.view.visible))


def notice_text(condition: Condition, attrs: Attributes) -> str:
    """What the log says when the condition takes the controls ('' for nothing)."""
    reach = formulas.irresistible_range(attrs.will)
    return condition.notice.format(reach="a step" if reach == 1 else f"{reach} steps")


def stay(now: Now, pos: Position, attrs: Attributes, own: Step) -> Step:
    """No step at all, not even what Desperation wants."""
    return 0, 0


def turn_around(now: Now, pos: Position, attrs: Attributes, own: Step) -> Step:
    """The player's own step, reversed."""
    return -own[0], -own[1]


def hesitate_step(now: Now, pos: Position, attrs: Attributes, own: Step) -> Step:
    """The player's own step, or, a share of the time, no step: a strike is never held back."""
    if own == (0, 0) or holds(own, pos, Monster):
        return own
    points = esper.try_component(now.state.player, ActionPoints)
    left = points.remaining if points is not None else 0  # two actions a turn draw apart
    doubt = now.state.clock().at(Purpose.DOUBT, pos.x, pos.y, left)
    return (0, 0) if doubt.chance(*formulas.DOUBT_HESITATES) else own


def shy_step(now: Now, pos: Position, attrs: Attributes, own: Step) -> Step:
    """The player's own step, held back where it would take (or pick up) a dose; a strike goes on."""
    if own == (0, 0) or holds(own, pos, Monster):
        return own
    to = (pos.x + own[0], pos.y + own[1])
    return (0, 0) if any((p.x, p.y) == to for _, p, _ in doses_on_floor()) else own


def holds(own: Step, pos: Position, component: type) -> bool:
    """Whether the tile the step goes to holds something with ``component`` (a monster)."""
    return any(esper.has_component(other, component) for other in entities_at(pos.x + own[0], pos.y + own[1]))


def desperate_step(now: Now, pos: Position, attrs: Attributes, own: Step) -> Step:
    """Along a path to the nearest known dose, or else toward the unexplored."""
    floor = now.state.floor
    dose_known = floor.dose_known()
    known = [(p.x, p.y) for _, p, _ in doses_on_floor() if dose_known[p.y, p.x]]
    cost = travel_cost(floor)
    step = step_toward(cost, (pos.x, pos.y), known)
    if step is None:
        step = step_toward(cost, (pos.x, pos.y), ~floor.explored & PASSABLE[floor.tiles])
    return step if step is not None else (0, 0)


def weak_will_step(now: Now, pos: Position, attrs: Attributes) -> Step | None:
    """At Will 1 a dose within 2 tiles, at Will 2 an adjacent one, draws the player in."""
    reach = formulas.irresistible_range(attrs.will)
    if reach == 0:
        return None
    doses = [
        (p.x, p.y)
        for _, p, _ in doses_on_floor()
        if max(abs(p.x - pos.x), abs(p.y - pos.y)) <= reach and now.view.visible[p.y, p.x]
    ]
    return step_toward(travel_cost(now.state.floor), (pos.x, pos.y), doses) if doses else None


def pulled_step(now: Now, pos: Position, attrs: Attributes, own: Step) -> Step:
    """The weak Will's step (it only holds when there is one)."""
    return weak_will_step(now, pos, attrs) or (0, 0)


def no_step(now: Now, pos: Position, attrs: Attributes, own: Step) -> Step:
    """No step: the action takes a carried dose instead (the steering names which)."""
    return 0, 0


def flee_step(now: Now, pos: Position, attrs: Attributes, own: Step) -> Step:
    """The step farthest from the nearest monster in sight (at random with none); (0, 0) if cornered."""
    threats = monsters_in_sight(now.view.visible)
    free = free_steps(now, (pos.x, pos.y))
    if not threats:
        return flight(now, pos).choice(free) if free else (0, 0)
    x, y = pos.x, pos.y

    def safety(step: Step) -> int:
        return min((x + step[0] - tx) ** 2 + (y + step[1] - ty) ** 2 for tx, ty in threats)

    best = max((safety(step) for step in free), default=0)
    if best <= safety((0, 0)):
        return 0, 0
    return flight(now, pos).choice([step for step in free if safety(step) == best])


def flight(now: Now, pos: Position) -> Rng:
    """The panicking player's own stream this turn, at this tile."""
    return now.state.clock().at(Purpose.FLEE, pos.x, pos.y)


def free_steps(now: Now, at: Step) -> list[Step]:
    """Steps onto open tiles where nothing stands (panic runs past doors and doses)."""
    floor, taken = now.state.floor, occupied(blockers_only=False)
    x, y = at
    return [(dx, dy) for dx, dy in NEIGHBOURS if WALKABLE[floor.tile(x + dx, y + dy)] and (x + dx, y + dy) not in taken]


HOLDS: dict[Trigger, Holds] = {
    Trigger.TIMED: has_status,
    Trigger.DESPERATION: is_desperate,
    Trigger.DESPERATION_CARRYING: is_desperate_carrying,
    Trigger.POCKET: is_pocket_pulled,
    Trigger.PULL: is_pulled,
    Trigger.FEAR: is_afraid,
}
STEPS: dict[Steer, StepFn] = {
    Steer.STAY: stay,
    Steer.TO_DOSE: desperate_step,
    Steer.PULLED: pulled_step,
    Steer.TAKE_CARRIED: no_step,
    Steer.FLEE: flee_step,
    Steer.TURN_AROUND: turn_around,
    Steer.HESITATE: hesitate_step,
    Steer.SHY: shy_step,
}
# The table in order of strength with each condition's test, and each condition's step, by its
# key: looked up twice an action, where an Enum's hash (written in Python) would cost more than the test.
ORDER: tuple[tuple[Condition, Holds], ...] = tuple((c, HOLDS[c.trigger]) for c in CONDITIONS.values())
STEP_OF: dict[str, StepFn] = {c.key: STEPS[c.steer] for c in CONDITIONS.values()}
