"""Doubt, Shame and Sorrow: each hit does what its row says, its condition holds and ends, and the
counterplay the Help's Bestiary teaches works."""

from __future__ import annotations

import esper
import pytest

from bestiary_helpers import add_monster, arena, chebyshev, exists, messages, set_player, where
from components import Attributes, Carried, Dose, Monster, StateOfMind
from components.monsters import NO_TARGET, Ashamed, Doubting
from helpers import add_dose, player_xy
from roguelike.bots.tactics import threats_in_sight
from roguelike.content import formulas
from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.content.conditions import ASHAMED, CONDITIONS, DOUBTING
from roguelike.content.doses import NORMAL_DOSE, SMALL_DOSE
from roguelike.core.carrying import put_in
from roguelike.core.commands import Move, PickUp, TakeCarried, Wait
from roguelike.core.game import Game
from roguelike.screens.help import Known, pages
from roguelike.screens.helplayout import line_text

PLAYER = (8, 4)
FEARS = ("doubt", "shame", "sorrow")


def struck_by(kind: str) -> tuple[Game, int]:
    """An arena game in which a hunting monster of ``kind`` beside the player has just struck."""
    game = arena()
    monster = add_monster(game, kind, 9, 4, hunting=True)
    if game.state.turn % MONSTER_KINDS[kind].acts_every:
        game.apply(Move(-1, 0))  # step off on the slow kind's idle turn, then let it come and strike
        game.apply(Wait())
    game.apply(Wait())
    return game, monster


def wait_until_turn_divides(game: Game, every: int, remainder: int = 0) -> None:
    """Wait until the turn about to be played is ``remainder`` past a multiple of ``every``."""
    while game.state.turn % every != remainder:
        game.apply(Wait())


# --- Doubt ---------------------------------------------------------------------------------


def test_doubt_leaves_the_player_doubting_and_costs_confidence() -> None:
    game, doubt = struck_by("doubt")
    turns = formulas.status_turns(formulas.DOUBT_TURNS, formulas.ATTRIBUTE_START)
    assert game.player_component(Doubting).turns == turns
    assert game.player_component(Attributes).confidence == formulas.ATTRIBUTE_START - formulas.DOUBT_CONFIDENCE_DRAIN
    assert exists(game, doubt)  # it stays
    assert game.steering() is DOUBTING and game.control_reason() == DOUBTING.reason
    assert any(text.startswith("Doubt creeps in") for text in messages(game))


def doubting_game(seed: int) -> Game:
    game = arena(seed=seed)
    game.activate()
    esper.add_component(game.state.player, Doubting(formulas.DOUBT_TURNS))
    game.refresh_visible()
    return game


def test_doubting_some_walking_steps_falter_and_each_says_so() -> None:
    faltered = walked = 0
    for seed in range(1, 13):
        game = doubting_game(seed)
        before = player_xy(game)
        game.apply(Move(0, 1))
        if player_xy(game) == before:
            faltered += 1
            assert messages(game)[-1] == DOUBTING.notice
            assert game.state.turn == 1  # a faltering step is an action all the same
        else:
            walked += 1
    assert faltered and walked  # a share, not all and not none


def test_doubting_a_strike_never_falters() -> None:
    for seed in range(1, 13):
        game = doubting_game(seed)
        regret = add_monster(game, "regret", 9, 4)
        game.apply(Move(1, 0))
        assert not exists(game, regret)


def test_doubt_wears_off_and_the_steps_are_the_player_s_again() -> None:
    game = doubting_game(1)
    for _ in range(formulas.DOUBT_TURNS):
        game.apply(Wait())
    assert game.player_component_or_none(Doubting) is None and game.steering() is None
    assert DOUBTING.timed is not None and DOUBTING.timed.ends in messages(game)


# --- Shame ---------------------------------------------------------------------------------


def test_shame_leaves_the_player_ashamed_and_stays() -> None:
    game, shame = struck_by("shame")
    assert game.player_component(Ashamed).turns == formulas.status_turns(formulas.SHAME_TURNS, formulas.ATTRIBUTE_START)
    assert exists(game, shame)
    assert game.steering() is ASHAMED and game.control_reason() == ASHAMED.reason


def ashamed_game() -> Game:
    game = arena()
    set_player(game, state_of_mind=40)
    game.activate()
    esper.add_component(game.state.player, Ashamed(3))
    add_dose(9, 4, Dose(NORMAL_DOSE.key, 30, 0, 0, 0))
    game.refresh_visible()
    return game


def test_ashamed_a_dose_walked_into_is_not_taken_then_it_is_once_shame_ends() -> None:
    game = ashamed_game()
    game.apply(Move(1, 0))
    assert len(game.doses()) == 1 and player_xy(game) == PLAYER
    assert game.player_component(StateOfMind).value == 40 - formulas.STATE_OF_MIND_DECAY
    assert messages(game)[-1] == ASHAMED.notice
    game.apply(Wait())
    game.apply(Wait())
    assert game.steering() is None
    game.apply(Move(1, 0))
    assert game.doses() == [] and game.player_component(StateOfMind).value > 40


def test_ashamed_no_dose_is_picked_up_or_taken_from_the_pocket() -> None:
    game = ashamed_game()
    game.apply(PickUp(1, 0))
    assert len(game.doses()) == 1 and game.player_component(Carried).kinds == []
    put_in(game.player_component(Carried), Dose(SMALL_DOSE.key, 30, 0, 0, 0))
    game.apply(TakeCarried(0))
    assert len(game.player_component(Carried).kinds) == 1
    assert game.player_component(StateOfMind).value == 40 - 2 * formulas.STATE_OF_MIND_DECAY


