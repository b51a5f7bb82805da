"""The terrain table: a row for every kind of tile, the lookups the rules read built from it,
and the map, look and Help showing what it says."""

from __future__ import annotations

import numpy as np
import pytest

from helpers import TILE_OF, drawn_game
from roguelike.content.terrain import GLYPHS, TERRAIN, Tile
from roguelike.core.floor import PASSABLE, SEE_THROUGH, TRAVEL_COST, WALKABLE, blank_floor
from roguelike.core.pathing import travel_cost
from roguelike.render.colours import SCHEMES, TILE_SLOTS, Slot
from roguelike.render.look import DEFAULT_LOOK
from roguelike.render.screenshot import game_console
from roguelike.screens import helptext
from roguelike.screens.look import describe

# A floor holding every kind of tile, all in sight of the player (the closed door in a wall: it blocks sight).
EVERY_KIND = ["##|+}###", "#@.'><:#", '#/,"%-^#', "#_;....#", "########"]


def test_every_kind_of_tile_has_one_row_and_every_row_a_kind() -> None:
    assert list(TERRAIN) == list(Tile)
    assert all(row.tile is tile for tile, row in TERRAIN.items())
    # The lookups index by value: the values run 0, 1, 2... with no gap.
    assert [int(tile) for tile in Tile] == list(range(len(Tile)))


def test_the_lookups_say_what_the_rows_say() -> None:
    for tile, row in TERRAIN.items():
        assert WALKABLE[tile] == row.walkable
        assert SEE_THROUGH[tile] == row.see_through
        assert PASSABLE[tile] == (row.walkable or row.opens)
        assert TRAVEL_COST[tile] == (row.move_cost if PASSABLE[tile] else 0)
        assert GLYPHS[tile] == row.glyph


def test_the_lookups_cannot_be_changed_by_accident() -> None:
    for table in (WALKABLE, SEE_THROUGH, PASSABLE, TRAVEL_COST):
        with pytest.raises(ValueError):
            table[0] = table[1]


def test_a_floor_reads_standing_light_and_paths_from_the_table() -> None:
    floor = blank_floor(1)
    floor.tiles[1, 1 : 1 + len(Tile)] = list(Tile)
    row = slice(1, 1 + len(Tile))
    assert floor.walkable()[1, row].tolist() == [TERRAIN[tile].walkable for tile in Tile]
    assert floor.transparent()[1, row].tolist() == [TERRAIN[tile].see_through for tile in Tile]
    assert travel_cost(floor)[1, row].tolist() == TRAVEL_COST.tolist()
    assert np.count_nonzero(PASSABLE[floor.tiles]) == np.count_nonzero(PASSABLE)


def test_each_kind_looks_different_so_the_map_and_its_legend_tell_them_apart() -> None:
    assert len(set(GLYPHS)) == len(GLYPHS)


def test_every_colour_role_is_a_palette_slot_and_every_palette_colours_the_tiles_by_it() -> None:
    assert TILE_SLOTS == tuple((Slot(row.colour_role), Slot(row.background_role)) for row in TERRAIN.values())
    for scheme in SCHEMES.values():
        fore, back = scheme.tile_colours()
        for tile, row in TERRAIN.items():
            assert tuple(fore[tile]) == scheme[Slot(row.colour_role)], (scheme.name, tile)
            assert tuple(back[tile]) == scheme[Slot(row.background_role)], (scheme.name, tile)


def test_the_map_every_frontend_shows_draws_each_kind_with_its_glyph() -> None:
    """The window, the terminal and the web all present the console ``draw_game`` draws."""
    game = drawn_game(EVERY_KIND)
    drawn = game_console(game, DEFAULT_LOOK).rgb["ch"]
    for y, line in enumerate(EVERY_KIND):
        for x, char in enumerate(line):
            if char != "@":
                assert chr(drawn[y, x]) == TERRAIN[TILE_OF[char]].glyph, (x, y)


def test_look_and_hovering_say_the_words_of_the_row() -> None:
    game = drawn_game(EVERY_KIND)
    for y, line in enumerate(EVERY_KIND):
        for x, char in enumerate(line):
            if char != "@":
                assert describe(game, (x, y))[0][0] == TERRAIN[TILE_OF[char]].words, (x, y)


def test_the_help_legend_explains_every_kind_of_tile() -> None:
    legend = {glyph for glyph, _ in helptext.LEGEND}
    assert [row.glyph for row in TERRAIN.values() if row.glyph not in legend] == []
