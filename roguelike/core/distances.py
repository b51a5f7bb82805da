"""Dijkstra distance maps that free their memory: tcod's ``dijkstra2d`` leaks.

tcod 21.2.2's ``tcod.path.dijkstra2d`` allocates a search frontier in C and never frees it
(about 4.4 KB a call on an 80x21 floor: a long game, a replay session or a verifying worker
grows without bound; see docs/performance.md for the reproduction). A
``tcod.path.Pathfinder`` owns its frontier and frees it with itself, and resolved from the
same roots over the same graph it gives the same distances, cell for cell.

Building a Pathfinder costs about as much as the search itself, so one is kept per kind of
map (its shape, its costs' type, its step costs) and reused: its graph reads a cost array of
its own, which every search first overwrites with the costs it is asked about. The maps are
derived state: nothing here is saved, and a door opening cannot leave a stale cost behind.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import tcod.path
from numpy.typing import NDArray

UNREACHABLE = int(np.iinfo(np.int32).max)
# Searchers kept: the floor's own shape, and the boxes the hunters and the bots map around
# a spot (a few dozen shapes in a game); about 30 kB each.
SEARCHERS_KEPT = 64

SearcherKey = tuple[tuple[int, ...], str, int, int]


class Searcher:
    """A Pathfinder over a cost array of its own, reused search after search."""

    def __init__(self, shape: tuple[int, ...], dtype: np.dtype[Any], cardinal: int, diagonal: int) -> None:
        self.cost: NDArray[Any] = np.zeros(shape, dtype=dtype)
        # tcod's graph keeps a reference to ``self.cost`` (its documented contract): the
        # costs written there before a search are the costs that search walks.
        graph = tcod.path.SimpleGraph(cost=self.cost, cardinal=cardinal, diagonal=diagonal)
        self.finder = tcod.path.Pathfinder(graph)

    def fill(self, dist: NDArray[np.int32], cost: NDArray[Any]) -> None:
        """Every finite cell of ``dist`` is a root at its value; ``dist`` gets every cell's distance over ``cost``."""
        self.cost[...] = cost
        finder = self.finder
        # ``clear()`` is not needed: the whole distance array is overwritten and
        # ``rebuild_frontier`` empties the frontier first; ``clear()`` would also rebuild the
        # traversal array, which distances never read (a fifth of a search's cost).
        finder.distance[...] = dist
        finder.rebuild_frontier()
        finder.resolve()
        dist[...] = finder.distance


_searchers: dict[SearcherKey, Searcher] = {}  # least recently used first; the rules run on one thread


def searcher(shape: tuple[int, ...], dtype: np.dtype[Any], cardinal: int, diagonal: int) -> Searcher:
    """The searcher kept for maps of this shape, cost type and step costs (made if need be)."""
    key = (shape, dtype.str, cardinal, diagonal)
    found = _searchers.pop(key, None)
    if found is None:
        found = Searcher(shape, dtype, cardinal, diagonal)
        if len(_searchers) >= SEARCHERS_KEPT:
            del _searchers[next(iter(_searchers))]
    _searchers[key] = found  # now the most recently used
    return found


def fill_distances(dist: NDArray[np.int32], cost: NDArray[Any], cardinal: int, diagonal: int) -> None:
    """What tcod's ``dijkstra2d`` does with ``out=dist``, without its leak:
    every finite cell of ``dist`` is a root at its value, and ``dist`` gets every cell's distance."""
    if dist.shape != cost.shape:
        raise ValueError(f"distances of shape {dist.shape} over costs of shape {cost.shape}")
    searcher(dist.shape, cost.dtype, cardinal, diagonal).fill(dist, cost)
