"""While Desperation is near, the panel and the condition readout name the dose its takeover
would take, and warn when that dose could kill; the Rules page says what Desperation does."""

from __future__ import annotations

from components import Attributes, Dose, StateOfMind
from helpers import drawn_game
from roguelike.assist.craving import craving
from roguelike.assist.readout import condition
from roguelike.content import formulas
from roguelike.content.doses import EXTRA_LARGE_DOSE, LARGE_DOSE, SMALL_DOSE
from roguelike.core.game import Game
from roguelike.render.colours import CLASSIC
from roguelike.render.panel import message_lines
from roguelike.screens import helptext

ROOM = ["##########", "#@......i#", "##########"]


def game_with(kind_key: str, strength: int, state_of_mind: int) -> Game:
    """The player six steps from one dose, at a State of Mind."""
    game = drawn_game(ROOM, Dose(kind_key, strength, 0, 0, 0))
    game.player_component(StateOfMind).value = state_of_mind
    return game


def panel_text(game: Game) -> str:
    """The message area's lines as one text."""
    return " ".join(text for text, _ in message_lines(game, 4, CLASSIC))


def test_near_desperation_a_dose_that_could_kill_is_named_with_its_risk() -> None:
    line = formulas.desperation_threshold(formulas.ATTRIBUTE_START)
    game = game_with(EXTRA_LARGE_DOSE.key, 80, line + 5)  # +72..+96 at 20: it could pass 100
    found = craving(game)
    assert found is not None and found.kind is EXTRA_LARGE_DOSE and found.steps == 7
    assert found.odds.could_kill
    warning = f"Desperation would take the extra-large dose 7 steps off; {found.odds.risk.value}."
    assert warning in panel_text(game) and warning in condition(game)


def test_no_warning_for_a_safe_dose_or_far_from_desperation() -> None:
    line = formulas.desperation_threshold(formulas.ATTRIBUTE_START)
    safe = game_with(SMALL_DOSE.key, 30, line + 5)
    found = craving(safe)
    assert found is not None and found.warning() is None
    assert "Craving" not in panel_text(safe)
    far = game_with(LARGE_DOSE.key, 60, line + formulas.CRAVING_WARNING_MARGIN + 1)
    assert craving(far) is None and "Craving" not in condition(far)


def test_the_warning_follows_will_and_the_desperation_line() -> None:
    game = game_with(LARGE_DOSE.key, 60, 14)
    game.player_component(Attributes).will = 10  # the line falls to 10: 14 is within the margin
    assert craving(game) is not None
    game.player_component(StateOfMind).value = 10 + formulas.CRAVING_WARNING_MARGIN + 1
    assert craving(game) is None


def test_the_rules_page_says_desperation_takes_any_dose_and_the_panel_warns() -> None:
    rules = " ".join(text for _, text in helptext.RULES)
    assert "nearest known dose, even lethal" in rules
    assert "Desperate carrying: the weakest carried dose." in rules  # a carried dose is taken first
