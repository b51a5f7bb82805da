"""The carry keys in every frontend: g picks up, q takes a carried dose, each asking which when
there are several; the panel shows what is carried at its true figures and the screen reader
says it (roguelike/screens/carrykeys.py)."""

from __future__ import annotations

import itertools
from pathlib import Path

import tcod.console
import tcod.event
from tcod.event import KeySym, Modifier, Scancode

from components import Carried, Dose, Record, StateOfMind, Tolerance
from helpers import drawn_game
from roguelike.content.doses import DOSE_KINDS, NORMAL_DOSE, SMALL_DOSE, dose_odds
from roguelike.core.carrying import carried_doses, put_in
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.frontend.terminal import TerminalLoop
from roguelike.frontend.web.keycodes import key_event
from roguelike.screens import bindings
from roguelike.screens.base import App
from roguelike.screens.ingame import InGameScreen
from roguelike.screens.roomy import Canvas
from save_helpers import screen_rows
from term_helpers import ScriptedTerminal, xterm_setup
from web_helpers import connect, live_game, new_game, served

ROOM = ["#########", "#.......#", "#..@i...#", "#.......#", "#########"]


def key(sym: KeySym, mod: Modifier = Modifier.NONE) -> tcod.event.KeyDown:
    return tcod.event.KeyDown(scancode=Scancode.UNKNOWN, sym=sym, mod=mod)


def carried(game: Game) -> list[Dose]:
    return carried_doses(game.player_component(Carried))


def playing(game: Game) -> tuple[App, InGameScreen]:
    screen = InGameScreen(Session(game))
    return App(screen), screen


def test_g_picks_up_the_dose_beside_you_and_q_takes_it() -> None:
    game = drawn_game(ROOM, dose=Dose(SMALL_DOSE.key, 30, 0, 0, 0, floor=2))
    app, screen = playing(game)
    app.handle(key(KeySym.G))
    assert carried(game) == [Dose(SMALL_DOSE.key, 30, 0, 0, 0, floor=2)] and game.state.turn == 1
    assert "Carry 1:i +" in screen_rows(screen)[21]
    app.handle(key(KeySym.Q))
    assert carried(game) == [] and game.player_component(Record).doses_used == 1


def test_the_panel_shows_the_true_range_at_the_floor_each_dose_was_found_on() -> None:
    game = drawn_game(ROOM)
    put_in(game.player_component(Carried), Dose(SMALL_DOSE.key, 60, 0, 0, 0, floor=8))
    _, screen = playing(game)
    odds = dose_odds(SMALL_DOSE, 8, game.player_component(StateOfMind).value, game.player_component(Tolerance).value)
    assert f"Carry 1:i +{odds.low}..+{odds.high}" in screen_rows(screen)[21]


def test_with_two_doses_beside_you_g_asks_for_a_direction() -> None:
    game = drawn_game(["#####", "#.i.#", "#.@i#", "#...#", "#####"])
    app, screen = playing(game)
    app.handle(key(KeySym.G))
    assert carried(game) == [] and "Pick up which dose?" in "\n".join(screen_rows(screen))
    app.handle(key(KeySym.L))  # east: a move key answers with its direction
    assert len(carried(game)) == 1 and game.state.turn == 1
    app.handle(key(KeySym.G))  # one left beside: no question
    assert len(carried(game)) == 2


def test_any_other_key_answers_no_carry_question() -> None:
    game = drawn_game(["#####", "#.i.#", "#.@i#", "#...#", "#####"])
    app, _ = playing(game)
    app.handle(key(KeySym.G))
    app.handle(key(KeySym.ESCAPE))
    assert carried(game) == [] and game.state.turn == 0
    app.handle(key(KeySym.H))  # a move again after the question
    assert game.state.turn == 1


