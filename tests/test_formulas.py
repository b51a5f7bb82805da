"""The design document's formulas, starting with its worked example of a dose."""

from __future__ import annotations

import esper

from components import Attributes, Dose, Record, StateOfMind, Tolerance, UseDose
from helpers import drawn_game
from roguelike.content import formulas
from roguelike.core.ecs import run_system
from systems.doses import consume_dose


def test_worked_example_from_design_document() -> None:
    """Tolerance 5, SoM 20, all attributes 5, Dose(30, 5, 2, 2) -> 45, 10, 7, 7, tolerance 6."""
    game = drawn_game(["@i"], dose=Dose("dose", 30, 5, 2, 2))
    player = game.state.player
    game.player_component(Tolerance).value = 5
    game.player_component(StateOfMind).value = 20
    dose_entity = [e for e, _ in esper.get_component(Dose)][0]
    esper.add_component(player, UseDose(dose_entity))
    run_system(consume_dose, game.now())
    attrs = game.player_component(Attributes)
    assert game.player_component(StateOfMind).value == 45
    assert (attrs.confidence, attrs.nerve, attrs.will) == (10, 7, 7)
    assert game.player_component(Tolerance).value == 6
    assert game.player_component(Record).doses_used == 1
    assert not esper.entity_exists(dose_entity)


def test_tolerance_never_makes_a_dose_negative() -> None:
    assert formulas.dose_gain(10, 25) == 0
    assert formulas.dose_gain(30, 5) == 25


def test_attributes_are_kept_within_one_to_ten() -> None:
    game = drawn_game(["@i"], dose=Dose("dose", 10, 9, -9, 3))
    game.player_component(Attributes).will = 9
    dose_entity = [e for e, _ in esper.get_component(Dose)][0]
    esper.add_component(game.state.player, UseDose(dose_entity))
    run_system(consume_dose, game.now())
    attrs = game.player_component(Attributes)
    assert (attrs.confidence, attrs.nerve, attrs.will) == (10, 1, 10)


def test_desperation_threshold_follows_will() -> None:
    assert formulas.desperation_threshold(5) == 15
    assert formulas.is_desperate(15, 5) and not formulas.is_desperate(16, 5)
    assert formulas.is_desperate(19, 1) and not formulas.is_desperate(11, 10)


def test_mood_words_match_the_design_bands() -> None:
    words = {som: formulas.mood_word(som, 5) for som in (10, 15, 16, 49, 50, 60, 61, 100)}
    assert words == {
        10: "Desperate",
        15: "Desperate",
        16: "Withdrawal",
        49: "Withdrawal",
        50: "Sober",
        60: "Sober",
        61: "High",
        100: "High",
    }


def test_will_decides_irresistible_range_and_action_points() -> None:
    assert [formulas.irresistible_range(w) for w in (1, 2, 3, 10)] == [2, 1, 0, 0]
    assert formulas.action_points(10) == 2 and formulas.action_points(9) == 1


def test_palette_greys_and_darkens_as_state_of_mind_falls() -> None:
    low, sober, high = formulas.palette_for(5), formulas.palette_for(55), formulas.palette_for(95)
    assert low[0] < sober[0] < high[0]
    assert low[1] < sober[1] < high[1]
