"""Line of sight over a floor: symmetric shadowcasting within the sight radius.

The sight radius follows the State of Mind (see :func:`roguelike.content.formulas.sight_radius`);
a ring a little wider than it is cast at the same time, for the tiles the player comes to
know (explored, drawn dim) without seeing them.
"""

from __future__ import annotations

import functools

import numpy as np
import tcod.constants
import tcod.map
from numpy.typing import NDArray

from roguelike.content import formulas
from roguelike.core.floor import Floor

Mask = NDArray[np.bool_]
Window = tuple[slice, slice]  # rows, then columns, of the map


def field_of_view(floor: Floor, x: int, y: int, radius: int = formulas.FOV_RADIUS) -> Mask:
    """The tiles visible from ``(x, y)`` within ``radius`` (closed doors and walls block sight)."""
    return _placed(floor, *_cast(floor, x, y, radius))


def sight_and_ring(floor: Floor, x: int, y: int, radius: int) -> tuple[Mask, Mask]:
    """What is seen within ``radius``, and what is in line of sight in the wider explored ring."""
    # Symmetric shadowcasting sees a tile or not whatever the radius, so the sight circle
    # is cut out of the one wider cast rather than cast twice.
    known = _placed(floor, *_cast(floor, x, y, radius + formulas.EXPLORED_RING))
    height, width = known.shape
    disc = _disc(radius, height, width)[height - 1 - y : 2 * height - 1 - y, width - 1 - x : 2 * width - 1 - x]
    return known & disc, known


def _cast(floor: Floor, x: int, y: int, radius: int) -> tuple[Mask, Window]:
    """Sight from ``(x, y)`` on the square around it only, and where that square lies on the map."""
    # Nothing beyond the radius is seen or casts a shadow inward, so sight is computed on
    # the square around the player only: a fifth of the map, a third of the time.
    top, left = max(0, y - radius), max(0, x - radius)
    window = (slice(top, y + radius + 1), slice(left, x + radius + 1))
    seen: Mask = tcod.map.compute_fov(
        floor.transparent()[window],
        (y - top, x - left),
        radius=radius,
        light_walls=True,
        algorithm=tcod.constants.FOV_SYMMETRIC_SHADOWCAST,
    )
    return seen, window


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
