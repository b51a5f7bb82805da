"""Distance maps: the same as tcod's dijkstra2d cell for cell, without its memory leak."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import tcod.path

from roguelike.core.distances import UNREACHABLE, fill_distances

from conftest import ROOT


def reference(dist: np.ndarray, cost: np.ndarray, cardinal: int, diagonal: int) -> np.ndarray:
    """What tcod's dijkstra2d makes of the same input (it leaks: called only a few hundred times here)."""
    out = dist.copy()
    tcod.path.dijkstra2d(out, cost, cardinal, diagonal, out=out)
    return out


def test_the_distances_are_tcods_dijkstra2d_cell_for_cell() -> None:
    rng = np.random.default_rng(27)
    for _ in range(300):
        height, width = int(rng.integers(1, 25)), int(rng.integers(1, 85))
        cost = ((rng.random((height, width)) > 0.3) * rng.integers(1, 4, (height, width))).astype(np.uint8)
        dist = np.full(cost.shape, UNREACHABLE, dtype=np.int32)
        for _ in range(int(rng.integers(1, 4))):  # several roots, on walls too, at several values
            dist[rng.integers(0, height), rng.integers(0, width)] = rng.integers(0, 5)
        for cardinal, diagonal in ((1, 1), (2, 3)):
            mine = dist.copy()
            fill_distances(mine, cost, cardinal, diagonal)
            assert np.array_equal(mine, reference(dist, cost, cardinal, diagonal))


def test_a_box_inside_a_bigger_map_fills_only_the_box() -> None:
    rng = np.random.default_rng(3)
    cost = (rng.random((21, 80)) > 0.25).astype(np.uint8)
    dist = np.full(cost.shape, UNREACHABLE, dtype=np.int32)
    dist[10, 40] = 0
    area = slice(4, 17), slice(30, 51)
    expected = dist.copy()
    expected[area] = reference(dist[area], cost[area], 2, 3)
    fill_distances(dist[area], cost[area], 2, 3)  # views, as the chase maps pass them
    assert np.array_equal(dist, expected)


MEMORY = """
import os
import numpy as np
from roguelike.core.distances import fill_distances

def rss():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20

cost = (np.random.default_rng(1).random((21, 80)) > 0.25).astype(np.uint8)
def calls(count):
    for _ in range(count):
        dist = np.full(cost.shape, 2**31 - 1, dtype=np.int32)
        dist[10, 40] = 0
        fill_distances(dist, cost, 2, 3)
calls(200)
before = rss()
calls(5000)
print(rss() - before)
"""


def test_many_distance_maps_keep_the_memory_flat() -> None:
    grown = float(subprocess.run([sys.executable, "-c", MEMORY], cwd=ROOT, capture_output=True, text=True,
                                 check=True, timeout=300).stdout)
    assert grown < 2  # MiB; tcod's dijkstra2d grew 21 MiB over 5,000 calls (4.4 KB each)


GAMES = """
import os
from roguelike.bots.headless import play_bot
from roguelike.bots.registry import make_bot
from roguelike.core.game import Game
from roguelike.core.session import Session

def rss():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20

def games():
    for seed in range(8):
        play_bot(Session(Game.new(seed, "Bot")), 400, make_bot("standard"))
games()  # the same games again and again: every cache holds what it held after the first round
before = rss()
games()
games()
print(rss() - before)
"""


def test_a_process_playing_game_after_game_keeps_its_memory_flat() -> None:
    grown = float(subprocess.run([sys.executable, "-c", GAMES], cwd=ROOT, capture_output=True, text=True,
                                 check=True, timeout=600).stdout)
    assert grown < 3  # MiB over 16 games; with tcod's dijkstra2d the bots' routes and chase maps added ~12


def test_no_module_of_the_game_calls_tcods_leaking_dijkstra2d() -> None:
    sources = [path for folder in ("roguelike", "systems", "components") for path in (ROOT / folder).rglob("*.py")]
    callers = [path.name for path in sources if "dijkstra2d(" in path.read_text(encoding="utf-8")]
    assert callers == []
