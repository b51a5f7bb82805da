"""Line of sight over a floor: symmetric shadowcasting within the sight radius."""

from __future__ import annotations

import numpy as np
import tcod.constants
import tcod.map
from numpy.typing import NDArray

from roguelike import formulas
from roguelike.floor import Floor


def field_of_view(floor: Floor, x: int, y: int) -> NDArray[np.bool_]:
    """The tiles visible from ``(x, y)`` (closed doors and walls block sight)."""
    visible: NDArray[np.bool_] = tcod.map.compute_fov(
        floor.transparent(),
        (y, x),
        radius=formulas.FOV_RADIUS,
        light_walls=True,
        algorithm=tcod.constants.FOV_SYMMETRIC_SHADOWCAST,
    )
    return visible
