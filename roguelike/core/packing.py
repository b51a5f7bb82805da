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


def _values_of(cls: type) -> Callable[[object], list[Any]]:
    """A fast reader of a component's field values, in field order."""
    names = [name for name, _ in FIELD_PLANS[cls]]
    if not names:
        return lambda component: []
    get = operator.attrgetter(*names)
    if len(names) == 1:
        return lambda component: [get(component)]
    return lambda component: list(get(component))


# Packing runs for every entity on every turn (the checksum), so each class gets its name
# and a C-level field reader once, instead of a getattr loop per component.
PACKERS: dict[type, tuple[str, Callable[[object], list[Any]]]] = {
    cls: (NAME_OF[cls], _values_of(cls)) for cls in SAVED_COMPONENTS.values()
}
_by_name = operator.itemgetter(0)


def pack_component(component: object) -> tuple[str, list[Any]]:
    """A component as (stable name, field values)."""
    name, values = PACKERS[type(component)]
    return name, values(component)


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
    packed: PackedEntity = []
    for component in components:
        packer = PACKERS.get(type(component))
        if packer is not None:
            packed.append((packer[0], packer[1](component)))
    packed.sort(key=_by_name)
    return packed


def unpack_entity(packed: PackedEntity) -> list[object]:
    """The components of a packed entity."""
    return [unpack_component(name, list(values)) for name, values in packed]
