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


FIELD_PLANS: dict[type, tuple[tuple[str, bool], ...]] = {cls: _field_plan(cls) for cls in SAVED_COMPONENTS.values()}


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
PLANS: dict[tuple[type, ...], tuple[Packer, bool]] = {}  # plan_for's, by the classes of an entity's components


def packer_for(kinds: tuple[type, ...]) -> Packer:
    """The function packing an entity whose components have the classes ``kinds``, in that order."""
    packer = _packers.get(kinds)
    if packer is None:
        packer = _packers[kinds] = _compiled_packer(kinds)
    return packer


def plan_for(kinds: tuple[type, ...]) -> tuple[Packer, bool]:
    """:func:`packer_for` ``kinds``, and whether such an entity's packed fields can be kept and
    compared with the next turn's (:func:`compares_by_value`)."""
    plan = PLANS.get(kinds)
    if plan is None:
        plan = PLANS[kinds] = packer_for(kinds), all(compares_by_value(kind) for kind in kinds if kind in READERS)
    return plan


def compares_by_value(cls: type) -> bool:
    """Whether equal packed fields of a component always encode to equal bytes, and stay as packed.

    True when every field holds ints, booleans, text or tuples of them: immutable values,
    so a packed copy never changes under the component, and of exact types (the saves'
    checks refuse a boolean where an int belongs, :func:`roguelike.saves.schema.check_int`),
    so ``1 == True`` cannot hide a different encoding. Lists and dicts are shared with the
    component and change in place; a float field may hold ``1`` or ``1.0``, equal but
    encoded differently.
    """
    hints = typing.get_type_hints(cls)
    return all(_exact_and_immutable(hints[field.name]) for field in dataclasses.fields(cls))


def _exact_and_immutable(hint: object) -> bool:
    """Whether a field's hint admits only ints, booleans, text and tuples of them (no unions)."""
    if hint in (int, bool, str):
        return True
    if typing.get_origin(hint) is tuple:
        return all(arg is Ellipsis or _exact_and_immutable(arg) for arg in typing.get_args(hint))
    return False


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
    args = [tuple(value) if is_tuple else fresh(value) for (_, is_tuple), value in zip(plan, values, strict=True)]
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
