"""Checks of plain values against type hints, so every saved field is validated by its type.

``checker(hint)`` turns a type hint (``int``, ``str | None``, ``tuple[int, int, int]``,
``list[X]``, ``dict[str, X]``, an Enum, a Literal, a TypedDict, a dataclass stored as a map
of its fields) into a function that raises :class:`Malformed` naming the offending place.
Component dataclasses are checked from their own field types, so a new component needs
no extra validation code.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import math
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

Check = Callable[[Any, str], None]

INT_MIN = -(2**63)
INT_END = 2**64  # msgpack integers span int64 and uint64


class Malformed(Exception):
    """Internal: a value does not have the shape its type hint asks for."""

    def __init__(self, where: str, what: str) -> None:
        super().__init__(f"{where}: {what}")
        self.where = where
        self.what = what


def fail(where: str, what: str) -> typing.NoReturn:
    """Raise Malformed for a place."""
    raise Malformed(where, what)


def check_int(value: Any, where: str) -> None:
    """An integer msgpack can hold (booleans are not integers here)."""
    if type(value) is not int:
        fail(where, f"expected an integer, found {kind_of(value)}")
    if not INT_MIN <= value < INT_END:
        fail(where, "integer out of range")


def check_float(value: Any, where: str) -> None:
    """A finite number (whole numbers are fine where a float is expected)."""
    if type(value) not in (float, int):
        fail(where, f"expected a number, found {kind_of(value)}")
    if not math.isfinite(value):
        fail(where, "number is not finite")


def exact(kind: type) -> Check:
    """A check that the value is of exactly this type."""

    def check(value: Any, where: str) -> None:
        if type(value) is not kind:
            fail(where, f"expected {kind.__name__}, found {kind_of(value)}")

    return check


def check_none(value: Any, where: str) -> None:
    """Nothing."""
    if value is not None:
        fail(where, f"expected nothing, found {kind_of(value)}")


SCALARS: dict[object, Check] = {
    int: check_int,
    float: check_float,
    bool: exact(bool),
    str: exact(str),
    bytes: exact(bytes),
    type(None): check_none,
    None: check_none,
}

CUSTOM: dict[object, Check] = {}


def register(marker: object, check: Check) -> None:
    """Use ``check`` wherever ``marker`` appears in a hint (for values no hint describes)."""
    CUSTOM[marker] = check
    checker.cache_clear()


@functools.cache
def checker(hint: object) -> Check:
    """The check for values of a type hint; TypeError for a hint saves cannot check."""
    found = CUSTOM.get(hint) or SCALARS.get(hint)
    if found is not None:
        return found
    if typing.is_typeddict(hint) or (isinstance(hint, type) and dataclasses.is_dataclass(hint)):
        return typed_dict(typing.cast(type, hint))
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return enumeration(hint)
    builder = GENERICS.get(typing.get_origin(hint))
    if builder is None:
        raise TypeError(f"saves cannot check values of type {hint!r}; use plain types in components")
    return builder(hint)


def union(hint: object) -> Check:
    """One of several types."""
    options = [checker(arg) for arg in typing.get_args(hint)]

    def check(value: Any, where: str) -> None:
        for option in options:
            try:
                option(value, where)
                return
            except Malformed:
                continue
        fail(where, f"unexpected {kind_of(value)}")

    return check


def sequence(value: Any, where: str) -> list[Any]:
    """A msgpack array (a list once unpacked; a tuple before packing)."""
    if type(value) not in (list, tuple):
        fail(where, f"expected a list, found {kind_of(value)}")
    return list(value)


def fixed_tuple(hint: object) -> Check:
    """``tuple[X, Y]`` (exact length) or ``tuple[X, ...]``."""
    args = typing.get_args(hint)
    if len(args) == 2 and args[1] is Ellipsis:
        return list_of(list[args[0]])  # type: ignore[valid-type]
    parts = [checker(arg) for arg in args]

    def check(value: Any, where: str) -> None:
        items = sequence(value, where)
        if len(items) != len(parts):
            fail(where, f"expected {len(parts)} items, found {len(items)}")
        for index, (part, item) in enumerate(zip(parts, items)):
            part(item, f"{where}[{index}]")

    return check


def list_of(hint: object) -> Check:
    """``list[X]``."""
    (arg,) = typing.get_args(hint) or (Any,)
    item_check = checker(arg)

    def check(value: Any, where: str) -> None:
        for index, item in enumerate(sequence(value, where)):
            item_check(item, f"{where}[{index}]")

    return check


def dict_of(hint: object) -> Check:
    """``dict[K, V]``."""
    key_hint, value_hint = typing.get_args(hint)
    key_check, value_check = checker(key_hint), checker(value_hint)

    def check(value: Any, where: str) -> None:
        if type(value) is not dict:
            fail(where, f"expected a map, found {kind_of(value)}")
        for key, item in value.items():
            key_check(key, f"{where} key")
            value_check(item, f"{where}[{key!r}]")

    return check


def literal(hint: object) -> Check:
    """``Literal[a, b]``."""
    allowed = typing.get_args(hint)

    def check(value: Any, where: str) -> None:
        if not any(type(value) is type(a) and value == a for a in allowed):
            fail(where, f"unexpected value {short(value)}")

    return check


def enumeration(kind: type[enum.Enum]) -> Check:
    """An Enum member, saved as its value."""
    values = {(type(member.value), member.value) for member in kind}

    def check(value: Any, where: str) -> None:
        if (type(value), value) not in values:
            fail(where, f"not a known {kind.__name__}")

    return check


def typed_dict(kind: type) -> Check:
    """A map with the keys of a TypedDict or a dataclass (every required one, optional ones if
    present), each of its type."""
    fields = {name: checker(hint) for name, hint in typing.get_type_hints(kind).items()}
    required = required_keys(kind, frozenset(fields))

    def check(value: Any, where: str) -> None:
        if type(value) is not dict:
            fail(where, f"expected a map, found {kind_of(value)}")
        if not required <= set(value) <= set(fields):
            wrong = (set(value) - set(fields)) | (required - set(value))
            fail(where, f"unexpected keys {sorted(map(str, wrong))}")
        for name, field_check in fields.items():
            if name in value:
                field_check(value[name], f"{where}.{name}" if where else name)

    return check


def required_keys(kind: type, fields: frozenset[str]) -> frozenset[str]:
    """A TypedDict's required keys; a dataclass's fields but those defaulting to None (stored only when set)."""
    if dataclasses.is_dataclass(kind):
        return frozenset(field.name for field in dataclasses.fields(kind) if field.default is not None)
    required: frozenset[str] = getattr(kind, "__required_keys__", fields)
    return required


GENERICS: Mapping[object, Callable[[object], Check]] = {
    typing.Union: union,
    types.UnionType: union,
    tuple: fixed_tuple,
    list: list_of,
    dict: dict_of,
    typing.Literal: literal,
}


def kind_of(value: Any) -> str:
    """A word for the type of a plain value."""
    return {
        list: "a list",
        dict: "a map",
        str: "text",
        bytes: "bytes",
        bool: "a boolean",
        int: "an integer",
        float: "a number",
        type(None): "nothing",
    }.get(type(value), type(value).__name__)


def short(value: Any) -> str:
    """A value shown briefly in a message."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
