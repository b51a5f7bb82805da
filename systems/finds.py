"""Finds: walking onto one while High takes it, and its kind's effects apply.

A find is a vision (:class:`components.Vision`): for a player who is not High it is not
there, and stepping on its tile takes nothing. What each kind does is data in
:mod:`roguelike.content.finds`; this system applies every kind the same way.
"""

from __future__ import annotations

import esper
import numpy as np

from components import Attributes, Find, FindsTaken, Player, Position, StateOfMind, Tolerance
from roguelike.content import formulas
from roguelike.content.finds import FIND_KINDS, FindKind
from roguelike.core import cues
from roguelike.core.combat import count
from roguelike.core.ecs import system
from roguelike.core.floor import PASSABLE, Floor
from roguelike.core.state import Now


@system(Player, Position, StateOfMind, Attributes, Tolerance, FindsTaken)
def take_find(
    now: Now,
    entity: int,
    player: Player,
    pos: Position,
    som: StateOfMind,
    attrs: Attributes,
    tolerance: Tolerance,
    taken: FindsTaken,
) -> None:
    """Take the find the player stands on, if High: it disappears and its effects apply."""
    if not formulas.is_high(som.value) or formulas.is_overdose(som.value):
        return
    for found, find in finds_at(pos.x, pos.y):
        kind = FIND_KINDS[find.kind]
        apply_find(now.state.floor, kind, attrs, tolerance)
        count(taken.kinds, kind.key)
        esper.delete_entity(found, immediate=True)
        now.state.say(kind.taken.format(tolerance=tolerance.value, nerve=attrs.nerve, will=attrs.will))
        now.action.cue(cues.FIND, (pos.x, pos.y), key=kind.key)


def finds_at(x: int, y: int) -> list[tuple[int, Find]]:
    """The finds lying at ``(x, y)``, in id order (a one-component query: usually none on the floor)."""
    position_of = esper.component_for_entity
    here = [(e, find) for e, find in esper.get_component(Find) if (p := position_of(e, Position)).x == x and p.y == y]
    return sorted(here, key=lambda pair: pair[0])


def apply_find(floor: Floor, kind: FindKind, attrs: Attributes, tolerance: Tolerance) -> None:
    """A find's effects: Tolerance, Nerve and Will within their bounds; the floor shown if it reveals."""
    tolerance.value = max(formulas.TOLERANCE_START, tolerance.value + kind.tolerance)
    attrs.nerve = formulas.clamp_attribute(attrs.nerve + kind.nerve)
    attrs.will = formulas.clamp_attribute(attrs.will + kind.will)
    if kind.reveals:
        reveal(floor)


def reveal(floor: Floor) -> None:
    """Mark the floor's open tiles and the walls around them explored (drawn as remembered)."""
    known = PASSABLE[floor.tiles]
    padded = np.pad(known, 1)
    height, width = known.shape
    around = np.zeros_like(known)
    for dy in (0, 1, 2):
        for dx in (0, 1, 2):
            around |= padded[dy : dy + height, dx : dx + width]
    floor.explored |= around
