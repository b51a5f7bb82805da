"""Dose consumption: Strength less Tolerance to the State of Mind, boosts to attributes.

An explosive dose also blasts along its kind's lines from where it lay: every monster on
them, up to the blast's reach and short of the first wall or closed door, is slain.
"""

from __future__ import annotations

import esper

from components import (
    Attributes,
    Carried,
    Dose,
    Monster,
    MoveIntent,
    Player,
    Position,
    Record,
    StateOfMind,
    Tolerance,
    UseDose,
)
from components.intents import NOT_CARRIED
from roguelike.content import formulas
from roguelike.content.doses import DOSE_KINDS, DoseKind
from roguelike.core import cues
from roguelike.core.carrying import take_out
from roguelike.core.combat import count, slay
from roguelike.core.ecs import system
from roguelike.core.floor import SEE_THROUGH
from roguelike.core.state import Now
from roguelike.core.world import entities_at

ATTRIBUTE_NAMES = (("confidence", "Confidence"), ("nerve", "Nerve"), ("will", "Will"))


@system(UseDose)
def consume_dose(now: Now, entity: int, use: UseDose) -> None:
    """Take the bumped dose: it disappears and its effects apply."""
    esper.remove_component(entity, UseDose)
    dose = esper.try_component(use.target, Dose)
    if dose is None:
        return
    at = esper.component_for_entity(use.target, Position)
    esper.delete_entity(use.target, immediate=True)
    take_dose(now, entity, dose, (at.x, at.y), "")


@system(Player, MoveIntent, Carried)
def take_carried(now: Now, entity: int, player: Player, intent: MoveIntent, carried: Carried) -> None:
    """Take the carried dose the action names (the player's key or a takeover): its effects apply where the player stands."""
    index, intent.carried = intent.carried, NOT_CARRIED
    if not 0 <= index < len(carried.kinds):
        return
    pos = esper.component_for_entity(entity, Position)
    take_dose(now, entity, take_out(carried, index), (pos.x, pos.y), "carried ")


def take_dose(now: Now, entity: int, dose: Dose, at: tuple[int, int], carried: str) -> None:
    """A dose's effects: Strength less Tolerance to the State of Mind, its boosts, the record, its blast."""
    som, attrs = esper.component_for_entity(entity, StateOfMind), esper.component_for_entity(entity, Attributes)
    tolerance, record = esper.component_for_entity(entity, Tolerance), esper.component_for_entity(entity, Record)
    kind = DOSE_KINDS[dose.kind]
    gain = formulas.dose_gain(dose.strength, tolerance.value)
    low_edge = formulas.is_low_close_call(som.value)
    som.value += gain
    changes = boost_attributes(attrs, dose)
    tolerance.value += formulas.tolerance_per_dose(now.state.depth)
    record.doses_used += 1
    count(record.dose_kinds, kind.key)
    now.action.cue(cues.DOSE, at, key=kind.key, amount=gain)
    if low_edge or formulas.is_close_call(som.value):
        record.close_calls += 1
        now.action.cue(cues.CLOSE_CALL, at)
    now.state.chart.doses.append(now.state.turn + 1)
    now.state.say(dose_message(carried + kind.name, gain, changes, tolerance.value))
    if kind.blast:
        blast(now, entity, kind, at)


def blast(now: Now, player: int, kind: DoseKind, origin: tuple[int, int]) -> None:
    """Slay every monster along the dose's lines; the blast is cued for animation."""
    tiles = blast_tiles(now, kind, origin)
    now.action.cue(cues.BLAST, origin, *tiles, key=kind.key)
    for x, y in tiles:
        for other in entities_at(x, y):
            if esper.has_component(other, Monster):
                slay(now, player, other)


def blast_tiles(now: Now, kind: DoseKind, origin: tuple[int, int]) -> list[tuple[int, int]]:
    """The tiles a blast reaches, nearest first (lines in the table's order at each distance)."""
    floor, (ox, oy) = now.state.floor, origin
    reached: list[list[tuple[int, int]]] = [[] for _ in range(formulas.BLAST_REACH)]
    for dx, dy in kind.blast:
        for step in range(1, formulas.BLAST_REACH + 1):
            x, y = ox + dx * step, oy + dy * step
            if not SEE_THROUGH[floor.tile(x, y)]:
                break
            reached[step - 1].append((x, y))
    return [spot for ring in reached for spot in ring]


def boost_attributes(attrs: Attributes, dose: Dose) -> list[tuple[str, int]]:
    """Apply a dose's boosts (kept within bounds); the changes that really happened."""
    changes = []
    for field, name in ATTRIBUTE_NAMES:
        before = getattr(attrs, field)
        after = formulas.clamp_attribute(before + getattr(dose, field))
        setattr(attrs, field, after)
        if after != before:
            changes.append((name, after - before))
    return changes


def dose_message(kind: str, gain: int, changes: list[tuple[str, int]], tolerance: int) -> str:
    """``You take the dose: +46 State of Mind; Confidence +1, Will -1; Tolerance 4.``"""
    parts = [f"+{gain} State of Mind"]
    if changes:
        parts.append(", ".join(f"{name} {delta:+d}" for name, delta in changes))
    parts.append(f"Tolerance {tolerance}")
    return f"You take the {kind}: {'; '.join(parts)}."
