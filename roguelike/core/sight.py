"""Line of sight over a floor: symmetric shadowcasting within the sight radius."""

from __future__ import annotations

import numpy as np
import tcod.constants
import tcod.map
from numpy.typing import NDArray

from roguelike.content import formulas
from roguelike.core.floor import TRANSPARENT, Floor


def field_of_view(floor: Floor, x: int, y: int) -> NDArray[np.bool_]:
    """The tiles visible from ``(x, y)`` (closed doors and walls block sight)."""
    # Nothing beyond the radius is seen or casts a shadow inward, so sight is computed on
    # the square around the player only: a fifth of the map, a third of the time.
    r = formulas.FOV_RADIUS
    top, left = max(0, y - r), max(0, x - r)
    window = floor.tiles[top : y + r + 1, left : x + r + 1]
    seen = tcod.map.compute_fov(
        TRANSPARENT[window],
        (y - top, x - left),
        radius=r,
        light_walls=True,
        algorithm=tcod.constants.FOV_SYMMETRIC_SHADOWCAST,
    )
    visible = np.zeros(floor.tiles.shape, dtype=bool)
    visible[top : top + seen.shape[0], left : left + seen.shape[1]] = seen
    return visible
