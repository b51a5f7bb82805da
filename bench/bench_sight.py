"""The two parts of the rules that cost most in a replay: casting sight, and making a floor.

Run: ``python -m bench.bench_sight``. Figures go in docs/performance.md ("Replays", "Sight
and floors").

Sight: the cast the game makes whenever the player moves or the tiles change
(``sight_and_ring``: sight within the radius and the wider explored ring), from every open
tile of a few floors, each floor cast over many times in a row as in play. Left out: the
system around it (its key, the explored ring kept), which ``bench_replay`` measures with
the rest of the rules.
Floors: ``generate_floor`` as arriving on a new floor calls it, over many seeds and depths
(every kind of floor), and each kind on its own. Left out: waking the floor's entities.
CPU time, the median of ROUNDS rounds.
"""

from __future__ import annotations

import statistics

import numpy as np

from bench.common import figure, timings
from roguelike.content import formulas
from roguelike.core.floor import Floor, Tile
from roguelike.core.mapgen import generate_floor
from roguelike.core.sight import sight_and_ring
from roguelike.core.world import floor_seed

ROUNDS = 5
SIGHT_FLOORS = [(seed, depth) for seed in (1, 2, 3) for depth in (2, 4, 6)]
FLOOR_SEEDS = range(1, 161)


def made_floor(seed: int, depth: int) -> Floor:
    """A floor as the game makes it on arrival (stairs from above at a fixed spot past floor 1)."""
    return generate_floor(floor_seed(seed, depth), depth, None if depth == 1 else (12 + seed % 50, 4 + seed % 12))


def open_tiles(floor: Floor) -> list[tuple[int, int]]:
    """Every tile the player could stand on."""
    ys, xs = np.nonzero(floor.tiles != Tile.WALL)
    return list(zip(xs.tolist(), ys.tolist()))


def sight_per_cast() -> float:
    """Median seconds of one cast, from every open tile of the sight floors."""
    floors = [made_floor(seed, depth) for seed, depth in SIGHT_FLOORS]
    spots = [(floor, open_tiles(floor)) for floor in floors]
    casts = sum(len(tiles) for _, tiles in spots)

    def cast_all() -> None:
        for floor, tiles in spots:
            for x, y in tiles:
                sight_and_ring(floor, x, y, formulas.FOV_RADIUS)

    return statistics.median(timings(cast_all, ROUNDS)) / casts


def floors_per_kind() -> dict[str, float]:
    """Median seconds to make a floor: over all the seeds and depths, and for each kind of floor."""
    plan = [(seed, 1 + seed % 8) for seed in FLOOR_SEEDS]
    kinds: dict[str, list[tuple[int, int]]] = {}
    for seed, depth in plan:
        kinds.setdefault(made_floor(seed, depth).kind, []).append((seed, depth))
    result = {"all": _per_floor(plan)}
    result.update({kind: _per_floor(which) for kind, which in sorted(kinds.items())})
    return result


def _per_floor(plan: list[tuple[int, int]]) -> float:
    """Median seconds a floor, making every floor of ``plan``."""
    seconds = timings(lambda: [made_floor(seed, depth) for seed, depth in plan], ROUNDS)
    return statistics.median(seconds) / len(plan)


def main() -> None:
    """Print the figures."""
    figure("sight, one cast (sight and explored ring)", sight_per_cast() * 1e6, "us")
    for kind, seconds in floors_per_kind().items():
        label = "making a floor, every kind" if kind == "all" else f"making a floor of {kind}"
        figure(label, seconds * 1e3, "ms")


if __name__ == "__main__":
    main()
