"""Dose consumption: Strength less Tolerance to the State of Mind, boosts to attributes."""

from __future__ import annotations

import esper

from components import Attributes, Dose, Record, StateOfMind, Tolerance, UseDose
from roguelike.content import formulas
from roguelike.content.doses import DOSE_KINDS
from roguelike.core.ecs import system
from roguelike.core.state import GameState


@system(UseDose, StateOfMind, Attributes, Tolerance, Record)
def consume_dose(
    state: GameState, entity: int, use: UseDose, som: StateOfMind,
    attrs: Attributes, tolerance: Tolerance, record: Record,
) -> None:
    """Take the bumped dose: it disappears and its effects apply."""
    esper.remove_component(entity, UseDose)
    dose = esper.try_component(use.target, Dose)
    if dose is None:
        return
    gain = formulas.dose_gain(dose.strength, tolerance.value)
    som.value += gain
    attrs.confidence = formulas.clamp_attribute(attrs.confidence + dose.confidence)
    attrs.nerve = formulas.clamp_attribute(attrs.nerve + dose.nerve)
    attrs.will = formulas.clamp_attribute(attrs.will + dose.will)
    tolerance.value += formulas.TOLERANCE_PER_DOSE
    record.doses_used += 1
    if formulas.is_close_call(som.value):
        record.close_calls += 1
    esper.delete_entity(use.target, immediate=True)
    state.say(f"You take the {DOSE_KINDS[dose.kind].name}: +{gain} State of Mind.")
