"""Helpers for the finds' tests: a room with a find in it, the player High or not."""

from __future__ import annotations

import esper

from bestiary_helpers import arena, set_player
from roguelike.content.finds import FIND_KINDS
from roguelike.core.game import Game
from roguelike.core.mapgen import make_find
from roguelike.core.packing import unpack_entity


def add_find(game: Game, kind: str, x: int, y: int) -> int:
    """Put a find of a kind on the live floor, as map generation makes it."""
    game.activate()
    entity = esper.create_entity(*unpack_entity(make_find(FIND_KINDS[kind], (x, y))))
    game.refresh_visible()
    return entity


def find_game(som: int, kind: str = "clarity", at: tuple[int, int] = (9, 4)) -> tuple[Game, int]:
    """The player at (8, 4) of a 15x7 room with a find beside it (east by default), State of Mind ``som``."""
    game = arena()
    set_player(game, state_of_mind=som)
    find = add_find(game, kind, *at)
    return game, find
