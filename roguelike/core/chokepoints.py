"""Chokepoints: tiles whose blocking would cut the walkable tiles around them in two.

A dose is a lure automation walks around and a step onto it takes it, so a dose in a
one-tile corridor or a doorway seals whatever lies past it until the player can take it
safely. Map generation never places one there (issue 23). The test is local and so
conservative: a tile is a chokepoint when its walkable neighbours, joined only through
each other (a step may go diagonally), fall apart into more than one group without it.
A tile that is not one can be blocked without cutting anything anywhere, and placing the
doses one at a time, each blocking its tile for the next, keeps them all from gating the
floor together. Being local, the test changes only beside a tile blocked: :class:`Gates`
keeps the chokepoints of several masks (a floor's open ground in every band) as doses are
placed one by one, looking again only at the eight tiles around each.
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
CUTTING: bytes = CUTS.tobytes()  # the same, read a pattern at a time (bytes index faster than an array)


def chokepoints(walkable: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """Walkable tiles without which their walkable neighbours would fall apart."""
    height, width = walkable.shape
    padded = _with_margin(walkable)
    code = np.zeros((height, width), dtype=np.uint8)
    for bit, (dx, dy) in enumerate(RING):
        code |= padded[1 + dy : 1 + dy + height, 1 + dx : 1 + dx + width] << bit
    result: NDArray[np.bool_] = walkable & CUTS[code]
    return result


def _with_margin(walkable: NDArray[np.bool_]) -> NDArray[np.uint8]:
    """The mask as 0 and 1 with a closed margin a tile wide (np.pad costs more than the whole test)."""
    height, width = walkable.shape
    padded = np.zeros((height + 2, width + 2), dtype=np.uint8)
    padded[1:-1, 1:-1] = walkable
    return padded


class Gates:
    """The tiles that are a chokepoint of any of several masks of walkable tiles, kept as tiles are blocked."""

    def __init__(self, masks: list[NDArray[np.bool_]]) -> None:
        self.stride = masks[0].shape[1] + 2
        # Each mask row by row with a closed margin, so every tile of the floor has eight neighbours.
        self.masks = [bytearray(_with_margin(mask).tobytes()) for mask in masks]
        ys, xs = np.logical_or.reduce([chokepoints(mask) for mask in masks]).nonzero()
        self.spots: set[tuple[int, int]] = set(zip(xs.tolist(), ys.tolist()))

    def block(self, spot: tuple[int, int]) -> None:
        """Close a tile in every mask; only its neighbours' part in holding the others together can change."""
        x, y = spot
        here = (y + 1) * self.stride + x + 1
        for mask in self.masks:
            mask[here] = 0
        self.spots.discard(spot)
        for dx, dy in RING:  # a tile of the margin is never walkable, so never added
            if self._cuts(here + dy * self.stride + dx):
                self.spots.add((x + dx, y + dy))
            else:
                self.spots.discard((x + dx, y + dy))

    def _cuts(self, at: int) -> bool:
        """Whether the tile at index ``at`` of the margined masks is a chokepoint of any of them."""
        s = self.stride
        for m in self.masks:
            if not m[at]:  # the margin's tiles among them: their own neighbours may lie off the array
                continue
            # The pattern of RING, written out: this runs eight times a dose for each mask.
            pattern = (
                m[at - s]
                | m[at - s + 1] << 1
                | m[at + 1] << 2
                | m[at + s + 1] << 3
                | m[at + s] << 4
                | m[at + s - 1] << 5
                | m[at - 1] << 6
                | m[at - s - 1] << 7
            )
            if CUTTING[pattern]:
                return True
        return False
