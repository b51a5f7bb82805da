"""What stops automation is a setting: kept in settings.json, changed on its page, obeyed at once."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import tcod.event
from tcod.event import KeySym, Modifier, Scancode

from bestiary_helpers import add_monster, set_player
from helpers import drawn_game
from roguelike import settings
from roguelike.content import formulas
from roguelike.content.interrupts import ALL_DISTURBANCES, Disturbance
from roguelike.core.session import Session
from roguelike.screens.base import App
from roguelike.screens.ingame import InGameScreen
from roguelike.screens.interrupts import InterruptsScreen
from roguelike.screens.rebind import RebindScreen
from roguelike.screens.settings import SettingsScreen
from roguelike.settings import Preferences
from roguelike.settings.document import from_document

CORRIDOR = [
    "########################################",
    "#@.....................................#",
    "########################################",
]


def key(sym: KeySym) -> tcod.event.KeyDown:
    return tcod.event.KeyDown(scancode=Scancode.UNKNOWN, sym=sym, mod=Modifier.NONE)


@pytest.fixture
def prefs(tmp_path: Path) -> Iterator[Preferences]:
    """The settings of a data directory of the test's own, in force; none afterwards."""
    chosen = Preferences.load(tmp_path)
    settings.use(chosen)
    yield chosen
    settings.use(Preferences(None))


def test_every_kind_stops_automation_until_the_player_turns_it_off(prefs: Preferences, tmp_path: Path) -> None:
    assert settings.current().interrupts == ALL_DISTURBANCES
    page = InterruptsScreen()
    page.on_event(key(KeySym.N1))  # "a monster comes into view"
    page.on_event(key(KeySym.DOWN))
    page.on_event(key(KeySym.SPACE))  # "a kind of monster never seen before"
    assert settings.current().interrupts == ALL_DISTURBANCES - {Disturbance.MONSTER, Disturbance.NEW_KIND}
    document = json.loads((tmp_path / "settings.json").read_text(encoding="utf-8"))
    assert document["interrupts"] == ["mood", "dose", "attribute", "effect", "message", "control", "floor"]
    assert Preferences.load(tmp_path).current.interrupts == settings.current().interrupts


def test_the_setting_is_obeyed_by_auto_explore(prefs: Preferences) -> None:
    # The Hunger's howl and first-sight notice are messages that matter, so those go off too.
    off = {Disturbance.MONSTER, Disturbance.NEW_KIND, Disturbance.MOOD, Disturbance.MESSAGE}
    prefs.change("interrupts", ALL_DISTURBANCES - off)
    game = drawn_game(CORRIDOR)
    set_player(game, state_of_mind=formulas.HIGH_ABOVE)
    add_monster(game, "hunger", 34, 1, notice=1)
    app = App(InGameScreen(Session(game)))
    app.handle(key(KeySym.O))
    while app.busy:
        app.tick()
    screen = app.stack[-1]
    assert isinstance(screen, InGameScreen)
    assert screen.pilot.shown is not None and "Hunger" not in screen.pilot.shown


def test_a_wrong_interrupts_value_is_named_and_the_default_used() -> None:
    reading = from_document({"interrupts": ["monster", "earthquake"]})
    assert reading.settings.interrupts == ALL_DISTURBANCES
    assert reading.problems and reading.problems[0].startswith("interrupts: ") and "earthquake" in reading.problems[0]
    assert from_document({"interrupts": "monster"}).problems[0].startswith("interrupts: ")


def test_the_settings_screen_opens_the_keys_and_the_interrupts_pages(prefs: Preferences) -> None:
    app = App(SettingsScreen())
    app.handle(key(KeySym.N8))
    keys = app.stack[-1]
    assert isinstance(keys, RebindScreen)
    app.handle(key(KeySym.ESCAPE))
    app.handle(key(KeySym.N9))
    interrupts = app.stack[-1]
    assert isinstance(interrupts, InterruptsScreen)
