"""Helpers for the monster, combat and effect tests: tiny arenas with monsters in them."""

from __future__ import annotations

import esper

from components import Attributes, Monster, Position, StateOfMind
from helpers import drawn_game
from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.core.game import Game
from roguelike.core.packing import unpack_entity
from roguelike.core.spawning import make_monster

# An open room 15x7 inside walls; the player stands in the middle.
ROOM = [
    "#################",
    "#...............#",
    "#...............#",
    "#...............#",
    "#.......@.......#",
    "#...............#",
    "#...............#",
    "#...............#",
    "#################",
]


def arena(rows: list[str] | None = None, seed: int = 1) -> Game:
    """A game on a drawn floor with nothing but the player; State of Mind 60 (Sober)."""
    game = drawn_game(rows or ROOM, seed=seed)
    set_player(game, state_of_mind=60)
    return game


def add_monster(game: Game, kind: str, x: int, y: int, hunting: bool = False, notice: int = 8) -> int:
    """Put a monster of a kind on the live floor; optionally already hunting the player."""
    game.activate()
    entity = esper.create_entity(*unpack_entity(make_monster(MONSTER_KINDS[kind], (x, y), notice)))
    if hunting:
        esper.component_for_entity(entity, Monster).target = game.state.player
    game.refresh_visible()
    return entity


def set_player(game: Game, state_of_mind: int | None = None, **attributes: int) -> None:
    """Set the player's State of Mind and any of confidence, nerve, will."""
    if state_of_mind is not None:
        game.player_component(StateOfMind).value = state_of_mind
    attrs = game.player_component(Attributes)
    for name, value in attributes.items():
        setattr(attrs, name, value)


def where(game: Game, entity: int) -> tuple[int, int]:
    """Where an entity stands."""
    game.activate()
    pos = esper.component_for_entity(entity, Position)
    return pos.x, pos.y


def exists(game: Game, entity: int) -> bool:
    """Whether an entity is still on the live floor."""
    game.activate()
    return esper.entity_exists(entity)


def messages(game: Game) -> list[str]:
    """Every message of the log, oldest first."""
    return [m.text for m in game.state.messages]


def chebyshev(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Distance in king's moves."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))
