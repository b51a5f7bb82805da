"""Finds: placed by map generation, there only for the High, taken by walking onto them."""

from __future__ import annotations

import esper
import numpy as np
import pytest

from bestiary_helpers import set_player
from components import Attributes, Find, FindsTaken, Tolerance, Vision
from finds_helpers import find_game
from helpers import player_xy
from roguelike.assist.readout import surroundings
from roguelike.bots.careful import CarefulBot, Walks
from roguelike.content import formulas
from roguelike.content.finds import FIND_KINDS
from roguelike.core.commands import Move, Wait
from roguelike.core.floor import GROUND, Tile
from roguelike.core.game import Game
from roguelike.core.world import ensure_floor
from roguelike.render.screenshot import game_console
from roguelike.screens.look import describe


def finds_of_floor(game: Game, depth: int) -> list[tuple[str, tuple[int, int]]]:
    """The finds map generation put on a floor: kind and spot, in the order placed."""
    floor = ensure_floor(game.state, depth)
    found = []
    for packed in floor.dormant:
        parts = dict(packed)
        if "find" in parts:
            assert "vision" in parts  # every find is a vision
            found.append((parts["find"][0], (parts["position"][0], parts["position"][1])))
    return found


def test_map_generation_places_finds_from_floor_2_on_the_same_for_the_same_seed() -> None:
    games = [Game.new(seed, "F") for seed in range(12)]
    assert all(finds_of_floor(game, 1) == [] for game in games)
    per_floor = [finds_of_floor(game, depth) for game in games for depth in range(2, 6)]
    counts = [len(found) for found in per_floor]
    assert min(counts) >= formulas.FINDS_PER_FLOOR[0] and max(counts) <= formulas.FINDS_PER_FLOOR[1]
    assert {kind for found in per_floor for kind, _ in found} == set(FIND_KINDS)
    again = [Game.new(seed, "F") for seed in range(12)]
    assert [[finds_of_floor(game, depth) for depth in (2, 3)] for game in again] == [
        [finds_of_floor(game, depth) for depth in (2, 3)] for game in games
    ]
    for game in games:
        floor = game.state.floors[3]
        for _, (x, y) in finds_of_floor(game, 3):
            assert GROUND[floor.tiles[y, x]] and (x, y) not in (floor.arrival, floor.down_stairs)


def test_not_high_a_find_is_not_there_for_sight_look_readout_or_feet() -> None:
    game, find = find_game(som=55)
    assert game.finds() == []
    assert chr(game_console(game).rgb["ch"][4, 9]) != "="
    assert "Clarity" not in " ".join(text for text, _ in describe(game, (9, 4)))
    assert "Finds" not in surroundings(game)
    game.apply(Move(1, 0))
    assert player_xy(game) == (9, 4) and esper.entity_exists(find)  # walked over: nothing taken
    assert game.player_component(FindsTaken).kinds == {}


def test_high_a_find_shows_in_its_own_steady_colour_and_is_described() -> None:
    game, _ = find_game(som=80)
    console = game_console(game)
    assert chr(console.rgb["ch"][4, 9]) == "="
    assert tuple(console.rgb["fg"][4, 9]) == FIND_KINDS["clarity"].colour
    assert tuple(game_console(game).rgb["fg"][4, 9]) == FIND_KINDS["clarity"].colour  # no shimmer: steady
    words = " ".join(text for text, _ in describe(game, (9, 4)))
    assert words.startswith("Clarity (=): Tolerance -3.") and "walk onto it to take it" in words
    assert "Finds in sight, only while High: Clarity (Tolerance -3) 1 east." in surroundings(game)


def test_walking_onto_a_clarity_while_high_lowers_tolerance_and_counts_it() -> None:
    game, find = find_game(som=80)
    game.player_component(Tolerance).value = 7
    game.apply(Move(1, 0))
    assert player_xy(game) == (9, 4) and not esper.entity_exists(find)
    assert game.player_component(Tolerance).value == 7 + formulas.CLARITY_TOLERANCE
    assert game.player_component(FindsTaken).kinds == {"clarity": 1}
    assert game.state.messages[-1].text == "A moment of Clarity: your Tolerance falls to 4."
    assert [cue.key for cue in game.action.cues if cue.kind == "find"] == ["clarity"]


def test_a_clarity_never_takes_tolerance_below_its_start() -> None:
    game, _ = find_game(som=80)
    game.player_component(Tolerance).value = 1
    game.apply(Move(1, 0))
    assert game.player_component(Tolerance).value == formulas.TOLERANCE_START


def test_a_calm_steadies_nerve_and_will_within_their_bounds() -> None:
    game, _ = find_game(som=80, kind="calm")
    set_player(game, nerve=3, will=10)
    game.apply(Move(1, 0))
    attrs = game.player_component(Attributes)
    assert (attrs.nerve, attrs.will) == (3 + formulas.CALM_NERVE, formulas.ATTRIBUTE_MAX)
    assert game.state.messages[-1].text == "A Calm settles on you: Nerve 5, Will 10."


def test_an_insight_shows_the_whole_floor_and_its_stairs() -> None:
    game, _ = find_game(som=80, kind="insight")
    floor = game.state.floor
    floor.tiles[4, 15] = Tile.STAIRS_DOWN  # far east of the room, out of sight behind nothing
    floor.explored[:] = False
    game.refresh_visible()
    floor.explored |= game.view.visible
    game.apply(Move(1, 0))
    open_tiles = floor.tiles != Tile.WALL
    assert floor.explored[open_tiles].all() and floor.explored[4, 15]
    assert not floor.explored[20, 79]  # rock far from any open tile stays unknown
    assert "Stairs down: 6 east." in surroundings(game)


@pytest.mark.parametrize("som", [55, 80])
def test_standing_on_a_find_takes_it_only_while_high(som: int) -> None:
    game, find = find_game(som=som, at=(8, 4))  # under the player's feet
    game.activate()
    assert esper.has_component(find, Vision) and esper.has_component(find, Find)
    game.apply(Wait())
    assert esper.entity_exists(find) is (som < formulas.HIGH_ABOVE)  # standing on it while High takes it


def test_the_careful_bot_walks_to_a_find_while_high() -> None:
    game, find = find_game(som=85, at=(12, 4))
    bot = CarefulBot()
    for _ in range(6):
        game.apply(bot.choose(game))
    assert not esper.entity_exists(find) and game.player_component(FindsTaken).kinds == {"clarity": 1}


def test_the_careful_bot_does_not_set_off_for_a_find_it_would_reach_sober() -> None:
    game, find = find_game(som=63, at=(14, 1))  # six steps: the High is gone on arrival
    mask = CarefulBot().finds_in_reach(game, _walks(game), 63, 1)
    assert not mask.any()
    mask = CarefulBot().finds_in_reach(game, _walks(game), 70, 1)
    assert mask[1, 14] and np.count_nonzero(mask) == 1


def _walks(game: Game) -> Walks:
    """The careful bot's step counter from where the player stands."""
    bot = CarefulBot()
    return Walks(bot.routes, bot.routes.terrain(game.state.floor), player_xy(game))


def test_a_find_coming_into_view_while_high_stops_automation_once() -> None:
    from roguelike.assist.disturb import Sightings, disturbances, observe

    game, _ = find_game(som=80, at=(14, 1))
    before = observe(game)
    before = type(before)(**{**before.__dict__, "doses": {}})  # as if it had just come into view
    seen = Sightings()
    found = disturbances(before, observe(game), game, seen=seen)
    assert [interrupt.text for interrupt in found] == ["You see a Clarity."]
    assert disturbances(before, observe(game), game, seen=seen) == []