def test_with_several_carried_q_asks_for_the_number_the_panel_gives() -> None:
    game = drawn_game(ROOM)
    put_in(game.player_component(Carried), Dose(NORMAL_DOSE.key, 40, 0, 0, 0))
    put_in(game.player_component(Carried), Dose(SMALL_DOSE.key, 30, 0, 0, 0))
    app, screen = playing(game)
    assert "Carry 1:! +" in screen_rows(screen)[21] and " 2:i +" in screen_rows(screen)[21]
    app.handle(key(KeySym.Q))
    assert "Take which carried dose? Its number (1-2)" in "\n".join(screen_rows(screen))
    app.handle(key(KeySym.N2))
    assert carried(game) == [Dose(NORMAL_DOSE.key, 40, 0, 0, 0)]


def test_taking_a_carried_dose_that_could_kill_asks_first() -> None:
    game = drawn_game(ROOM)
    put_in(game.player_component(Carried), Dose(DOSE_KINDS["extra_large_dose"].key, 95, 0, 0, 0, floor=5))
    app, screen = playing(game)
    assert "!" in screen_rows(screen)[21].split("Carry", 1)[1]  # the risk mark
    app.handle(key(KeySym.Q))
    assert len(carried(game)) == 1 and "Take the extra-large dose?" in "\n".join(screen_rows(screen))
    app.handle(key(KeySym.N))
    assert len(carried(game)) == 1


def test_nothing_beside_and_nothing_carried_are_said_and_take_no_turn() -> None:
    game = drawn_game(["#####", "#...#", "#.@.#", "#...#", "#####"])
    app, screen = playing(game)
    app.handle(key(KeySym.G))
    assert "No dose lies beside you to pick up." in "\n".join(screen_rows(screen))
    app.handle(key(KeySym.Q))
    assert "You carry no dose." in "\n".join(screen_rows(screen)) and game.state.turn == 0


def test_the_terminal_takes_the_carry_keys_and_the_screen_reader_says_what_is_carried() -> None:
    game = drawn_game(ROOM, dose=Dose(SMALL_DOSE.key, 30, 0, 0, 0, floor=3))
    terminal = ScriptedTerminal([b"g", b"c", b"q"], (80, 40))
    seconds = itertools.count()  # a second between keys: none falls in the pause after a change
    TerminalLoop(
        App(InGameScreen(Session(game))), terminal, xterm_setup(screen_reader=True), clock=lambda: float(next(seconds))
    ).run()
    spoken = " ".join(row.strip() for row in terminal.screen.display[25:] if row.strip())
    assert "You pick up the small dose (from floor 3): 1 of 3 carried." in spoken
    assert "Carrying 1 of 3: 1, a small dose from floor 3, +" in spoken
    assert "You take the carried small dose: +" in spoken
    assert carried(game) == []


def test_the_browser_sends_g_and_q_as_the_carry_keys(tmp_path: Path) -> None:
    for code, action in (("KeyG", "pick_up"), ("KeyQ", "take_carried")):
        event = key_event(code, 0)
        assert isinstance(event, tcod.event.KeyDown) and bindings.defaults().action_for(event) == action
    live = live_game(tmp_path)
    with served(live) as client, connect(client) as player:
        new_game(player)
        screen = live.app.stack[-1]
        assert isinstance(screen, InGameScreen)
        game = screen.game
        player.press("KeyQ", text="q")
        player.until(lambda rows: any("You carry no dose." in row for row in rows))
        put_in(game.player_component(Carried), Dose(SMALL_DOSE.key, 30, 0, 0, 0))  # as if picked up
        player.press("KeyQ", text="q")
        player.until(lambda rows: any("You take the carried small dose" in row for row in rows))
        assert carried(game) == [] and game.player_component(Record).doses_used == 1


def test_a_tall_terminal_keeps_the_carried_row_above_its_longer_messages() -> None:
    game = drawn_game(ROOM)
    put_in(game.player_component(Carried), Dose(SMALL_DOSE.key, 30, 0, 0, 0))
    app = App(InGameScreen(Session(game)))
    console = tcod.console.Console(80, 25, order="C")
    app.draw(console, 0.0)
    rows = ["".join(chr(c) for c in row) for row in Canvas(120, 40).compose(app, console).rgb["ch"].tolist()]
    assert rows[21][32:].startswith("Carry 1:i +")
    assert "You wake up shaking." in " ".join(row[32:80] for row in rows[22:])
