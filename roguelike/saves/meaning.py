"""What a save means, checked after its shape: kinds the game knows, entities it can play.

Types alone let through a monster of a kind no table describes, a monster standing
nowhere, or a number so large the next turn cannot encode it. Each of these would pass
validation and crash on the first turn, every time the save was resumed. A last safety
net, :func:`first_turn_problem`, plays one turn on a throwaway copy of the game: the
menus and ``Games.resume`` try it before a save is offered or played, while the plain
listing (``hedonic saves``) reads only the file, without loading the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.content.conditions import CONDITIONS
from roguelike.content.doses import DOSE_KINDS
from roguelike.content.finds import FIND_KINDS
from roguelike.core import ecsworld
from roguelike.core.commands import Wait
from roguelike.core.names import printable
from roguelike.core.plain import Plain
from roguelike.saves.schema import fail

if TYPE_CHECKING:  # the rules (numpy, tcod) load only when a first turn is tried, never to list saves
    from roguelike.core.game import Game

GAME_INT_LIMIT = 2**31  # no count, turn or attribute of a real game comes near this
# The components whose first field names a row of a content table.
KINDS: dict[str, frozenset[str]] = {
    "monster": frozenset(MONSTER_KINDS),
    "dose": frozenset(DOSE_KINDS),
    "taken_over": frozenset(CONDITIONS),
    "find": frozenset(FIND_KINDS),
}
NEEDS: dict[str, tuple[str, ...]] = {  # what the systems look up on every entity with a component
    "monster": ("position", "renderable", "blocks_movement"),
    "dose": ("position", "renderable"),
    "find": ("position", "renderable", "vision"),  # a find is a vision: never there for a sober player
    "taken_over": (),
}


def check_meaning(plain: Plain) -> None:
    """Every entity, live or dormant, of a known kind, whole, drawable, alone on its tile if it
    blocks, with game-sized numbers and printable text; one player; the game's text printable."""
    for where, packed in all_entities(plain):
        components = {name: fields for name, fields in packed}
        for name, needed in NEEDS.items():
            if name in components:
                check_kind(components[name], name, where)
                missing = [need for need in needed if need not in components]
                if missing:
                    fail(where, f"a {name} without {', '.join(missing)}")
        if "renderable" in components:
            check_look(components["renderable"], f"{where}.renderable")
        for name, fields in packed:
            check_sizes(fields, f"{where}.{name}")
    if plain["turn"] >= GAME_INT_LIMIT:
        fail("turn", "out of range")
    check_blockers(plain)
    check_one_player(plain)
    check_text(plain)


def check_look(fields: list[Any], where: str) -> None:
    """A glyph is one printable character (a cell holds one) and colours are bytes."""
    glyph, colour = fields[0], fields[1]
    if len(glyph) != 1 or not is_printable(glyph):
        fail(where, "a glyph must be one printable character")
    if not all(0 <= channel <= 255 for channel in colour):
        fail(where, "a colour out of range")


def check_blockers(plain: Plain) -> None:
    """At most one thing that blocks movement on a tile, on the current floor and on each floor left."""
    groups = [("entities", [packed for _, packed in plain["entities"]])]
    groups += [(f"floors[{number}].dormant", floor["dormant"]) for number, floor in enumerate(plain["floors"])]
    for where, entities in groups:
        taken: set[tuple[int, int]] = set()
        for packed in entities:
            components = {name: fields for name, fields in packed}
            if "blocks_movement" in components and "position" in components:
                spot = (components["position"][0], components["position"][1])
                if spot in taken:
                    fail(where, f"two things that block movement stand on {spot}")
                taken.add(spot)


def check_one_player(plain: Plain) -> None:
    """Only the player character has the player's component."""
    for where, packed in all_entities(plain):
        if any(name == "player" for name, _ in packed) and not where == player_place(plain):
            fail(where, "a second player character")


def player_place(plain: Plain) -> str:
    """Where the player character is in the snapshot's entities."""
    index = next(n for n, (entity, _) in enumerate(plain["entities"]) if entity == plain["player"])
    return f"entities[{index}]"


def check_text(plain: Plain) -> None:
    """Text the game shows (name, messages, cause of death) holds no control characters:
    it is drawn, and read out to the terminal as it is in screen-reader mode."""
    texts = [("name", plain["name"]), ("cause", plain["cause"] or "")]
    texts += [(f"messages[{index}]", text) for index, (_, text) in enumerate(plain["messages"])]
    for where, text in texts:
        if not is_printable(text):
            fail(where, "control characters in text")


def is_printable(text: str) -> bool:
    """Whether text holds only characters safe to store and draw."""
    return text.isprintable() or printable(text) == text  # the C check first: it refuses spaces but ' '


def all_entities(plain: Plain) -> Iterator[tuple[str, list[Any]]]:
    """Each entity's place in the snapshot and its packed components."""
    for index, (_, packed) in enumerate(plain["entities"]):
        yield f"entities[{index}]", packed
    for number, floor in enumerate(plain["floors"]):
        for index, packed in enumerate(floor["dormant"]):
            yield f"floors[{number}].dormant[{index}]", packed


def check_kind(fields: list[Any], name: str, where: str) -> None:
    """A monster, a dose, a find or a takeover of a kind from the game's tables (the kind is the first field)."""
    if fields[0] not in KINDS[name]:
        fail(f"{where}.{name}", f"unknown {name} kind {str(fields[0])[:40]!r}")


def check_sizes(value: Any, where: str) -> None:
    """Integers anywhere in a component's fields stay within what a game can reach; text is printable."""
    stack = [value]
    while stack:
        item = stack.pop()
        if type(item) is int and not -GAME_INT_LIMIT < item < GAME_INT_LIMIT:
            fail(where, "number out of range")
        if type(item) is str and not is_printable(item):
            fail(where, "control characters in text")
        if isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())


def first_turn_problem(rebuild: Callable[[], Game], trials: Sequence[Callable[[Game], object]] = ()) -> str | None:
    """Play one turn on a freshly rebuilt game that is then thrown away, and put it through
    ``trials`` (encoding its next save, drawing a frame); what went wrong, if anything."""
    before = ecsworld.current_name()
    game = rebuild()
    try:
        if not game.state.game_over:
            game.apply(Wait())
        for trial in trials:
            trial(game)
    except Exception as error:  # any failure of a save's first turn means the save is unplayable
        return f"it cannot be played: its first turn fails ({type(error).__name__})"
    finally:
        game.close()
        ecsworld.return_to(before)
    return None
