"""What a save means, checked after its shape: kinds the game knows, entities it can play.

Types alone let through a monster of a kind no table describes, a monster standing
nowhere, or a number so large the next turn cannot encode it. Each of these would pass
validation and crash on the first turn, every time the save was resumed. A last safety
net, :func:`first_turn_problem`, plays one turn on a throwaway copy of the game: the
menus and ``Games.resume`` try it before a save is offered or played, while the plain
listing (``hedonic saves``) reads only the file, without loading the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import esper

from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.content.doses import DOSE_KINDS
from roguelike.core.commands import Wait
from roguelike.core.plain import Plain
from roguelike.saves.schema import fail

if TYPE_CHECKING:  # the rules (numpy, tcod) load only when a first turn is tried, never to list saves
    from roguelike.core.game import Game

GAME_INT_LIMIT = 2**31  # no count, turn or attribute of a real game comes near this
KINDS: dict[str, frozenset[str]] = {"monster": frozenset(MONSTER_KINDS), "dose": frozenset(DOSE_KINDS)}
NEEDS: dict[str, tuple[str, ...]] = {  # what the systems look up on every entity with a component
    "monster": ("position", "renderable", "blocks_movement"),
    "dose": ("position", "renderable"),
}


def check_meaning(plain: Plain) -> None:
    """Every entity, live or dormant, of a known kind, whole, and with game-sized numbers."""
    for where, packed in all_entities(plain):
        components = {name: fields for name, fields in packed}
        for name, needed in NEEDS.items():
            if name in components:
                check_kind(components[name], name, where)
                missing = [need for need in needed if need not in components]
                if missing:
                    fail(where, f"a {name} without {', '.join(missing)}")
        for name, fields in packed:
            check_sizes(fields, f"{where}.{name}")
    if plain["turn"] >= GAME_INT_LIMIT:
        fail("turn", "out of range")


def all_entities(plain: Plain) -> Iterator[tuple[str, list[Any]]]:
    """Each entity's place in the snapshot and its packed components."""
    for index, (_, packed) in enumerate(plain["entities"]):
        yield f"entities[{index}]", packed
    for number, floor in enumerate(plain["floors"]):
        for index, packed in enumerate(floor["dormant"]):
            yield f"floors[{number}].dormant[{index}]", packed


def check_kind(fields: list[Any], name: str, where: str) -> None:
    """A monster or dose of a kind from the game's tables (the kind is the first field)."""
    if fields[0] not in KINDS[name]:
        fail(f"{where}.{name}", f"unknown {name} kind {str(fields[0])[:40]!r}")


def check_sizes(value: Any, where: str) -> None:
    """Integers anywhere in a component's fields stay within what a game can reach."""
    stack = [value]
    while stack:
        item = stack.pop()
        if type(item) is int and not -GAME_INT_LIMIT < item < GAME_INT_LIMIT:
            fail(where, "number out of range")
        if isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())


def first_turn_problem(rebuild: Callable[[], Game]) -> str | None:
    """Play one turn on a freshly rebuilt game that is then thrown away; what went wrong, if anything."""
    before = esper.current_world
    game = rebuild()
    try:
        if not game.state.game_over:
            game.apply(Wait())
    except Exception as error:  # any failure of a save's first turn means the save is unplayable
        return f"it cannot be played: its first turn fails ({type(error).__name__})"
    finally:
        game.close()
        if before in esper.list_worlds():
            esper.switch_world(before)
    return None
