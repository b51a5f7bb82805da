"""The floors of a thousand games, made once a process for the tests that check them.

Two files check the same floors 1..4 of games 0..999 (``test_floor_kinds``: connected,
stairs in place; ``test_dose_chokepoints``: no dose gates a floor), and making them is
nearly all of either test's time. Each chunk of games is made by whichever reader comes
first and handed to the other, then let go; both files' chunk tests are marked ``together`` so that
xdist runs them in one worker (tests/conftest.py). The floors are only read: their arrays are made
read-only, so a test that tried to change one would fail instead of spoiling the other's.
"""

from __future__ import annotations

import numpy as np

from roguelike.content.climates import climates_at
from roguelike.core.floor import Floor
from roguelike.core.mapgen import generate_floor
from roguelike.core.world import floor_seed

GAMES = 1000
CHUNK = 250
DEPTH = 4
UNREACHED = np.iinfo(np.int32).max
READERS = frozenset({"kinds", "doses"})

Games = tuple[tuple[Floor, ...], ...]
kept: dict[int, tuple[set[str], Games]] = {}  # first seed of a chunk -> the readers that took it, its games


def chain(seed: int, depth: int) -> list[Floor]:
    """Floors 1..depth of a game, each generated from the one above."""
    floors: list[Floor] = []
    for d in range(1, depth + 1):
        up = floors[-1].down_stairs if floors else None
        floors.append(generate_floor(floor_seed(seed, d), d, up))
    return floors


def sampled_games(first: int, reader: str) -> Games:
    """Floors 1..DEPTH of games ``first`` to ``first + CHUNK - 1``, read-only, for one of the READERS."""
    assert reader in READERS
    taken, games = kept.pop(first, (set(), ()))
    if not games:
        games = tuple(tuple(frozen(floor) for floor in chain(seed, DEPTH)) for seed in range(first, first + CHUNK))
    taken.add(reader)
    if taken != READERS:
        kept[first] = (taken, games)
    return games


def sampled_climates() -> set[str]:
    """The climates floors 1..DEPTH may be, which the samples should all hold."""
    return {climate.key for depth in range(1, DEPTH + 1) for climate in climates_at(depth)}


def frozen(floor: Floor) -> Floor:
    """The floor with its arrays made read-only."""
    for array in (floor.tiles, floor.explored, floor.revealed):
        array.flags.writeable = False
    return floor
