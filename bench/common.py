"""Shared helpers for benchmarks: timing loops, a crowded floor, and figures in one format.

Every bench prints its headline figures through :func:`figure` (``label: value unit``), so
``python -m bench.versus`` can run it against another checkout and print the ratios.
"""

from __future__ import annotations

import os
import resource
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import esper

import roguelike
from components import Dose, Position, Renderable
from roguelike.content import doses
from roguelike.core.floor import Tile
from roguelike.core.game import Game

# The checkout whose game is measured (the one ``roguelike`` is imported from, which
# ``bench.versus`` points at another checkout): its replays, and what commands run.
ROOT = Path(roguelike.__file__).resolve().parent.parent
# The everyday dose of the checkout measured (NORMAL_DOSE; SMALL_DOSE before save format 3),
# so that ``bench.versus`` can run these benches against an older checkout too.
EVERYDAY_DOSE: doses.DoseKind = getattr(doses, "NORMAL_DOSE", None) or doses.SMALL_DOSE


def crowd_floor(game: Game, entities: int) -> None:
    """Fill the live floor with doses until it holds ``entities`` entities besides the player."""
    game.activate()
    floor = game.state.floor
    free = [(int(x), int(y)) for y, x in zip(*(floor.tiles == Tile.FLOOR).nonzero())]
    taken = {(p.x, p.y) for _, p in esper.get_component(Position)}
    look = Renderable(EVERYDAY_DOSE.glyph, EVERYDAY_DOSE.colour, layer=1, always_bright=True)
    for spot in free[:: max(1, len(free) // (entities * 2))]:
        if len(esper.get_component(Position)) > entities:
            break
        if spot not in taken:
            esper.create_entity(Position(*spot), look, Dose(EVERYDAY_DOSE.key, 30, 0, 0, 0))


def timings(
    run: Callable[[], object],
    repeats: int,
    between: Callable[[], None] | None = None,
    clock: Callable[[], float] = time.process_time,
) -> list[float]:
    """Seconds taken by each of ``repeats`` calls (``between`` runs untimed in between).

    CPU time by default: on an idle machine it is the wall time, and it stays steady while
    other work shares the machine (the wall time then measures the neighbours).
    """
    result = []
    for _ in range(repeats):
        if between is not None:
            between()
        start = clock()
        run()
        result.append(clock() - start)
    return result


def report(label: str, seconds: list[float]) -> str:
    """Median, p99 and rate of a list of timings, as one line."""
    ordered = sorted(seconds)
    median = statistics.median(ordered)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"{label}: median {median * 1e6:.0f} us, p99 {p99 * 1e6:.0f} us, {1 / median:,.0f} per second"


def figure(label: str, value: float, unit: str, note: str = "") -> None:
    """Print one headline figure as ``label: value unit (note)``."""
    print(f"{label}: {value:,.3f} {unit}" + (f" ({note})" if note else ""), flush=True)


def rate(count: int, seconds: float) -> float:
    """Things per second (0 when nothing was timed)."""
    return count / seconds if seconds > 0 else 0.0


def children_cpu() -> float:
    """CPU seconds used so far by finished child processes (a command's time, whatever the load)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def machine(folder: Path) -> str:
    """The conditions of a run, to print beside its figures: cores, load, and the disk under ``folder``."""
    load = " / ".join(f"{value:.1f}" for value in os.getloadavg())
    return f"machine: {os.cpu_count()} cores, load average {load} (1 / 5 / 15 min); {folder}: {disk_of(folder)}"


def disk_of(folder: Path) -> str:
    """The file system a folder is on, as /proc/mounts names it (type, device, options)."""
    try:
        mounts = [line.split() for line in Path("/proc/mounts").read_text().splitlines()]
    except OSError:
        return "file system unknown"
    where = str(folder.resolve())
    inside = [m for m in mounts if len(m) >= 4 and (where == m[1] or where.startswith(m[1].rstrip("/") + "/"))]
    if not inside:
        return "file system unknown"
    device, mount, kind, options = max(inside, key=lambda m: len(m[1]))[:4]
    return f"{kind} on {device} at {mount} ({options})"
