"""Distance maps: the same as tcod's dijkstra2d cell for cell, without its memory leak."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import tcod.path
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ROOT
from roguelike.core.distances import UNREACHABLE, fill_distances


def reference(dist: np.ndarray, cost: np.ndarray, cardinal: int, diagonal: int) -> np.ndarray:
    """What tcod's dijkstra2d makes of the same input (it leaks: called only a few hundred times here)."""
    out = dist.copy()
    tcod.path.dijkstra2d(out, cost, cardinal, diagonal, out=out)
    return out


# Up to a few roots (on walls too) at several values, costs 0 (a wall) to 3: as the rules use them.
floors = st.integers(1, 24).flatmap(
    lambda height: st.integers(1, 84).flatmap(
        lambda width: st.tuples(
            st.lists(st.integers(0, 3), min_size=height * width, max_size=height * width).map(
                lambda costs: np.array(costs, dtype=np.uint8).reshape(height, width)
            ),
            st.lists(
                st.tuples(st.integers(0, height - 1), st.integers(0, width - 1), st.integers(0, 5)),
                min_size=1,
                max_size=4,
            ),
        )
    )
)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(floors, st.sampled_from([(1, 1), (2, 3)]), st.sampled_from([np.uint8, np.int32]))
def test_the_distances_are_tcods_dijkstra2d_cell_for_cell(
    floor: tuple[np.ndarray, list[tuple[int, int, int]]], steps: tuple[int, int], kind: type
) -> None:
    cost: np.ndarray = floor[0].astype(kind)
    roots = floor[1]
    dist = np.full(cost.shape, UNREACHABLE, dtype=np.int32)
    for y, x, value in roots:
        dist[y, x] = value
    mine = dist.copy()
    fill_distances(mine, cost, *steps)
    assert np.array_equal(mine, reference(dist, cost, *steps))


def test_a_kept_searcher_walks_the_costs_it_is_given_now() -> None:
    rng = np.random.default_rng(27)
    cost = (rng.random((21, 80)) > 0.3).astype(np.int32)
    dist = np.full(cost.shape, UNREACHABLE, dtype=np.int32)
    dist[10, 40] = 0
    before = dist.copy()
    fill_distances(before, cost, 2, 3)
    cost[:, 41] = 0  # a wall rises (in the caller's array) beside the root: the same shape, a kept searcher
    after = dist.copy()
    fill_distances(after, cost, 2, 3)
    assert np.array_equal(after, reference(dist, cost, 2, 3))
    assert not np.array_equal(after, before)


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
from roguelike.core.distances import SEARCHERS_KEPT, fill_distances

def rss():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20

rng = np.random.default_rng(1)
floor = (rng.random((21, 80)) > 0.25).astype(np.uint8)
# The whole floor most of the time, else boxes of more shapes than are kept (searchers are
# made and dropped too), each search over costs of its own, as the rules change them.
areas = [(21, 80)] * SEARCHERS_KEPT + [(h, w) for h in range(5, 21, 2) for w in range(9, 80, 6)]
def calls(count):
    for call in range(count):
        height, width = areas[call % len(areas)]
        cost = floor[:height, :width].copy()
        cost[call % height, :] = 0
        dist = np.full(cost.shape, 2**31 - 1, dtype=np.int32)
        dist[height // 2, width // 2] = 0
        fill_distances(dist, cost, 2, 3)
calls(len(areas))
before = rss()
calls(20000)
print(rss() - before)
"""


def test_many_distance_maps_keep_the_memory_flat() -> None:
    grown = float(
        subprocess.run(
            [sys.executable, "-c", MEMORY], cwd=ROOT, capture_output=True, text=True, check=True, timeout=300
        ).stdout
    )
    assert grown < 4  # MiB; tcod's dijkstra2d grew 21 MiB over 5,000 calls (4.4 KB each): 86 MiB over these


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
    grown = float(
        subprocess.run(
            [sys.executable, "-c", GAMES], cwd=ROOT, capture_output=True, text=True, check=True, timeout=600
        ).stdout
    )
    assert grown < 3  # MiB over 16 games; with tcod's dijkstra2d the bots' routes and chase maps added ~12


def test_no_module_of_the_game_calls_tcods_leaking_dijkstra2d() -> None:
    sources = [path for folder in ("roguelike", "systems", "components") for path in (ROOT / folder).rglob("*.py")]
    callers = [path.name for path in sources if "dijkstra2d(" in path.read_text(encoding="utf-8")]
    assert callers == []
