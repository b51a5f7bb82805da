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
from roguelike.core.floor import TRANSPARENT, Floor

Mask = NDArray[np.bool_]


def field_of_view(floor: Floor, x: int, y: int, radius: int = formulas.FOV_RADIUS) -> Mask:
    """The tiles visible from ``(x, y)`` within ``radius`` (closed doors and walls block sight)."""
    seen, top, left = _cast(floor, x, y, radius)
    return _placed(floor, seen, top, left)


def sight_and_ring(floor: Floor, x: int, y: int, radius: int) -> tuple[Mask, Mask]:
    """What is seen within ``radius``, and what is in line of sight in the wider explored ring."""
    # Symmetric shadowcasting sees a tile or not whatever the radius, so the sight circle
    # is cut out of the one wider cast rather than cast twice.
    wide = radius + formulas.EXPLORED_RING
    ring, top, left = _cast(floor, x, y, wide)
    disc = _disc(radius, wide)[top - (y - wide) :, left - (x - wide) :][: ring.shape[0], : ring.shape[1]]
    known = _placed(floor, ring, top, left)
    seen = known.copy()
    seen[top : top + ring.shape[0], left : left + ring.shape[1]] &= disc
    return seen, known


def _cast(floor: Floor, x: int, y: int, radius: int) -> tuple[Mask, int, int]:
    """Sight from ``(x, y)`` on the square around it only, and that square's top and left."""
    # Nothing beyond the radius is seen or casts a shadow inward, so sight is computed on
    # the square around the player only: a fifth of the map, a third of the time.
    top, left = max(0, y - radius), max(0, x - radius)
    window = floor.tiles[top : y + radius + 1, left : x + radius + 1]
    seen: Mask = tcod.map.compute_fov(
        TRANSPARENT[window],
        (y - top, x - left),
        radius=radius,
        light_walls=True,
        algorithm=tcod.constants.FOV_SYMMETRIC_SHADOWCAST,
    )
    return seen, top, left


def _placed(floor: Floor, seen: Mask, top: int, left: int) -> Mask:
    """A window's tiles placed on an otherwise empty map-sized mask."""
    visible = np.zeros(floor.tiles.shape, dtype=bool)
    visible[top : top + seen.shape[0], left : left + seen.shape[1]] = seen
    return visible


@functools.cache
def _disc(radius: int, half: int) -> Mask:
    """The circle tcod's field of view uses for ``radius``, centred in a square ``half`` each way."""
    ys, xs = np.ogrid[-half : half + 1, -half : half + 1]
    inside: Mask = xs**2 + ys**2 < radius * radius
    return inside
