"""The bestiary at work: each monster's hit, hunting, packs, wandering and turn order."""

from __future__ import annotations

import esper
import pytest

from bestiary_helpers import add_monster, arena, chebyshev, exists, messages, set_player, where
from components import Attributes, Confused, Monster, Panicked, StateOfMind, Stunned
from components.monsters import NO_TARGET
from helpers import player_xy
from roguelike.content import formulas
from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.core.commands import Move, Wait
from roguelike.core.ecs import run_system
from systems.monsters import MONSTERS_ACT, notice_player, plan_hunt

PLAYER = (8, 4)


def test_the_bestiary_has_every_kind_the_design_names_and_one_that_confuses() -> None:
    glyphs = {kind.name: kind.glyph for kind in MONSTER_KINDS.values()}
    named = {"Depression": "D", "Hunger": "h", "Anxiety": "a", "Voices": "v", "Shadows": "S", "Regret": "r"}
    assert glyphs.items() >= named.items()  # a kind added later keeps these
    assert {kind.hit.key for kind in MONSTER_KINDS.values()} >= {
        "killed",
        "drained",
        "weakened",
        "stunned",
        "panicked",
        "confused",
    }


def test_depression_kills_with_one_hit() -> None:
    game = arena()
    add_monster(game, "depression", 9, 4, hunting=True)
    game.apply(Wait())
    assert game.state.cause_of_death == "depression"
    assert "Depression swallows you whole." in messages(game)


def test_hunger_drains_the_state_of_mind_and_stays() -> None:
    game = arena()
    hunger = add_monster(game, "hunger", 9, 4, hunting=True)
    game.apply(Wait())
    expected = 60 - formulas.STATE_OF_MIND_DECAY - formulas.HUNGER_DRAIN
    assert game.player_component(StateOfMind).value == expected
    assert exists(game, hunger) and not game.state.game_over
    assert f"A Hunger gnaws at you: -{formulas.HUNGER_DRAIN} State of Mind." in messages(game)


def test_anxiety_drains_one_will() -> None:
    game = arena()
    add_monster(game, "anxiety", 9, 4, hunting=True)
    game.apply(Wait())
    assert game.player_component(Attributes).will == formulas.ATTRIBUTE_START - 1
    assert "An Anxiety grips you: -1 Will." in messages(game)


def test_anxiety_cannot_drain_will_below_its_minimum() -> None:
    game = arena()
    set_player(game, will=formulas.ATTRIBUTE_MIN)
    add_monster(game, "anxiety", 9, 4, hunting=True)
    game.apply(Wait())
    assert game.player_component(Attributes).will == formulas.ATTRIBUTE_MIN


def test_voices_stun_and_disappear() -> None:
    game = arena()
    voices = add_monster(game, "voices", 9, 4, hunting=True)
    game.apply(Wait())
    assert game.player_component(Stunned).turns == formulas.status_turns(formulas.STUN_TURNS, 5)
    assert not exists(game, voices)


def test_shadows_panic_and_disappear() -> None:
    game = arena()
    shadows = add_monster(game, "shadows", 9, 4, hunting=True)
    game.apply(Wait())
    assert game.player_component(Panicked).turns == formulas.status_turns(formulas.PANIC_TURNS, 5)
    assert not exists(game, shadows)


def test_regret_confuses_and_stays() -> None:
    game = arena()
    regret = add_monster(game, "regret", 9, 4, hunting=True)
    game.apply(Wait())
    assert game.player_component(Confused).turns == formulas.status_turns(formulas.CONFUSION_TURNS, 5)
    assert exists(game, regret)


def test_a_monster_notices_the_player_only_near_enough_and_in_sight() -> None:
    game = arena()
    near = add_monster(game, "anxiety", 11, 4, notice=3)
    far = add_monster(game, "anxiety", 15, 4, notice=3)
    run_system(notice_player, game.now())
    game.activate()
    assert esper.component_for_entity(near, Monster).target == game.state.player
    assert esper.component_for_entity(far, Monster).target == NO_TARGET


def test_a_depression_that_notices_the_player_holds_still_that_turn_then_strikes() -> None:
    # Two steps away and not yet hunting: it could step and strike in one turn, but the turn it
    # notices the player it only notices (the player's warning); the next turn it kills.
    game = arena()
    depression = add_monster(game, "depression", 10, 4, notice=8)
    game.apply(Wait())
    assert esper.component_for_entity(depression, Monster).target == game.state.player
    assert where(game, depression) == (10, 4) and game.state.cause_of_death is None
    game.apply(Wait())
    assert game.state.cause_of_death == "depression"


def test_the_warning_turn_lets_the_player_strike_first() -> None:
    # Noticed beside the player, it holds still: the player's bump kills it before it can act.
    game = arena()
    depression = add_monster(game, "depression", 9, 4, notice=8)
    game.apply(Wait())
    assert game.state.cause_of_death is None
    game.apply(Move(1, 0))
    assert not exists(game, depression) and game.state.cause_of_death is None


