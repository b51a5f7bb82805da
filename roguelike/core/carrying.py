"""Carried doses: picking one up, the weakest one, dropping one, and their true figures.

A dose picked up keeps what it was found with: its Strength is its floor's, and
``Dose.floor`` says which floor that was, so the panel works its figures out there with
the same :func:`~roguelike.content.doses.dose_odds` as the look panel. The player carries at
most ``formulas.CARRY_LIMIT``. Desperation and a weak Will in Withdrawal take the weakest
carried dose (:func:`weakest`: the lowest usual Strength at the floor it was found on, the
oldest first among equals): the panel lists the doses in that light, so the player sees it
coming. Anxiety's hit shakes the newest one loose onto a free tile beside the player.
"""

from __future__ import annotations

import esper
import numpy as np

from components import Carried, Dose, Monster, Position, Renderable, Vision
from roguelike.content import formulas
from roguelike.content.doses import DOSE_KINDS, DoseOdds, dose_odds, strength_bounds
from roguelike.core.chokepoints import RING, chokepoints
from roguelike.core.floor import WALKABLE
from roguelike.core.state import Now
from roguelike.core.tiles import GROUND_TILES
from roguelike.core.world import doses_on_floor, entities_at, occupied, sees_visions

DOSE_LAYER = 1


def carried_doses(carried: Carried) -> list[Dose]:
    """The carried doses, oldest first, as the doses they were on the floor."""
    return [Dose(*fields) for fields in zip(*columns(carried))]


def columns(carried: Carried) -> tuple[list[str], list[int], list[int], list[int], list[int], list[int]]:
    """The component's lists in the order of a dose's fields."""
    return carried.kinds, carried.strengths, carried.confidence, carried.nerve, carried.will, carried.floors


def put_in(carried: Carried, dose: Dose) -> None:
    """Carry a dose as it is."""
    kinds, *numbers = columns(carried)
    kinds.append(dose.kind)
    for values, value in zip(numbers, (dose.strength, dose.confidence, dose.nerve, dose.will, dose.floor)):
        values.append(value)


def take_out(carried: Carried, index: int) -> Dose:
    """Stop carrying one dose and hand it back."""
    dose = carried_doses(carried)[index]
    for values in columns(carried):
        del values[index]
    return dose


def weakest(carried: Carried) -> int | None:
    """The index of the dose a takeover takes: the lowest usual Strength where it was found, oldest first."""
    doses = carried_doses(carried)
    if not doses:
        return None
    return min(range(len(doses)), key=lambda index: (usual_strength(doses[index]), index))


def usual_strength(dose: Dose) -> tuple[int, int]:
    """The usual Strength of a dose's kind on the floor it was found on."""
    return strength_bounds(DOSE_KINDS[dose.kind], dose.floor)


def true_odds(dose: Dose, state_of_mind: int, tolerance: int) -> DoseOdds:
    """What a dose would give now, worked out at the floor it was found on (the look panel's figures)."""
    return dose_odds(DOSE_KINDS[dose.kind], dose.floor, state_of_mind, tolerance)


def pick_up(now: Now, player: int, pos: Position, dx: int, dy: int) -> bool | None:
    """Pick up the dose a step away: whether it took the action; None if a monster stands there."""
    here = entities_at(pos.x + dx, pos.y + dy)
    if any(esper.has_component(other, Monster) for other in here):
        return None  # a fight comes first, as for any bump
    doses = [other for other in here if esper.has_component(other, Dose)]
    if doses and esper.has_component(doses[0], Vision):
        if sees_visions():
            now.state.say("It shimmers through your fingers: a vision cannot be carried.")
            return False
        doses = []
    if not doses:
        now.state.say("There is no dose there to pick up.")
        return False
    carried = esper.component_for_entity(player, Carried)
    if len(carried.kinds) >= formulas.CARRY_LIMIT:
        now.state.say(f"You already carry {formulas.CARRY_LIMIT} doses: take one before picking up another.")
        return False
    dose = esper.component_for_entity(doses[0], Dose)
    put_in(carried, dose)
    esper.delete_entity(doses[0], immediate=True)
    name = DOSE_KINDS[dose.kind].name
    now.state.say(
        f"You pick up the {name} (from floor {dose.floor}): {len(carried.kinds)} of {formulas.CARRY_LIMIT} carried."
    )
    return True


def drop_newest(now: Now, player: int, away_from: tuple[int, int]) -> None:
    """Anxiety's hit: the newest carried dose falls on a free tile beside the player (none free: kept)."""
    carried = esper.try_component(player, Carried)
    if carried is None or not carried.kinds:
        return
    pos = esper.component_for_entity(player, Position)
    spot = drop_spot(now, (pos.x, pos.y), away_from)
    if spot is None:
        return
    dose = take_out(carried, len(carried.kinds) - 1)
    kind = DOSE_KINDS[dose.kind]
    esper.create_entity(
        Position(*spot), Renderable(kind.glyph, kind.colour, layer=DOSE_LAYER, always_bright=True), dose
    )
    now.state.say(f"Your hands shake: the {kind.name} you carried falls to the floor.")


def drop_spot(now: Now, at: tuple[int, int], away_from: tuple[int, int]) -> tuple[int, int] | None:
    """A plain floor tile beside ``at`` where nothing stands and a dose seals no way: the one
    farthest from ``away_from``, the first clockwise from north among equals."""
    tiles = now.state.floor.tiles
    taken = occupied(blockers_only=False)
    open_ground = WALKABLE[tiles]
    for _, dose_at, _ in doses_on_floor():
        open_ground[dose_at.y, dose_at.x] = False
    cuts = chokepoints(np.asarray(open_ground, dtype=bool))
    free = [
        (at[0] + dx, at[1] + dy)
        for dx, dy in RING
        if tiles[at[1] + dy, at[0] + dx] in GROUND_TILES
        and (at[0] + dx, at[1] + dy) not in taken
        and not cuts[at[1] + dy, at[0] + dx]
    ]
    if not free:
        return None
    far = max((x - away_from[0]) ** 2 + (y - away_from[1]) ** 2 for x, y in free)
    return next(spot for spot in free if (spot[0] - away_from[0]) ** 2 + (spot[1] - away_from[1]) ** 2 == far)
