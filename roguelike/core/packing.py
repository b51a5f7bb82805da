"""Turn components into plain lists and back, for dormant floors, saves and checksums.

Only classes listed in :data:`components.registry.SAVED_COMPONENTS` can be packed or
unpacked, so nothing read from a file can choose which code runs.
"""

from __future__ import annotations

import copy
import dataclasses
import operator
import typing
from collections.abc import Callable
from typing import Any

from components.registry import NAME_OF, SAVED_COMPONENTS
from roguelike.core.floor import PackedEntity


def _field_plan(cls: type) -> tuple[tuple[str, bool], ...]:
    """Field names of a component, each with whether it holds a tuple."""
    hints = typing.get_type_hints(cls)
    plan = []
    for field in dataclasses.fields(cls):
        origin = typing.get_origin(hints[field.name])
        plan.append((field.name, origin is tuple))
    return tuple(plan)


FIELD_PLANS: dict[type, tuple[tuple[str, bool], ...]] = {
    cls: _field_plan(cls) for cls in SAVED_COMPONENTS.values()
}


def _reader(cls: type) -> Callable[[object], tuple[Any, ...]]:
    """A fast reader of a component's field values, in field order, as a tuple."""
    names = [name for name, _ in FIELD_PLANS[cls]]
    if not names:
        return lambda component: ()
    get = operator.attrgetter(*names)
    if len(names) == 1:
        return lambda component: (get(component),)
    return get  # attrgetter of several names gives a tuple


# Packing runs for every entity on every turn (the checksum), so each class gets its name
# and a C-level field reader once, and each combination of classes an entity can have
# (few: a monster, a dose, the player) its readers in canonical (name) order, instead of
# a lookup, a call and a sort per component.
READERS: dict[type, tuple[str, Callable[[object], tuple[Any, ...]]]] = {
    cls: (NAME_OF[cls], _reader(cls)) for cls in SAVED_COMPONENTS.values()
}
Plan = tuple[tuple[int, str, Callable[[object], tuple[Any, ...]]], ...]
_plans: dict[tuple[type, ...], Plan] = {}


def plan_for(kinds: tuple[type, ...]) -> Plan:
    """Where an entity's saved components sit among ``kinds``, with their names and readers, by name."""
    plan = _plans.get(kinds)
    if plan is None:
        chosen = [(index, *READERS[kind]) for index, kind in enumerate(kinds) if kind in READERS]
        plan = _plans[kinds] = tuple(sorted(chosen, key=operator.itemgetter(1)))
    return plan


def packed_fields(components: tuple[object, ...]) -> PackedEntity:
    """An entity's saved components as (name, field values) in canonical order; the values
    may be tuples and may share lists and dicts with the components (encode them at once)."""
    return [(name, read(components[index])) for index, name, read in plan_for(tuple(map(type, components)))]


def pack_component(component: object) -> tuple[str, list[Any]]:
    """A component as (stable name, field values)."""
    name, read = READERS[type(component)]
    return name, list(read(component))


def unpack_component(name: str, values: list[Any]) -> object:
    """The component that :func:`pack_component` packed (KeyError if unknown)."""
    cls = SAVED_COMPONENTS[name]
    plan = FIELD_PLANS[cls]
    if len(values) != len(plan):
        raise ValueError(f"component {name!r} needs {len(plan)} fields, got {len(values)}")
    args = [tuple(value) if is_tuple else fresh(value) for (_, is_tuple), value in zip(plan, values)]
    return cls(*args)


def fresh(value: Any) -> Any:
    """A value the new component owns: lists and dicts are copied, never shared."""
    return copy.deepcopy(value) if isinstance(value, (list, dict)) else value


def pack_entity(components: typing.Iterable[object]) -> PackedEntity:
    """An entity's saved components, ordered by name so packing is canonical."""
    return [(name, list(values)) for name, values in packed_fields(tuple(components))]


def unpack_entity(packed: PackedEntity) -> list[object]:
    """The components of a packed entity."""
    return [unpack_component(name, list(values)) for name, values in packed]
