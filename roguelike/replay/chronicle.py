"""A life read back from its replay: the State of Mind of every turn, and what happened when.

Every step record carries the player's components as they changed (the witness), so the
story needs no re-simulation: the State of Mind and attributes over time, every dose,
takeover and hand-back, first sight of each kind of monster and floor change, each with
its turn. Field names come from the saved-component registry, never from positions.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from components.registry import SAVED_COMPONENTS
from roguelike.content import formulas
from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.content.conditions import CONDITIONS
from roguelike.replay.fileformat import Replay, Witness
from roguelike.replay.witness import PLAYER, apply_changes

ATTRIBUTES = ("confidence", "nerve", "will")


@dataclass(frozen=True)
class Moment:
    """The player after one recorded command."""

    turn: int
    depth: int
    state_of_mind: int
    attributes: tuple[int, int, int, int]  # confidence, nerve, will, tolerance
    doses: int
    control: str | None
    met: dict[str, int]


@dataclass(frozen=True)
class Event:
    """Something that happened on a turn: a dose, a takeover, a first sight, a floor."""

    turn: int
    kind: str
    text: str


def component(facts: Witness, name: str) -> dict[str, Any] | None:
    """A player component from the witness, field by field (None when the player has none)."""
    values = facts.get(PLAYER + name)
    if values is None:
        return None
    names = [f.name for f in dataclasses.fields(SAVED_COMPONENTS[name])]
    return dict(zip(names, values))


def reason_of(key: str) -> str:
    """What the panel said while a condition held the controls (its key, if this game has no such condition)."""
    condition = CONDITIONS.get(key)
    return key if condition is None else condition.reason


def beginning() -> Moment:
    """The player of every new game, before the first command."""
    start = formulas.ATTRIBUTE_START
    return Moment(0, 1, formulas.STATE_OF_MIND_START, (start, start, start, formulas.TOLERANCE_START), 0, None, {})


def moments(replay: Replay) -> Iterator[Moment]:
    """The player at the start and after every step of a replay."""
    yield beginning()
    facts: Witness = {}
    for record in replay.steps:
        facts = apply_changes(facts, record.changes)
        attrs = component(facts, "attributes") or {}
        taken = component(facts, "taken_over")
        tolerance = int((component(facts, "tolerance") or {}).get("value", 0))
        confidence, nerve, will = (int(attrs.get(name, 0)) for name in ATTRIBUTES)
        yield Moment(
            turn=record.turn,
            depth=int(facts.get("depth", 1)),
            state_of_mind=int((component(facts, "state_of_mind") or {}).get("value", 0)),
            attributes=(confidence, nerve, will, tolerance),
            doses=int((component(facts, "record") or {}).get("doses_used", 0)),
            control=None if taken is None else reason_of(str(taken.get("condition"))),
            met=dict((component(facts, "bestiary") or {}).get("met", {})),
        )


def state_of_mind_by_turn(steps: list[Moment]) -> list[tuple[int, int]]:
    """The State of Mind at the end of each turn, in turn order."""
    by_turn: dict[int, int] = {}
    for moment in steps:
        by_turn[moment.turn] = moment.state_of_mind
    return sorted(by_turn.items())


def attribute_changes(steps: list[Moment]) -> list[tuple[int, tuple[int, int, int, int]]]:
    """The attributes (with Tolerance) at the start and on every turn they changed."""
    changes: list[tuple[int, tuple[int, int, int, int]]] = []
    for moment in steps:
        if not changes or changes[-1][1] != moment.attributes:
            changes.append((moment.turn, moment.attributes))
    return changes


def events(steps: list[Moment]) -> list[Event]:
    """Doses, takeovers and hand-backs, first sights and floor changes, in order."""
    found: list[Event] = []
    previous: Moment | None = None
    for moment in steps:
        if previous is not None:
            found.extend(changes_between(previous, moment))
        previous = moment
    return found


def changes_between(before: Moment, after: Moment) -> list[Event]:
    """What one step changed that the story tells, on the turn it was played in."""
    turn = before.turn
    found = [
        Event(turn, "dose", f"took a dose: State of Mind {before.state_of_mind} to {after.state_of_mind}")
        for _ in range(after.doses - before.doses)
    ]
    if after.control != before.control:
        text = f"taken over: {after.control}" if after.control else "back in control"
        found.append(Event(turn, "takeover" if after.control else "control", text))
    for kind in after.met:
        if kind not in before.met and kind in MONSTER_KINDS:
            found.append(Event(turn, "first sight", f"first saw {MONSTER_KINDS[kind].name}"))
    if after.depth != before.depth:
        found.append(Event(turn, "floor", f"floor {before.depth} to floor {after.depth}"))
    return found
