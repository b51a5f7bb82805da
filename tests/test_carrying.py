"""Carried doses: picking up, taking later, what the craving and a weak Will do with them, and
Anxiety's hit shaking one loose (roguelike/core/carrying.py, docs/balance.md "Carried doses")."""

from __future__ import annotations

import esper
from hypothesis import given, settings
from hypothesis import strategies as st

from bestiary_helpers import add_monster, arena, set_player
from components import Attributes, Carried, Dose, Position, Record, StateOfMind, Tolerance
from helpers import dose_positions, drawn_game, player_xy
from roguelike.assist.craving import craving
from roguelike.content import formulas
from roguelike.content.doses import DOSE_KINDS, NORMAL_DOSE, SMALL_DOSE, dose_odds
from roguelike.core.carrying import carried_doses, put_in, true_odds, weakest
from roguelike.core.commands import Move, PickUp, TakeCarried, Wait, decode_command, encode_command
from roguelike.core.game import Game
from roguelike.core.snapshot import from_plain, to_plain


def carried(game: Game) -> list[Dose]:
    return carried_doses(game.player_component(Carried))


def test_walking_into_a_dose_still_takes_it() -> None:
    game = drawn_game(["@i."], dose=Dose(SMALL_DOSE.key, 30, 0, 0, 0))
    game.apply(Move(1, 0))
    assert game.player_component(Record).doses_used == 1 and carried(game) == []


def test_picking_up_carries_the_dose_as_it_was_found_and_takes_a_turn() -> None:
    game = drawn_game(["@i."], dose=Dose(SMALL_DOSE.key, 47, 1, 0, -1, floor=4))
    som, turn = game.player_component(StateOfMind).value, game.state.turn
    game.apply(PickUp(1, 0))
    assert carried(game) == [Dose(SMALL_DOSE.key, 47, 1, 0, -1, floor=4)]
    assert dose_positions(game) == [] and player_xy(game) == (0, 0)
    assert game.state.turn == turn + 1 and game.player_component(StateOfMind).value == som - 1
    assert game.player_component(Record).doses_used == 0
    assert "You pick up the small dose (from floor 4): 1 of 3 carried." in game.state.messages[-1].text


def test_picking_up_nothing_takes_no_time() -> None:
    game = drawn_game(["@.i"])
    game.apply(PickUp(1, 0))
    assert game.state.turn == 0 and carried(game) == []
    assert game.state.messages[-1].text == "There is no dose there to pick up."


def test_no_more_than_the_limit_is_carried() -> None:
    game = drawn_game(["@i."])
    for _ in range(formulas.CARRY_LIMIT):
        put_in(game.player_component(Carried), Dose(SMALL_DOSE.key, 30, 0, 0, 0))
    game.apply(PickUp(1, 0))
    assert len(carried(game)) == formulas.CARRY_LIMIT and dose_positions(game) == [(1, 0)]
    assert game.state.turn == 0


def test_taking_a_carried_dose_gives_its_strength_less_tolerance_and_uses_the_action() -> None:
    game = drawn_game(["@.."])
    put_in(game.player_component(Carried), Dose(NORMAL_DOSE.key, 60, 0, 0, 2, floor=5))
    put_in(game.player_component(Carried), Dose(SMALL_DOSE.key, 30, 0, 0, 0))
    som, tolerance = game.player_component(StateOfMind).value, game.player_component(Tolerance).value
    will = game.player_component(Attributes).will
    game.apply(TakeCarried(0))
    assert game.player_component(StateOfMind).value == som + 60 - tolerance - formulas.STATE_OF_MIND_DECAY
    assert game.player_component(Attributes).will == formulas.clamp_attribute(will + 2)
    assert carried(game) == [Dose(SMALL_DOSE.key, 30, 0, 0, 0)] and game.state.turn == 1
    assert game.player_component(Record).doses_used == 1
    assert game.state.messages[-1].text.startswith("You take the carried dose: +")