def test_the_craving_beats_shame() -> None:
    game = ashamed_game()
    set_player(game, state_of_mind=3)
    game.refresh_visible()
    assert game.steering() is CONDITIONS["desperate"]
    game.apply(Wait())
    assert game.doses() == []  # Desperation walked into the dose and took it


def test_shame_lies_in_wait_and_notices_only_close_by() -> None:
    game = arena()
    set_player(game, state_of_mind=30)  # low: every other monster would notice from far
    shame = add_monster(game, "shame", 11, 4, notice=8)
    for _ in range(6):
        game.apply(Wait())
    assert where(game, shame) == (11, 4)  # it never wanders
    assert esper.component_for_entity(shame, Monster).target == NO_TARGET
    game.apply(Move(1, 0))  # two steps off now
    assert esper.component_for_entity(shame, Monster).target == game.state.player
    assert chebyshev(player_xy(game), where(game, shame)) == formulas.SHAME_NOTICE


def test_going_round_a_shame_at_a_distance_never_wakes_it() -> None:
    game = arena()
    set_player(game, state_of_mind=30)  # any other monster would notice from farther than three steps
    shame = add_monster(game, "shame", 8, 1, notice=8)
    for step in [(-1, 1)] * 3 + [(1, 0)] * 6:  # down and past it, six rows off
        game.apply(Move(*step))
    assert esper.component_for_entity(shame, Monster).target == NO_TARGET and where(game, shame) == (8, 1)


# --- Sorrow --------------------------------------------------------------------------------


def test_sorrow_drains_state_of_mind_and_will_and_does_not_vanish() -> None:
    game = arena()
    wait_until_turn_divides(game, formulas.SORROW_ACTS_EVERY)
    som = game.player_component(StateOfMind).value
    sorrow = add_monster(game, "sorrow", 9, 4, hunting=True)
    game.apply(Wait())
    assert game.player_component(StateOfMind).value == som - formulas.STATE_OF_MIND_DECAY - formulas.SORROW_DRAIN
    assert game.player_component(Attributes).will == formulas.ATTRIBUTE_START - formulas.SORROW_WILL_DRAIN
    assert exists(game, sorrow)


def test_sorrow_acts_one_turn_in_two_so_the_player_outruns_it() -> None:
    rows = ["#" * 40, "#" + "." * 38 + "#", "#...@" + "." * 34 + "#", "#" + "." * 38 + "#", "#" * 40]
    game = arena(rows)
    sorrow = add_monster(game, "sorrow", 1, 2, hunting=True)
    for _ in range(20):
        game.apply(Move(1, 0))
    assert chebyshev(player_xy(game), where(game, sorrow)) >= 3 + 20 - 20 // formulas.SORROW_ACTS_EVERY - 1
    assert game.player_component(Attributes).will == formulas.ATTRIBUTE_START  # never reached


def test_stepping_beside_a_sorrow_just_after_it_moved_lets_the_player_strike_first() -> None:
    game = arena()
    wait_until_turn_divides(game, formulas.SORROW_ACTS_EVERY, 1)  # the turn to come is one it idles
    sorrow = add_monster(game, "sorrow", 10, 4, hunting=True)
    game.apply(Move(1, 0))  # beside it, on its idle turn
    game.apply(Move(1, 0))  # and the strike comes first
    assert not exists(game, sorrow)
    assert game.player_component(Attributes).will == formulas.ATTRIBUTE_START


def test_sorrow_notices_from_afar_and_keeps_the_trail_long_after_it_loses_sight() -> None:
    rows = ["###############", "#.............#", "#.@...........#", "#.............#", "###############"]
    game = arena(rows)
    set_player(game, state_of_mind=95)  # High: the usual monster notices only close by
    sorrow = add_monster(game, "sorrow", 2 + formulas.SORROW_NOTICE, 2)
    game.apply(Wait())
    assert esper.component_for_entity(sorrow, Monster).target == game.state.player
    kind = MONSTER_KINDS["sorrow"]
    assert kind.memory > formulas.HUNT_MEMORY


# --- Tables: the bots, look and Help read the rows -------------------------------------------


@pytest.mark.parametrize("kind", FEARS)
def test_the_bots_weigh_each_fear_by_its_row_s_danger(kind: str) -> None:
    game = arena()
    add_monster(game, kind, 10, 4)
    (threat,) = threats_in_sight(game)
    assert threat.danger == MONSTER_KINDS[kind].hit.bot_danger
    status = MONSTER_KINDS[kind].hit.status
    timed = CONDITIONS[status].timed if status else None
    assert threat.danger == (timed.danger if timed else MONSTER_KINDS[kind].hit.danger)


def test_the_bestiary_page_says_each_fear_s_hit_and_counterplay() -> None:
    shown = " ".join(
        " ".join(line_text(row) for row in part.rows)
        for part in pages(Known(met=frozenset(MONSTER_KINDS)))
        if part.topic == "Bestiary"
    )
    words = " ".join(shown.split())
    for key in FEARS:
        kind = MONSTER_KINDS[key]
        assert kind.name in words
        for phrase in (kind.hit_summary, kind.moves):
            assert all(word in words for word in phrase.split())


def test_the_rules_page_names_doubt_and_shame() -> None:
    shown = " ".join(" ".join(line_text(row) for row in part.rows) for part in pages(Known()) if part.topic == "Rules")
    words = " ".join(shown.split())
    for condition in (DOUBTING, ASHAMED):
        assert f"{condition.title}:" in words
