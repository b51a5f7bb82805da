"""Chokepoints: tiles whose blocking would cut the walkable tiles around them in two.

A dose is a lure automation walks around and a step onto it takes it, so a dose in a
one-tile corridor or a doorway seals whatever lies past it until the player can take it
safely. Map generation never places one there (issue 23). The test is local and so
conservative: a tile is a chokepoint when its walkable neighbours, joined only through
each other (a step may go diagonally), fall apart into more than one group without it.
A tile that is not one can be blocked without cutting anything anywhere, and placing the
doses one at a time, each blocking its tile for the next, keeps them all from gating the
floor together.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

# The eight neighbours clockwise from north, as (dx, dy).
RING: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))


def _groups(pattern: int) -> int:
    """How many groups the walkable neighbours of a pattern (bit i: RING[i] walkable) form."""
    open_ = [i for i in range(8) if pattern >> i & 1]
    seen: set[int] = set()
    groups = 0
    for start in open_:
        if start in seen:
            continue
        groups += 1
        stack = [start]
        while stack:
            i = stack.pop()
            if i in seen:
                continue
            seen.add(i)
            stack.extend(j for j in open_ if j not in seen and _touch(RING[i], RING[j]))
    return groups


def _touch(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether two neighbours of a tile are a step apart."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1


# For each of the 256 patterns of walkable neighbours: whether the tile holds them together.
CUTS: NDArray[np.bool_] = np.array([_groups(pattern) > 1 for pattern in range(256)], dtype=bool)


def chokepoints(walkable: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """Walkable tiles without which their walkable neighbours would fall apart."""
    height, width = walkable.shape
    padded = np.pad(walkable, 1, constant_values=False)
    code = np.zeros((height, width), dtype=np.uint8)
    for bit, (dx, dy) in enumerate(RING):
        code |= padded[1 + dy : 1 + dy + height, 1 + dx : 1 + dx + width].astype(np.uint8) << bit
    result: NDArray[np.bool_] = walkable & CUTS[code]
    return result