def test_a_wall_hides_the_player_from_a_keen_monster() -> None:
    rows = ["#########", "#...#...#", "#.@.#...#", "#...#...#", "#########"]
    game = arena(rows)
    hidden = add_monster(game, "anxiety", 6, 2, notice=8)
    run_system(notice_player, game.now())
    assert esper.component_for_entity(hidden, Monster).target == NO_TARGET


def test_a_hunter_chases_around_a_wall_along_the_path() -> None:
    rows = [
        "###########",
        "#.........#",
        "#.#######.#",
        "#.#@......#",
        "#.#########",
        "###########",
    ]
    game = arena(rows)
    hunter = add_monster(game, "anxiety", 1, 4, hunting=True)
    for _ in range(4):
        game.apply(Wait())
    # Stepping straight at the player would leave it stuck at the wall; the path leads round.
    assert where(game, hunter)[1] <= 1


def test_a_hunter_gives_up_when_it_has_not_seen_the_player_for_a_while() -> None:
    rows = ["###########", "#...#.....#", "#.@.#.....#", "#...#.....#", "###########"]
    game = arena(rows)
    hunter = add_monster(game, "anxiety", 8, 2, hunting=True)
    monster = esper.component_for_entity(hunter, Monster)
    for _ in range(formulas.HUNT_MEMORY):
        game.apply(Wait())
    assert monster.target == game.state.player
    game.apply(Wait())
    assert monster.target == NO_TARGET


def test_a_hungry_one_calls_the_pack_and_they_surround_the_player() -> None:
    rows = [
        "#####################",
        "#.......#...........#",
        "#.......#...........#",
        "#...@...............#",
        "#.......#...........#",
        "#.......#...........#",
        "#####################",
    ]
    game = arena(rows)
    set_player(game, state_of_mind=95)
    scout = add_monster(game, "hunger", 7, 3, notice=4)
    pack = [add_monster(game, "hunger", x, y, notice=4) for x, y in ((14, 1), (15, 3), (14, 5))]
    game.apply(Wait())
    assert all(esper.component_for_entity(h, Monster).target == game.state.player for h in pack)
    assert "A Hunger howls. The pack answers." in messages(game)
    for _ in range(14):
        set_player(game, state_of_mind=95)
        game.apply(Wait())
    spots = {where(game, h) for h in [scout, *pack]}
    assert len(spots) == 4 and all(chebyshev(spot, player_xy(game)) == 1 for spot in spots)


def test_a_pack_in_single_file_fans_out_around_the_player() -> None:
    game = arena()
    set_player(game, state_of_mind=95)
    line = [add_monster(game, "hunger", x, 4, hunting=True) for x in (12, 13, 14, 15)]
    for _ in range(10):
        set_player(game, state_of_mind=95)
        game.apply(Wait())
    spots = {where(game, h) for h in line}
    assert len(spots) == 4 and all(chebyshev(spot, PLAYER) == 1 for spot in spots)


def test_an_idle_monster_wanders_at_random_within_open_tiles() -> None:
    rows = ["#######", "#.....#", "#.....#", "#.....#", "#######", "#@....#", "#######"]
    game = arena(rows)
    set_player(game, state_of_mind=95)
    roamer = add_monster(game, "anxiety", 3, 2, notice=0)
    seen = set()
    for _ in range(40):
        set_player(game, state_of_mind=95)
        game.apply(Wait())
        seen.add(where(game, roamer))
    assert len(seen) > 3
    assert all(game.state.floor.walkable()[y, x] for x, y in seen)


def test_depression_has_two_action_points_and_moves_two_tiles_a_turn() -> None:
    game = arena()
    depression = add_monster(game, "depression", 13, 4, hunting=True)
    game.apply(Wait())
    assert where(game, depression) == (11, 4)


def test_the_monster_with_the_lower_id_moves_first() -> None:
    # Both want the one tile between them and the player in a corridor; the first in id order gets it.
    rows = ["#########", "#@......#", "#########"]
    game = arena(rows)
    set_player(game, state_of_mind=95)
    first = add_monster(game, "anxiety", 3, 1, hunting=True)
    second = add_monster(game, "anxiety", 4, 1, hunting=True)
    now = game.now()
    run_system(plan_hunt, now)
    MONSTERS_ACT.run(now)
    assert where(game, first) == (2, 1) and where(game, second) == (3, 1)


@pytest.mark.parametrize("kind", sorted(MONSTER_KINDS))
def test_every_hit_message_fits_the_message_area(kind: str) -> None:
    text = MONSTER_KINDS[kind].hit_text.format(amount=99, turns=99, nerve=9, confidence=9)
    assert len(text) <= 48
    assert len(f"You slay the {MONSTER_KINDS[kind].name}.") <= 48
    assert len(f"A {MONSTER_KINDS[kind].name} howls. The pack answers.") <= 48
