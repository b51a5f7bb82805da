"""Shared helpers for benchmarks: timing loops and a crowded floor."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import esper

from components import Dose, Position, Renderable
from roguelike.content.doses import NORMAL_DOSE
from roguelike.core.floor import Tile
from roguelike.core.game import Game


def crowd_floor(game: Game, entities: int) -> None:
    """Fill the live floor with doses until it holds ``entities`` entities besides the player."""
    game.activate()
    floor = game.state.floor
    free = [(int(x), int(y)) for y, x in zip(*(floor.tiles == Tile.FLOOR).nonzero())]
    taken = {(p.x, p.y) for _, p in esper.get_component(Position)}
    look = Renderable(NORMAL_DOSE.glyph, NORMAL_DOSE.colour, layer=1, always_bright=True)
    for spot in free[:: max(1, len(free) // (entities * 2))]:
        if len(esper.get_component(Position)) > entities:
            break
        if spot not in taken:
            esper.create_entity(Position(*spot), look, Dose(NORMAL_DOSE.key, 30, 0, 0, 0))


def timings(run: Callable[[], None], repeats: int, between: Callable[[], None] | None = None) -> list[float]:
    """Seconds taken by each of ``repeats`` calls (``between`` runs untimed in between)."""
    result = []
    for _ in range(repeats):
        if between is not None:
            between()
        start = time.perf_counter()
        run()
        result.append(time.perf_counter() - start)
    return result


def report(label: str, seconds: list[float]) -> str:
    """Median, p99 and rate of a list of timings, as one line."""
    ordered = sorted(seconds)
    median = statistics.median(ordered)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"{label}: median {median * 1e6:.0f} us, p99 {p99 * 1e6:.0f} us, {1 / median:,.0f} per second"
