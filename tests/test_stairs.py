"""Stairs: descending, climbing back, and floors kept exactly as left."""

from __future__ import annotations

import esper
import numpy as np
import pytest

import roguelike.core.mapgen
from components import Position, Record
from helpers import dose_positions, player_xy
from roguelike.core.commands import Move
from roguelike.core.floor import Tile
from roguelike.core.game import Game
from roguelike.core.snapshot import from_plain, to_plain


def walk_onto(game: Game, target: tuple[int, int]) -> None:
    """Teleport next to a tile and step onto it (a test shortcut for walking there)."""
    x, y = target
    for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, 1), (-1, 1), (1, -1)):
        if game.state.floor.tile(x + dx, y + dy) in (Tile.FLOOR, Tile.DOOR_OPEN):
            pos = game.player_component(Position)
            pos.x, pos.y = x + dx, y + dy
            game.apply(Move(-dx, -dy))
            return
    raise AssertionError("no free tile next to the target")


def test_descend_and_climb_back_keeps_the_floor_as_left(monkeypatch: pytest.MonkeyPatch) -> None:
    # Monsters would chase the player and panic it off the stairs; this is about floors.
    monkeypatch.setattr(roguelike.core.mapgen, "place_monsters", lambda *args: [])
    game = Game.new(5, "Climber")
    game.state.floor.tiles[game.state.floor.tiles == Tile.DOOR_CLOSED] = Tile.DOOR_OPEN
    first = game.state.floor
    doses_before = dose_positions(game)
    explored_before = first.explored.copy()
    walk_onto(game, first.down_stairs)
    assert game.state.depth == 2
    assert player_xy(game) == game.state.floor.up_stairs == first.down_stairs
    second_doses = dose_positions(game)
    assert second_doses
    walk_onto(game, game.state.floor.up_stairs)
    assert game.state.depth == 1
    assert player_xy(game) == first.down_stairs
    assert dose_positions(game) == doses_before
    assert (first.explored | explored_before).sum() == first.explored.sum()
    walk_onto(game, first.down_stairs)
    assert dose_positions(game) == second_doses
    assert game.player_component(Record).deepest_floor == 2


def test_there_is_no_way_up_from_floor_one() -> None:
    game = Game.new(9, "Top")
    assert not (game.state.floor.tiles == Tile.STAIRS_UP).any()


def test_snapshot_round_trip_keeps_every_floor() -> None:
    game = Game.new(5, "Saver")
    game.state.floor.tiles[game.state.floor.tiles == Tile.DOOR_CLOSED] = Tile.DOOR_OPEN
    walk_onto(game, game.state.floor.down_stairs)
    restored = from_plain(to_plain(game))
    assert to_plain(restored) == to_plain(game)
    for depth in (1, 2):
        assert np.array_equal(restored.state.floors[depth].tiles, game.state.floors[depth].tiles)
    assert np.array_equal(restored.view.visible, game.view.visible)


def test_fast_snapshot_bytes_equal_the_plain_encoding_across_floors() -> None:
    from roguelike.bots.headless import play_bot
    from roguelike.core.session import Session
    from roguelike.core.snapshot import encode, snapshot_bytes

    # The first of a few seeds whose bot gets past floor 1 (which seeds do changes with the rules).
    for seed in range(1, 6):
        session = Session(Game.new(seed, "Cache"))
        for turns in range(50, 700, 50):
            play_bot(session, turns)
            assert snapshot_bytes(session.game) == encode(to_plain(session.game))
        if len(session.game.state.floors) > 1:
            break
    assert len(session.game.state.floors) > 1  # the cache of floors left behind was used


def test_a_floor_returned_to_is_encoded_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    from roguelike.core.snapshot import encode, snapshot_bytes

    monkeypatch.setattr(roguelike.core.mapgen, "place_monsters", lambda *args: [])
    game = Game.new(5, "Return")
    game.state.floor.tiles[game.state.floor.tiles == Tile.DOOR_CLOSED] = Tile.DOOR_OPEN
    first = game.state.floor
    walk_onto(game, first.down_stairs)
    snapshot_bytes(game)  # floor 1 is encoded and kept while the player is below
    up = game.state.floor.up_stairs
    assert up is not None  # floor 2 has stairs up
    walk_onto(game, up)
    first.explored[:] = True  # floor 1 changes while the player is on it (as sight does)
    walk_onto(game, first.down_stairs)  # ...and is left behind again
    assert snapshot_bytes(game) == encode(to_plain(game))


def test_a_rebuilt_game_shares_no_state_with_its_original() -> None:
    import dataclasses

    from roguelike.bots.headless import play_bot
    from roguelike.core.session import Session

    session = Session(Game.new(1, "Twin"))
    play_bot(session, 60)
    copy = from_plain(to_plain(session.game))
    session.game.activate()
    kept: tuple[object, ...] = esper.components_for_entity(session.game.state.player)
    originals = {type(c): c for c in kept}
    copy.activate()
    rebuilt: tuple[object, ...] = esper.components_for_entity(copy.state.player)
    shared_kinds: list[str] = []
    for component in rebuilt:
        assert dataclasses.is_dataclass(component)
        for field in dataclasses.fields(component):
            value = getattr(component, field.name)
            if isinstance(value, (list, dict)):
                shared_kinds.append(field.name)
                assert value is not getattr(originals[type(component)], field.name), field.name
    assert shared_kinds  # the bestiary's counts are dicts: there was something to share
