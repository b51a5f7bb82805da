"""The shape of a plain snapshot, checked field by field before it becomes a Game.

The layout is the TypedDicts of :mod:`roguelike.core.plain` (what ``to_plain`` makes);
components are checked from their dataclass field types, looked up by the stable names
of :data:`components.registry.SAVED_COMPONENTS`. Then a few rules check what types alone
cannot: sizes of floors, tiles that exist, ids that are unique, a player that is whole.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from collections.abc import Callable
from typing import Any

from components.registry import NAME_OF, SAVED_COMPONENTS
from roguelike.content import formulas
from roguelike.core.chart import VALUE_BYTES
from roguelike.core.plain import PackedEntity, Plain, PlainSnapshot
from roguelike.core.player import starting_player
from roguelike.core.tiles import Tile
from roguelike.saves.meaning import check_meaning
from roguelike.saves.schema import Malformed, checker, fail, register, sequence

MAX_DEPTH = 10_000
MAX_ENTITY_ID = 2**31


@functools.cache
def field_checks(name: str) -> tuple[Callable[[Any, str], None], ...]:
    """Checks of a saved component's fields, from its dataclass field types."""
    cls = SAVED_COMPONENTS[name]
    hints = typing.get_type_hints(cls)
    return tuple(checker(hints[field.name]) for field in dataclasses.fields(cls))


def check_entity(value: Any, where: str) -> None:
    """Known components, each once, in canonical (name) order, fields of the right types."""
    previous = ""
    for index, pair in enumerate(sequence(value, where)):
        place = f"{where}[{index}]"
        name, fields = check_pair(pair, place)
        if name <= previous:
            fail(place, f"component {name!r} out of order or repeated")
        previous = name
        checks = field_checks(name)
        values = sequence(fields, f"{place}.{name}")
        if len(values) != len(checks):
            fail(f"{place}.{name}", f"expected {len(checks)} fields, found {len(values)}")
        for number, (check, field_value) in enumerate(zip(checks, values)):
            check(field_value, f"{place}.{name}[{number}]")


def check_pair(pair: Any, where: str) -> tuple[str, Any]:
    """A (component name, fields) pair naming a saved component."""
    items = sequence(pair, where)
    if len(items) != 2 or type(items[0]) is not str:
        fail(where, "expected a component name and its fields")
    if items[0] not in SAVED_COMPONENTS:
        fail(where, f"unknown component {items[0][:40]!r}")
    return items[0], items[1]


# Wherever the snapshot's layout holds a packed entity, it is checked component by component.
register(PackedEntity, check_entity)


def validate_snapshot(plain: Any) -> Plain:
    """The snapshot, if it has the shape of one; Malformed says where it does not."""
    checker(PlainSnapshot)(plain, "")
    for rule in RULES:
        rule(plain)
    return typing.cast(Plain, plain)


def check_floors(plain: Plain) -> None:
    """Floors in depth order, each of the game's size with known tiles."""
    depths = [floor["depth"] for floor in plain["floors"]]
    if depths != sorted(set(depths)) or not all(1 <= d <= MAX_DEPTH for d in depths):
        fail("floors", "floor depths are repeated, out of order or out of range")
    if plain["depth"] not in depths:
        fail("depth", "the player's floor is missing")
    for index, floor in enumerate(plain["floors"]):
        check_floor(floor, f"floors[{index}]")


def check_floor(floor: Plain, where: str) -> None:
    """One floor's sizes, tiles and staircases."""
    height, width = formulas.MAP_HEIGHT, formulas.MAP_WIDTH
    if list(floor["shape"]) != [height, width]:
        fail(f"{where}.shape", f"expected {height}x{width}")
    if len(floor["tiles"]) != height * width:
        fail(f"{where}.tiles", "wrong length")
    if max(floor["tiles"], default=0) >= len(Tile):
        fail(f"{where}.tiles", "unknown tile")
    for memory in ("explored", "revealed"):
        if len(floor[memory]) != (height * width + 7) // 8:
            fail(f"{where}.{memory}", "wrong length")
    for key in ("down", "up", "arrival"):
        if floor[key] is not None and not on_map(floor[key]):
            fail(f"{where}.{key}", "off the map")
    for index, entity in enumerate(floor["dormant"]):
        check_position(entity, f"{where}.dormant[{index}]")


def check_entities(plain: Plain) -> None:
    """Entity ids unique, ascending and below the next id; live entities on the map."""
    ids = [entity for entity, _ in plain["entities"]]
    if ids != sorted(set(ids)) or not all(0 <= e < plain["next_entity"] <= MAX_ENTITY_ID for e in ids):
        fail("entities", "entity ids are repeated, out of order or out of range")
    for index, (_, packed) in enumerate(plain["entities"]):
        check_position(packed, f"entities[{index}]")


def check_player(plain: Plain) -> None:
    """The player exists and has every component a new character starts with."""
    found = {entity: packed for entity, packed in plain["entities"]}
    if plain["player"] not in found:
        fail("player", "the player character is missing")
    has = {name for name, _ in found[plain["player"]]}
    missing = sorted(set(PLAYER_NEEDS) - has)
    if missing:
        fail("player", f"the player character lacks {', '.join(missing)}")


def check_numbers(plain: Plain) -> None:
    """Counters that cannot be negative and an RNG state of 64 bits."""
    if plain["turn"] < 0:
        fail("turn", "negative")
    if not 0 <= plain["rng"] < 2**64:
        fail("rng", "out of range")
    if len(plain["chart"]["series"]) % VALUE_BYTES:
        fail("chart.series", "odd length")


def check_position(packed: list[Any], where: str) -> None:
    """A positioned entity stands on the map."""
    for name, fields in packed:
        if name == POSITION and not on_map(fields):
            fail(f"{where}.{name}", "off the map")


def on_map(xy: Any) -> bool:
    """Whether an (x, y) pair lies on a floor."""
    x, y = xy
    return bool(0 <= x < formulas.MAP_WIDTH and 0 <= y < formulas.MAP_HEIGHT)


POSITION = "position"
PLAYER_NEEDS = tuple(NAME_OF[type(c)] for c in starting_player("", (0, 0)) if type(c) in NAME_OF)
RULES: tuple[Callable[[Plain], None], ...] = (check_numbers, check_floors, check_entities, check_player, check_meaning)

__all__ = ["Malformed", "validate_snapshot"]
