"""Walls closing in: a floor's shifting tiles turned to the band of the player's State of Mind.

A shifting terrain is two rows of the terrain table, its open kind and its shut kind, each
naming the other (``turns_into``) and the bands in which the terrain stands shut
(``shut_in``). Turning a floor to a band reads only those fields, through the lookups
below, indexed by tile value as ``roguelike.core.floor``'s are. A tile that would shut with
something standing on it (a creature, a dose) stays open until it is free, so nothing is
ever walled in. Map generation turns a new floor to the band it is first reached in, the
``shift_walls`` system the player's floor after every action, and travel a floor on arrival.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from roguelike.content import terrain
from roguelike.content.formulas import Band
from roguelike.content.terrain import TERRAIN, Tile
from roguelike.core.floor import PASSABLE, WALKABLE, Floor

Spot = tuple[int, int]
ROWS = terrain.by_value()


def _flags(values: list[bool]) -> NDArray[np.bool_]:
    """A yes or no of every tile value that nothing may change by accident."""
    array = np.array(values, dtype=bool)
    array.flags.writeable = False
    return array


# Whether a kind of tile shifts at all, and the kind each turns into (itself where it never does).
SHIFTING = _flags([row.turns_into is not None for row in ROWS])
TURNS_INTO = np.array([int(row.tile if row.turns_into is None else row.turns_into) for row in ROWS], dtype=np.uint8)
TURNS_INTO.flags.writeable = False
# For each band: the kinds of tile that stand in the wrong state there (open where the band
# shuts them, shut where it opens them), which turning to the band turns into their other kind.
WRONG_IN: tuple[NDArray[np.bool_], ...] = tuple(
    _flags([row.turns_into is not None and (band in row.shut_in) == row.walkable for row in ROWS]) for band in Band
)
# For each band: where a creature can get to once the floor is turned to it (a floor's open ground there).
OPEN_IN: tuple[NDArray[np.bool_], ...] = tuple(
    _flags([bool(PASSABLE[TURNS_INTO[value] if wrong[value] else value]) for value in range(len(ROWS))])
    for wrong in WRONG_IN
)


def open_ground(floor: Floor, band: Band) -> NDArray[np.bool_]:
    """Where a creature could get to on the floor were it turned to ``band`` (nothing holding a tile open)."""
    ground: NDArray[np.bool_] = OPEN_IN[band].take(floor.tiles)
    return ground


def turn_to_band(floor: Floor, band: Band, held: Callable[[], set[Spot]]) -> list[str]:
    """Turn the floor's shifting tiles to ``band``; what the log says of the walls that moved.

    ``held`` names the tiles something stands on (asked only when a tile is to shut): those
    stay open. A terrain is told of once per flip, when most of its tiles turn (not when a
    tile held open shuts later on its own), so what is said depends on the tiles alone.
    """
    tiles = floor.tiles
    layout = tiles.tobytes()
    if _calm == (band, layout):
        return []
    wrong: NDArray[np.bool_] = WRONG_IN[band].take(tiles)
    if not wrong.any():
        _remember_calm(band, layout)
        return []
    shutting = wrong & WALKABLE.take(tiles)
    if shutting.any():
        for x, y in held():
            if floor.in_bounds(x, y) and shutting[y, x]:
                wrong[y, x] = False
    before = tiles.copy()
    tiles[wrong] = TURNS_INTO.take(tiles[wrong])
    return [TERRAIN[kind].turned for kind in _turned_kinds(tiles[wrong]) if _most_turned(before, tiles, kind)]


# The last band and tiles found with nothing to turn: the player's floor, after every action,
# mostly stands as it stood (its bytes compare in a tenth of the lookup). One tuple, compared
# by value, so games on other floors or threads only miss it, never mislead it.
_calm: tuple[Band, bytes] | None = None


def _remember_calm(band: Band, layout: bytes) -> None:
    """Note a floor's tiles as having nothing to turn in ``band``."""
    global _calm
    _calm = band, layout


def _turned_kinds(turned: NDArray[np.uint8]) -> list[Tile]:
    """The kinds some tiles turned into, in the order of their values."""
    return [Tile(int(value)) for value in np.unique(turned)]


def _most_turned(before: NDArray[np.uint8], after: NDArray[np.uint8], kind: Tile) -> bool:
    """Whether most tiles of a shifting terrain are of ``kind`` now and were not before."""
    other = int(TURNS_INTO[kind])
    total = int(np.count_nonzero(after == kind) + np.count_nonzero(after == other))
    return 2 * int(np.count_nonzero(after == kind)) > total >= 2 * int(np.count_nonzero(before == kind))