def test_the_weakest_is_judged_at_the_floor_each_dose_was_found_on() -> None:
    game = drawn_game(["@.."])
    bag = game.player_component(Carried)
    put_in(bag, Dose(SMALL_DOSE.key, 50, 0, 0, 0, floor=9))  # 46..62 where it was found (3 a floor)
    put_in(bag, Dose(NORMAL_DOSE.key, 40, 0, 0, 0, floor=1))  # 36..56
    put_in(bag, Dose(NORMAL_DOSE.key, 41, 0, 0, 0, floor=1))  # the same range, carried later
    assert weakest(bag) == 1


def test_desperation_takes_the_weakest_carried_dose_before_walking_to_one() -> None:
    game = drawn_game(["@....i"])
    put_in(game.player_component(Carried), Dose(NORMAL_DOSE.key, 50, 0, 0, 0, floor=2))
    put_in(game.player_component(Carried), Dose(SMALL_DOSE.key, 30, 0, 0, 0))
    set_player(game, state_of_mind=5)
    game.refresh_visible()
    steering = game.steering()
    assert steering is not None and steering.key == "desperate_carrying"
    tolerance = game.player_component(Tolerance).value
    game.apply(Move(1, 0))  # the player's own step is not taken
    assert player_xy(game) == (0, 0)
    assert carried(game) == [Dose(NORMAL_DOSE.key, 50, 0, 0, 0, floor=2)]
    assert game.player_component(StateOfMind).value == 5 + 30 - tolerance - formulas.STATE_OF_MIND_DECAY


def test_desperation_with_nothing_carried_still_walks_to_the_nearest_known_dose() -> None:
    game = drawn_game(["@....i"])
    set_player(game, state_of_mind=5)
    game.refresh_visible()
    steering = game.steering()
    assert steering is not None and steering.key == "desperate"
    game.apply(Wait())
    assert player_xy(game) == (1, 0)


def test_the_craving_warns_of_the_carried_dose_it_would_take() -> None:
    game = drawn_game(["@....i"])
    put_in(game.player_component(Carried), Dose(SMALL_DOSE.key, 30, 0, 0, 0, floor=30))
    set_player(game, state_of_mind=formulas.desperation_threshold(game.player_component(Attributes).will))
    found = craving(game)
    assert found is not None and found.carried and found.steps == 0
    warning = found.warning()
    assert warning is not None and "your carried small dose" in warning


def test_a_will_at_its_weakest_in_withdrawal_takes_a_carried_dose() -> None:
    game = drawn_game(["@.."])
    put_in(game.player_component(Carried), Dose(SMALL_DOSE.key, 30, 0, 0, 0))
    set_player(game, state_of_mind=formulas.WITHDRAWAL_BELOW - 1, will=formulas.POCKET_PULL_WILL)
    game.refresh_visible()
    steering = game.steering()
    assert steering is not None and steering.key == "pocket_pull"
    game.apply(Wait())
    assert carried(game) == [] and game.player_component(Record).doses_used == 1


def test_a_stronger_will_or_a_sober_mind_keeps_its_carried_dose() -> None:
    for will, som in ((formulas.POCKET_PULL_WILL + 1, 30), (formulas.POCKET_PULL_WILL, formulas.WITHDRAWAL_BELOW)):
        game = drawn_game(["@.."])
        put_in(game.player_component(Carried), Dose(SMALL_DOSE.key, 30, 0, 0, 0))
        set_player(game, state_of_mind=som, will=will)
        game.refresh_visible()
        game.apply(Wait())
        assert len(carried(game)) == 1, (will, som)


def test_a_takeover_drops_the_players_own_pick_up() -> None:
    game = drawn_game(["@i.."])
    set_player(game, state_of_mind=5)
    game.refresh_visible()
    game.apply(PickUp(1, 0))  # Desperate: the dose is taken, not carried
    assert carried(game) == [] and game.player_component(Record).doses_used == 1


