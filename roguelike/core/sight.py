"""Line of sight over a floor: symmetric shadowcasting within the sight radius.

The sight radius follows the State of Mind (see :func:`roguelike.content.formulas.sight_radius`);
a ring a little wider than it is cast at the same time, for the tiles the player comes to
know (explored, drawn dim) without seeing them.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import tcod.constants
from numpy.typing import NDArray
from tcod.cffi import ffi, lib

from roguelike.content import formulas
from roguelike.core.floor import Floor

Mask = NDArray[np.bool_]
Window = tuple[slice, slice]  # rows, then columns, of the map
# libtcod's map cell, as tcod.map.compute_fov lays it out.
CELL = np.dtype([("transparent", bool), ("walkable", bool), ("fov", bool)])
SYMMETRIC = tcod.constants.FOV_SYMMETRIC_SHADOWCAST
# Sight is keyed twice an action on its radius: a pure function of two small ints, kept.
sight_radius = functools.lru_cache(maxsize=4096)(formulas.sight_radius)


def field_of_view(floor: Floor, x: int, y: int, radius: int = formulas.FOV_RADIUS) -> Mask:
    """The tiles visible from ``(x, y)`` within ``radius`` (closed doors and walls block sight)."""
    return _placed(floor, *_cast(floor, x, y, radius))


def sight_and_ring(floor: Floor, x: int, y: int, radius: int) -> tuple[Mask, Mask]:
    """What is seen within ``radius``, and what is in line of sight in the wider explored ring."""
    # Symmetric shadowcasting sees a tile or not whatever the radius, so the sight circle
    # is cut out of the one wider cast rather than cast twice.
    cast, window = _cast(floor, x, y, radius + formulas.EXPLORED_RING)
    ring = cast.copy()  # out of libtcod's interleaved cells: what follows runs thrice as fast on it
    rows, columns = window
    disc = _disc_around(radius, *floor.tiles.shape, y - rows.start, x - columns.start, *ring.shape)
    return _placed(floor, ring & disc, window), _placed(floor, ring, window)


def _cast(floor: Floor, x: int, y: int, radius: int) -> tuple[Mask, Window]:
    """Sight from ``(x, y)`` on the square around it only, and where that square lies on the map.

    The mask returned is a view of a scratch buffer that the next cast overwrites.
    """
    # Nothing beyond the radius is seen or casts a shadow inward, so sight is computed on
    # the square around the player only: a fifth of the map, a third of the time. The
    # cells handed to libtcod are kept per square size, which does what
    # tcod.map.compute_fov does without building them anew (most of its cost).
    height, width = floor.tiles.shape
    top, left = max(0, y - radius), max(0, x - radius)
    window = (slice(top, min(height, y + radius + 1)), slice(left, min(width, x + radius + 1)))
    light = floor.transparent()[window]
    transparent, seen, tcod_map = _scratch(*light.shape)
    transparent[...] = light
    lib.TCOD_map_compute_fov(tcod_map, x - left, y - top, radius, True, SYMMETRIC)  # clears every cell's fov first
    return seen, window


@functools.cache
def _scratch(height: int, width: int) -> tuple[Mask, Mask, Any]:
    """libtcod map cells for a square of this size (the rules run on one thread).

    Returns the cells' transparency and sight as masks, and libtcod's map over them.
    """
    cells = np.zeros((height, width), dtype=CELL)
    tcod_map = ffi.new(
        "struct TCOD_Map*", (width, height, width * height, ffi.from_buffer("struct TCOD_MapCell*", cells))
    )
    transparent: Mask = cells["transparent"]
    seen: Mask = cells["fov"]
    return transparent, seen, tcod_map


def _placed(floor: Floor, seen: Mask, window: Window) -> Mask:
    """A window's tiles placed on an otherwise empty map-sized mask."""
    visible = np.zeros(floor.tiles.shape, dtype=bool)
    visible[window] = seen
    return visible


@functools.cache
def _disc(radius: int, height: int, width: int) -> Mask:
    """The circle tcod's field of view uses for ``radius``, centred on a mask twice the map's size.

    Cut at ``[height - 1 - y :, width - 1 - x :]`` to the map's size, it is the circle around
    ``(x, y)`` on the map: one slice, where placing a small circle would take several copies.
    """
    ys, xs = np.ogrid[1 - height : height, 1 - width : width]
    inside: Mask = xs**2 + ys**2 < radius * radius
    return inside


@functools.lru_cache(maxsize=4096)
def _disc_around(radius: int, height: int, width: int, row: int, column: int, rows: int, columns: int) -> Mask:
    """The circle around ``(column, row)`` of a ``rows`` by ``columns`` window, cut from :func:`_disc`.

    Kept per window, as one contiguous mask: the player moves a tile at a time, so the same
    cuts come back, and a contiguous mask is combined with the cast thrice as fast as a slice.
    """
    top, left = height - 1 - row, width - 1 - column
    cut: Mask = np.ascontiguousarray(_disc(radius, height, width)[top : top + rows, left : left + columns])
    return cut
