"""The conditions table, walked row by row: every condition is whole wherever the game shows it.

A row added to :mod:`roguelike.content.conditions` without its component, its panel
name, its flash, its Help and Rules words, its disturbance or its bot reading fails here.
"""

from __future__ import annotations

from collections.abc import Callable

import esper
import numpy as np
import pytest

from bestiary_helpers import add_monster, arena, messages, set_player
from components import Carried, Dose
from components.monsters import Status
from components.registry import NAME_OF, SAVED_COMPONENTS
from helpers import add_dose
from roguelike.assist.disturb import Interrupt, disturbances, observe
from roguelike.bots.watch import Watch
from roguelike.content import formulas
from roguelike.content.bestiary import HIT_EFFECTS
from roguelike.content.conditions import CONDITIONS, Condition, Steer, Trigger
from roguelike.content.doses import NORMAL_DOSE, SMALL_DOSE
from roguelike.content.interrupts import Disturbance
from roguelike.core.carrying import put_in
from roguelike.core.commands import Wait
from roguelike.core.game import Game
from roguelike.core.steering import HOLDS, STATUS_OF, STEPS
from roguelike.render.colours import SCHEMES, Slot
from roguelike.render.effects import hit_colour
from roguelike.render.panel import effects_text, message_lines
from roguelike.screens import helptext

TIMED = [condition for condition in CONDITIONS.values() if condition.timed is not None]


def give_status(game: Game, condition: Condition) -> None:
    game.activate()
    esper.add_component(game.state.player, STATUS_OF[condition.key](3))


def make_desperate(game: Game, condition: Condition) -> None:
    set_player(game, state_of_mind=3)


def pull_weak_will(game: Game, condition: Condition) -> None:
    set_player(game, will=1)
    game.activate()
    add_dose(10, 4, Dose(NORMAL_DOSE.key, 30, 0, 0, 0))


def carry_a_dose(game: Game) -> None:
    put_in(game.player_component(Carried), Dose(SMALL_DOSE.key, 30, 0, 0, 0))


def carry_while_desperate(game: Game, condition: Condition) -> None:
    make_desperate(game, condition)
    carry_a_dose(game)


def carry_with_the_weakest_will(game: Game, condition: Condition) -> None:
    set_player(game, will=formulas.POCKET_PULL_WILL, state_of_mind=formulas.WITHDRAWAL_BELOW - 10)
    carry_a_dose(game)


def frighten(game: Game, condition: Condition) -> None:
    set_player(game, nerve=formulas.NERVE_PANIC_AT)
    add_monster(game, "anxiety", 12, 4)


# How a test makes each kind of condition hold: a new trigger needs its way here.
MAKE_HOLD: dict[Trigger, Callable[[Game, Condition], None]] = {
    Trigger.TIMED: give_status,
    Trigger.DESPERATION: make_desperate,
    Trigger.DESPERATION_CARRYING: carry_while_desperate,
    Trigger.POCKET: carry_with_the_weakest_will,
    Trigger.PULL: pull_weak_will,
    Trigger.FEAR: frighten,
}


def holding(condition: Condition) -> Game:
    """An arena game in which ``condition`` holds, and nothing stronger."""
    game = arena()
    MAKE_HOLD[condition.trigger](game, condition)
    game.refresh_visible()
    return game


def test_every_trigger_and_steer_has_its_behaviour_and_a_way_to_hold() -> None:
    assert set(HOLDS) == set(Trigger) == set(MAKE_HOLD)
    assert set(STEPS) == set(Steer)


def test_keys_reasons_and_titles_are_unique() -> None:
    for attribute in ("key", "reason", "title", "called"):
        values = [getattr(condition, attribute) for condition in CONDITIONS.values()]
        assert len(set(values)) == len(values), attribute


@pytest.mark.parametrize("condition", CONDITIONS.values(), ids=list(CONDITIONS))
def test_a_condition_steers_and_the_panel_says_why(condition: Condition) -> None:
    game = holding(condition)
    assert game.steering() is condition
    assert game.control_reason() == condition.reason
    assert message_lines(game, 4, SCHEMES[next(iter(SCHEMES))])[-1][0] == condition.reason


@pytest.mark.parametrize("condition", CONDITIONS.values(), ids=list(CONDITIONS))
def test_a_condition_taking_the_controls_disturbs_automation(condition: Condition) -> None:
    game = arena()
    before = observe(game)
    MAKE_HOLD[condition.trigger](game, condition)
    game.refresh_visible()
    found = disturbances(before, observe(game), game)
    assert Interrupt(Disturbance.CONTROL, condition.reason) in found
    if condition.timed is not None:
        assert Interrupt(Disturbance.EFFECT, f"The {condition.timed.noun} starts.") in found


@pytest.mark.parametrize("condition", CONDITIONS.values(), ids=list(CONDITIONS))
def test_the_bots_read_a_condition_under_its_key(condition: Condition) -> None:
    game = holding(condition)
    watch = Watch()
    watch.before(game)
    assert watch.takeovers == {condition.key: 1}


@pytest.mark.parametrize("condition", CONDITIONS.values(), ids=list(CONDITIONS))
def test_help_and_rules_name_every_condition(condition: Condition) -> None:
    assert condition.called in " ".join(helptext.CONTROLS_NOTE)
    assert f"{condition.title}: {condition.rules}." in dict(helptext.RULES)["Taken over"]
    assert condition.rules and condition.reason


@pytest.mark.parametrize("condition", TIMED, ids=[c.key for c in TIMED])
def test_a_timed_condition_has_a_registered_status_component(condition: Condition) -> None:
    assert condition.timed is not None
    component = SAVED_COMPONENTS[condition.timed.component]
    assert issubclass(component, Status)
    assert NAME_OF[component] == condition.timed.component


@pytest.mark.parametrize("condition", TIMED, ids=[c.key for c in TIMED])
def test_a_timed_condition_shows_on_the_panel_and_wears_off_with_its_words(condition: Condition) -> None:
    assert condition.timed is not None
    game = holding(condition)
    assert effects_text(game) == f"{condition.timed.name} 3"
    for _ in range(3):
        game.apply(Wait())
    assert effects_text(game) == ""
    assert condition.timed.ends in messages(game)


@pytest.mark.parametrize("condition", TIMED, ids=[c.key for c in TIMED])
def test_a_timed_condition_flashes_visibly_in_every_palette(condition: Condition) -> None:
    assert condition.timed is not None
    for scheme in SCHEMES.values():
        fg = np.array([[condition.timed.flash]], dtype=np.uint8)
        bg = np.array([[scheme[Slot.FLOOR_BG]]], dtype=np.uint8)
        scheme.finish(fg, bg)
        assert np.abs(fg.astype(int) - bg.astype(int)).max() >= 64, scheme.name


def test_every_hit_that_leaves_a_status_names_a_timed_condition_and_flashes_its_colour() -> None:
    for hit in HIT_EFFECTS.values():
        if hit.status is None:
            continue
        timed = CONDITIONS[hit.status].timed
        assert timed is not None, hit.key
        assert hit_colour(hit.key) == timed.flash
        assert hit.bot_danger == timed.danger
