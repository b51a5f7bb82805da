"""The game's own seeded random number generator.

Game logic draws only from :class:`Rng`: a SplitMix64 stream whose whole state is one
integer, so it saves and restores exactly and never changes with the Python version
(``random.Random`` promises stable output only for ``random()``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from enum import IntEnum
from typing import TypeVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_TABLED = 256  # salts below this (a floor's columns and rows) are mixed once, then looked up


def mix64(value: int) -> int:
    """Scramble a 64-bit integer (the SplitMix64 finaliser)."""
    z = value & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def _mix_each(values: NDArray[np.uint64]) -> NDArray[np.uint64]:
    """:func:`mix64` on every element of an array (numpy's uint64 arithmetic wraps as its masks do)."""
    z = (values ^ (values >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    result: NDArray[np.uint64] = z ^ (z >> np.uint64(31))
    return result


def derive_seed(seed: int, *salts: int) -> int:
    """A seed for an independent stream, derived from a seed and integer salts."""
    return _fold(mix64(seed), salts)


def _fold(value: int, salts: Iterable[int]) -> int:
    """:func:`derive_seed` from the value it has reached, going on with more salts."""
    # Every idle monster's amble folds in two salts a turn. A salt below _TABLED (a place's
    # column or row, a depth, a purpose) is looked up, and the mix of the value is written
    # out: together they take a third of the time of two mix64 calls a salt. The same stream.
    salted = _SALTED
    for salt in salts:
        z = value ^ (salted[salt] if 0 <= salt < _TABLED else mix64(salt + _GOLDEN))
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        value = z ^ (z >> 31)
    return value


_SALTED: tuple[int, ...] = tuple(mix64(salt + _GOLDEN) for salt in range(_TABLED))  # for _fold


def derive_seeds(seed: int, shared: Sequence[int], rows: ArrayLike) -> NDArray[np.uint64]:
    """:func:`derive_seed` for many salt tuples at once: element ``i`` is ``derive_seed(seed, *shared, *rows[i])``.

    ``rows`` is a 2-D array of integer salts, one row per seed (taken modulo 2**64, as
    :func:`derive_seed` takes them); the work is done in numpy, whatever the number of rows.
    """
    table = np.asarray(rows)
    if table.ndim != 2:
        raise ValueError(f"salts must come as rows of a 2-D array, not of shape {table.shape}")
    values = np.full(len(table), derive_seed(seed, *shared), dtype=np.uint64)
    for salted in _salted(table).T:
        values = _mix_each(values ^ salted)
    return values


def _salted(salts: NDArray[np.integer]) -> NDArray[np.uint64]:
    """``mix64(salt + golden)`` of every salt, as :func:`derive_seed` mixes a salt in."""
    if salts.size and salts.dtype.kind in "iu" and salts.min() >= 0 and salts.max() < _TABLED:
        found: NDArray[np.uint64] = _salt_table()[salts]
        return found
    return _mix_each(salts.astype(np.uint64) + np.uint64(_GOLDEN))


@functools.cache
def _salt_table() -> NDArray[np.uint64]:
    """``mix64(salt + golden)`` of every salt below :data:`_TABLED`."""
    return _mix_each(np.arange(_TABLED, dtype=np.uint64) + np.uint64(_GOLDEN))


class Purpose(IntEnum):
    """What a world stream is drawn for: each has its own, so no purpose reshuffles another."""

    WANDER = 1  # an idle monster's amble
    GROW = 2  # a monster the floor grows as the mind sinks
    FLEE = 3  # the player's own flight in panic
    MONSTERS = 4  # the monsters a new floor is made with, one stream per group
    DOUBT = 5  # whether a doubting player's step becomes a hesitation


class WorldClock:
    """Where and when the world draws: the game's seed, the floor and the turn on that floor.

    The world's draws are a function of the seed, the floor, the turns since the player
    arrived on it, the purpose and the place, not of how many draws came before: one more
    wait by the player leaves every monster's amble and every reinforcement of a given turn
    as it was, instead of reshuffling all that follow, and a floor reached a turn later
    plays out as it would have (the player's own choices still change what they meet).
    """

    __slots__ = ("_purposes", "base")

    def __init__(self, seed: int, depth: int, turn_here: int) -> None:
        self.base = derive_seed(seed, depth, turn_here)
        self._purposes: dict[Purpose, int] = {}  # derive_seed(base, purpose) so far, worked out once

    def at(self, purpose: Purpose, *keys: int) -> Rng:
        """The stream of one purpose at one place (``keys``, e.g. x and y) this turn."""
        begun = self._purposes.get(purpose)
        if begun is None:
            begun = self._purposes[purpose] = derive_seed(self.base, int(purpose))
        return Rng(_fold(begun, keys))  # derive_seed(base, purpose, *keys), its first salt mixed in once

    def seeds_at(self, purpose: Purpose, places: Sequence[tuple[int, int]]) -> list[int]:
        """The seeds of :meth:`at`'s streams at many places at once (in numpy), in the order of ``places``."""
        if not places:
            return []
        seeds: list[int] = derive_seeds(self.base, (int(purpose),), places).tolist()
        return seeds


class Rng:
    """Deterministic random stream; its state is a single 64-bit integer."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        """The next raw 64-bit output."""
        self.state = (self.state + _GOLDEN) & _MASK
        return mix64(self.state)

    def many64(self, count: int) -> NDArray[np.uint64]:
        """The next ``count`` raw outputs at once, exactly as ``count`` calls of :meth:`next64` give them."""
        # SplitMix64's n-th state is the seed plus n golden steps, so the whole run is
        # mixed at once in numpy instead of a Python call per output.
        states = np.arange(1, count + 1, dtype=np.uint64) * np.uint64(_GOLDEN) + np.uint64(self.state)
        self.state = (self.state + count * _GOLDEN) & _MASK
        return _mix_each(states)

    def below(self, bound: int) -> int:
        """A uniform integer in ``[0, bound)``, without modulo bias."""
        if bound <= 0:
            raise ValueError("bound must be positive")
        limit = _MASK - (_MASK % bound)
        while True:
            # next64 and mix64 written out: the monsters draw here every step, and two
            # calls fewer a draw is a third of its cost. The same stream, draw for draw.
            z = self.state = (self.state + _GOLDEN) & _MASK
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            value = z ^ (z >> 31)
            if value < limit:
                return value % bound

    def between(self, low: int, high: int) -> int:
        """A uniform integer in ``[low, high]`` (both ends included)."""
        return low + self.below(high - low + 1)

    def chance(self, numerator: int, denominator: int) -> bool:
        """True with probability ``numerator / denominator``."""
        return self.below(denominator) < numerator

    def weighted(self, items: Sequence[T], weights: Sequence[int]) -> T:
        """One of ``items``, each as likely as its weight (one draw)."""
        roll = self.below(sum(weights))
        for item, weight in zip(items, weights):
            if roll < weight:
                return item
            roll -= weight
        raise AssertionError("weights exhausted")  # unreachable: roll < total weight

    def choice(self, items: Sequence[T]) -> T:
        """One element of a non-empty sequence."""
        return items[self.below(len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A new list with the items in random order (Fisher-Yates)."""
        result = list(items)
        for index in range(len(result) - 1, 0, -1):
            other = self.below(index + 1)
            result[index], result[other] = result[other], result[index]
        return result
