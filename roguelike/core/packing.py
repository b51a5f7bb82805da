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


READERS: dict[type, tuple[str, Callable[[object], tuple[Any, ...]]]] = {
    cls: (NAME_OF[cls], _reader(cls)) for cls in SAVED_COMPONENTS.values()
}
Packer = Callable[[tuple[object, ...]], PackedEntity]
_packers: dict[tuple[type, ...], Packer] = {}


def packer_for(kinds: tuple[type, ...]) -> Packer:
    """The function packing an entity whose components have the classes ``kinds``, in that order."""
    packer = _packers.get(kinds)
    if packer is None:
        packer = _packers[kinds] = _compiled_packer(kinds)
    return packer


def _compiled_packer(kinds: tuple[type, ...]) -> Packer:
    """One straight-line function reading every saved field of such an entity, names in order."""
    # Packing runs for every entity on every turn (the checksum), and entities come in few
    # combinations of classes (a monster, a dose, the player), so each combination gets one
    # generated function of plain attribute reads, as dataclasses and namedtuple generate
    # theirs: a third of the time of a reader call per component. Only registered class
    # names and their dataclass field names (identifiers) go into the source.
    chosen = sorted((NAME_OF[kind], index, kind) for index, kind in enumerate(kinds) if kind in READERS)
    items = ", ".join(f"({name!r}, {_field_reads(index, kind)})" for name, index, kind in chosen)
    namespace: dict[str, Any] = {}
    exec(f"def packed(c):\n    return [{items}]\n", namespace)  # noqa: S102 - our own source, see above
    packer: Packer = namespace["packed"]
    return packer


def _field_reads(index: int, kind: type) -> str:
    """Source of the tuple of a component's field values, the component being ``c[index]``."""
    names = [name for name, _ in FIELD_PLANS[kind]]
    assert all(name.isidentifier() for name in names)
    reads = ", ".join(f"c[{index}].{name}" for name in names)
    return f"({reads},)" if len(names) == 1 else f"({reads})"


def packed_fields(components: tuple[object, ...]) -> PackedEntity:
    """An entity's saved components as (name, field values) in canonical order; the values
    may be tuples and may share lists and dicts with the components (encode them at once)."""
    return packer_for(tuple(map(type, components)))(components)


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