def test_an_anxietys_hit_drops_the_newest_carried_dose_beside_the_player_away_from_it() -> None:
    game = arena()
    put_in(game.player_component(Carried), Dose(SMALL_DOSE.key, 30, 0, 0, 0))
    put_in(game.player_component(Carried), Dose(NORMAL_DOSE.key, 55, 1, 1, 1, floor=3))
    x, y = player_xy(game)
    anxiety = add_monster(game, "anxiety", x + 1, y, hunting=True)
    game.apply(Wait())
    assert carried(game) == [Dose(SMALL_DOSE.key, 30, 0, 0, 0)]
    game.activate()
    [(entity, (pos, dose))] = esper.get_components(Position, Dose)
    assert dose == Dose(NORMAL_DOSE.key, 55, 1, 1, 1, floor=3)
    assert (pos.x, pos.y) in ((x - 1, y - 1), (x - 1, y), (x - 1, y + 1))  # the side away from the Anxiety
    assert any("falls to the floor" in message.text for message in game.state.messages)
    esper.delete_entity(anxiety, immediate=True)  # it would hit, and shake one loose, again
    game.apply(PickUp(pos.x - x, pos.y - y))
    assert carried(game) == [Dose(SMALL_DOSE.key, 30, 0, 0, 0), Dose(NORMAL_DOSE.key, 55, 1, 1, 1, floor=3)]


def test_other_hits_drop_nothing() -> None:
    game = arena()
    put_in(game.player_component(Carried), Dose(SMALL_DOSE.key, 30, 0, 0, 0))
    x, y = player_xy(game)
    add_monster(game, "hunger", x + 1, y, hunting=True)
    game.apply(Wait())
    assert len(carried(game)) == 1


def test_carried_doses_survive_a_save_and_a_floor_change() -> None:
    game = drawn_game(["@i>"], dose=Dose(SMALL_DOSE.key, 33, 0, 1, 0))
    game.apply(PickUp(1, 0))
    loaded = from_plain(to_plain(game))
    assert carried(loaded) == [Dose(SMALL_DOSE.key, 33, 0, 1, 0)]


def test_new_commands_round_trip_through_their_replay_form() -> None:
    for command in (PickUp(-1, 1), TakeCarried(2)):
        assert decode_command(encode_command(command)) == command


@settings(max_examples=60, deadline=None)
@given(
    found_on=st.integers(1, 30),
    taken_on=st.integers(1, 30),
    strength_draw=st.integers(0, 100),
    pure=st.booleans(),
    tolerance=st.integers(0, 80),
    state_of_mind=st.integers(1, 100),
    kind=st.sampled_from(sorted(DOSE_KINDS)),
)
def test_a_carried_doses_panel_range_holds_what_it_gives_wherever_it_is_taken(
    found_on: int,
    taken_on: int,
    strength_draw: int,
    pure: bool,
    tolerance: int,
    state_of_mind: int,
    kind: str,
) -> None:
    low, high = DOSE_KINDS[kind].strength
    strength = low + strength_draw * (high - low) // 100 + formulas.dose_strength_bonus(found_on)
    dose = Dose(kind, strength + (formulas.purer_batch_extra(found_on) if pure else 0), 0, 0, 0, floor=found_on)
    odds = true_odds(dose, state_of_mind, tolerance)  # what the panel shows, wherever the player is now
    gives = formulas.dose_gain(dose.strength, tolerance)
    assert odds.low <= gives <= (odds.purest if pure else odds.high)
    if formulas.is_overdose(state_of_mind + gives):
        assert odds.could_kill
    del taken_on  # the floor it is taken on changes nothing: the truth is the found floor's


def test_a_dropped_dose_is_shown_at_the_figures_of_the_floor_it_was_found_on() -> None:
    from roguelike.assist.readout import shown_odds

    game = arena()
    put_in(game.player_component(Carried), Dose(NORMAL_DOSE.key, 70, 0, 0, 0, floor=6))
    x, y = player_xy(game)
    add_monster(game, "anxiety", x + 1, y, hunting=True)
    game.apply(Wait())
    [(_, _, dropped)] = game.doses()
    som, tolerance = game.player_component(StateOfMind).value, game.player_component(Tolerance).value
    assert game.state.depth == 1 and shown_odds(game, dropped.kind, dropped.floor) == dose_odds(
        NORMAL_DOSE, 6, som, tolerance
    )
