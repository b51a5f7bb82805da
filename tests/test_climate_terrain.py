"""The climates' terrains play their rules for everyone: water slows and hides, ice slides, sand exposes."""

from __future__ import annotations

import esper

from bestiary_helpers import add_monster, arena, set_player, where
from components import Monster
from components.monsters import NO_TARGET
from helpers import player_xy
from roguelike.content import formulas
from roguelike.content.terrain import TERRAIN, Tile
from roguelike.core.commands import Move, Wait
from roguelike.core.game import Game

SOBER = 60


def moved(game: Game, dx: int, dy: int = 0) -> int:
    """Step the player; how many turns the step took."""
    before = game.state.turn
    game.apply(Move(dx, dy))
    return game.state.turn - before


def target_of(game: Game, monster: int) -> int:
    """Whom a monster hunts (NO_TARGET: nobody)."""
    game.activate()
    return esper.component_for_entity(monster, Monster).target


def test_a_step_into_shallow_water_costs_its_turns_more_and_the_world_moves_on_meanwhile() -> None:
    game = arena(["##########", '#@.".....#', "##########"])
    hunter = add_monster(game, "hunger", 8, 1, hunting=True)
    game.activate()
    esper.component_for_entity(hunter, Monster).acts_from = 0
    assert moved(game, 1) == 1  # onto plain floor: one turn
    assert where(game, hunter) == (7, 1)
    assert moved(game, 1) == 1 + formulas.WATER_WADE == 1 + TERRAIN[Tile.SHALLOW_WATER].wade
    assert player_xy(game) == (3, 1)
    assert where(game, hunter) == (7 - 1 - formulas.WATER_WADE, 1)  # a step a turn while the player waded


def test_a_step_into_water_ends_a_turn_of_two_actions_at_once() -> None:
    game = arena(["#######", '#@"...#', "#######"])
    set_player(game, will=formulas.WILL_FOR_EXTRA_ACTION)
    game.apply(Wait())  # the refill comes at the turn's end
    game.apply(Wait())
    assert moved(game, 1) == 1 + formulas.WATER_WADE


def test_a_monster_wading_in_holds_still_the_turns_it_costs() -> None:
    game = arena(["###########", '#@......".#', "###########"])
    hunter = add_monster(game, "hunger", 9, 1, hunting=True)
    game.activate()
    esper.component_for_entity(hunter, Monster).acts_from = 0
    path = []
    for _ in range(2 + formulas.WATER_WADE):
        game.apply(Wait())
        path.append(where(game, hunter))
    assert path == [(8, 1)] * (1 + formulas.WATER_WADE) + [(7, 1)]


def test_a_slide_on_ice_ends_on_the_first_tile_past_the_ice() -> None:
    game = arena(["##########", "#@____..>#", "##########"])
    assert moved(game, 1) == 1
    assert player_xy(game) == (6, 1)


def test_a_slide_stops_against_a_wall_on_the_ice_and_before_a_monster() -> None:
    walled = arena(["#######", "#@____#", "#######"])
    walled.apply(Move(1, 0))
    assert player_xy(walled) == (5, 1)
    blocked = arena(["#########", "#@____..#", "#########"])
    add_monster(blocked, "hunger", 5, 1)
    blocked.apply(Move(1, 0))
    assert player_xy(blocked) == (4, 1)


def test_monsters_slide_as_the_player_does() -> None:
    game = arena(["###########", "#@.____...#", "###########"])
    hunter = add_monster(game, "hunger", 8, 1, hunting=True)
    game.activate()
    esper.component_for_entity(hunter, Monster).acts_from = 0
    game.apply(Wait())
    assert where(game, hunter) == (7, 1)
    game.apply(Wait())
    assert where(game, hunter) == (2, 1)  # onto the ice going west, off it at the first floor tile


def notice_reach(notice: int) -> int:
    """How near a Sober player on plain floor is noticed by a monster of this keenness."""
    return formulas.live_notice(notice, SOBER)


def noticed_from(ground: str, distance: int, notice: int) -> bool:
    """Whether a monster ``distance`` tiles away notices a Sober player standing on ``ground``, after a wait."""
    row = "#@" + "." * (distance - 1) + ".#"
    game = arena(["#" * len(row), row, "#" * len(row)])
    game.state.floor.tiles[1, 1] = next(tile for tile, terrain in TERRAIN.items() if terrain.glyph == ground)
    monster = add_monster(game, "hunger", 1 + distance, 1, notice=notice)
    game.apply(Wait())
    return target_of(game, monster) != NO_TARGET


def test_open_sand_lets_monsters_notice_the_player_from_farther() -> None:
    notice = 3
    far = notice_reach(notice) + formulas.SAND_EXPOSES
    assert far <= formulas.SIGHT_SOBER  # seen, so noticing is only a matter of range
    assert noticed_from(TERRAIN[Tile.SAND].glyph, far, notice)
    assert not noticed_from(TERRAIN[Tile.FLOOR].glyph, far, notice)
    assert not noticed_from(TERRAIN[Tile.SAND].glyph, far + 1, notice)


def test_shallow_water_hides_the_player_from_all_but_the_near() -> None:
    notice = 8
    near, beyond = formulas.WATER_COVER, formulas.WATER_COVER + 1
    assert notice_reach(notice) > beyond
    assert noticed_from(TERRAIN[Tile.FLOOR].glyph, beyond, notice)
    assert not noticed_from(TERRAIN[Tile.SHALLOW_WATER].glyph, beyond, notice)
    assert noticed_from(TERRAIN[Tile.SHALLOW_WATER].glyph, near, notice)


def test_deep_water_stops_every_step_but_not_sight() -> None:
    game = arena(["#######", "#@%%..#", "#######"])
    assert moved(game, 1) == 0 and player_xy(game) == (1, 1)
    assert game.view.visible[1, 4]
