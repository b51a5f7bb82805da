"""Dijkstra distance maps that free their memory: tcod's ``dijkstra2d`` leaks.

tcod 21.2.2's ``tcod.path.dijkstra2d`` allocates a search frontier in C and never frees it
(about 4.4 KB a call on an 80x21 floor: a long game, a replay session or a verifying worker
grows without bound; see docs/performance.md for the reproduction). A
``tcod.path.Pathfinder`` owns its frontier and frees it with itself, and resolved from the
same roots over the same graph it gives the same distances, cell for cell.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import tcod.path
from numpy.typing import NDArray

UNREACHABLE = int(np.iinfo(np.int32).max)


def fill_distances(dist: NDArray[np.int32], cost: NDArray[Any], cardinal: int, diagonal: int) -> None:
    """What tcod's ``dijkstra2d`` does with ``out=dist``, without its leak:
    every finite cell of ``dist`` is a root at its value, and ``dist`` gets every cell's distance."""
    finder = tcod.path.Pathfinder(tcod.path.SimpleGraph(cost=cost, cardinal=cardinal, diagonal=diagonal))
    for y, x in np.argwhere(dist != UNREACHABLE).tolist():
        finder.add_root((y, x), int(dist[y, x]))
    finder.resolve()
    dist[...] = finder.distance
