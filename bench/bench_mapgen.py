"""Making floors alone: ``generate_floor`` over the games and floors issue 48 measures.

Run: ``python -m bench.bench_mapgen``. Figures go in docs/performance.md ("Floor
generation (issue 48)").

Floors 1 to 7 of games 0 to 39, each made from the floor above as arriving on it makes
it (its up stairs where the floor above has its down stairs), and the same floors by
climate. Left out: waking the floor's entities, which ``bench_sight`` and ``bench_replay``
measure with the rest of a descent. CPU time, the median of ROUNDS rounds.
"""

from __future__ import annotations

import statistics

from bench.common import figure, timings
from roguelike.core.floor import Floor
from roguelike.core.mapgen import generate_floor
from roguelike.core.world import floor_seed

ROUNDS = 5
SEEDS = range(40)
DEPTHS = range(1, 8)

Plan = list[tuple[int, int, tuple[int, int] | None]]  # (seed, depth, up stairs) of each floor


def game_floors(seed: int) -> list[Floor]:
    """Floors 1 to 7 of a game, each from the one above."""
    floors: list[Floor] = []
    for depth in DEPTHS:
        floors.append(generate_floor(floor_seed(seed, depth), depth, floors[-1].down_stairs if floors else None))
    return floors


def plans() -> dict[str, Plan]:
    """Every floor to make, and the floors of each climate apart."""
    every: Plan = []
    kinds: dict[str, Plan] = {}
    for seed in SEEDS:
        up = None
        for floor in game_floors(seed):
            every.append((seed, floor.depth, up))
            kinds.setdefault(floor.kind, []).append((seed, floor.depth, up))
            up = floor.down_stairs
    return {"all": every} | dict(sorted(kinds.items()))


def per_floor(plan: Plan) -> float:
    """Median seconds a floor, making every floor of ``plan``."""
    seconds = timings(lambda: [generate_floor(floor_seed(seed, depth), depth, up) for seed, depth, up in plan], ROUNDS)
    return statistics.median(seconds) / len(plan)


def main() -> None:
    """Print the figures."""
    for kind, plan in plans().items():
        label = "making a floor, games 0-39, floors 1-7" if kind == "all" else f"making a floor of {kind}"
        figure(label, per_floor(plan) * 1e3, "ms", f"{len(plan)} floors")


if __name__ == "__main__":
    main()
