"""Kept path maps play exactly as fresh ones: 40 hunters chasing a roaming player, against a twin game
whose every chase map is worked out afresh over the whole floor."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from bench.bench_monsters import hunting_floor, keep_going
from components import Position
from roguelike.core import hunt
from roguelike.core.commands import Command, Move, Wait
from roguelike.core.floor import Tile
from roguelike.core.game import Game
from roguelike.core.pathing import step_toward, travel_cost
from roguelike.core.rng import Rng
from roguelike.core.session import Session

TURNS = 500


@contextmanager
def fresh_maps(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every chase map worked out afresh, over the whole floor, while inside."""
    with monkeypatch.context() as patch:
        patch.setattr(hunt, "chase_layout", hunt.chase_layout.__wrapped__)
        patch.setattr(hunt, "chase_map", hunt.chase_map.__wrapped__)
        yield


def roaming(game: Game, seed: int) -> Iterator[Command]:
    """The player walks between a few waypoints (so it comes back to tiles it stood on)."""
    rng, floor = Rng(seed), game.state.floor
    tiles = [(int(x), int(y)) for y, x in zip(*(floor.tiles == Tile.FLOOR).nonzero())]
    waypoints = [rng.choice(tiles) for _ in range(4)]
    cost = travel_cost(floor)
    cost[(floor.tiles == Tile.STAIRS_DOWN) | (floor.tiles == Tile.STAIRS_UP)] = 0
    goal = 0
    while True:
        pos = game.player_component(Position)
        step = step_toward(cost, (pos.x, pos.y), [waypoints[goal]])
        if step is None or rng.chance(1, 30):
            goal = (goal + 1) % len(waypoints)
        yield Move(*step) if step is not None else Wait()


@pytest.mark.parametrize("seed", [2024, 7, 31])
def test_hunters_take_the_same_steps_from_kept_maps_as_from_fresh_ones(
    seed: int, monkeypatch: pytest.MonkeyPatch,
) -> None:
    kept, fresh = hunting_floor(seed), hunting_floor(seed)
    kept_session, fresh_session = Session(kept), Session(fresh)
    hunt.chase_map.cache_clear()
    commands = roaming(kept, seed)
    for turn in range(TURNS):
        keep_going(kept)
        keep_going(fresh)
        kept.activate()
        command = next(commands)
        ours = kept_session.apply(command)
        with fresh_maps(monkeypatch):
            theirs = fresh_session.apply(command)
        assert ours.checksum == theirs.checksum, f"seed {seed}: the games part at turn {turn} ({command})"
    assert hunt.chase_map.cache_info().hits > TURNS // 4  # the kept maps were used, not only made
