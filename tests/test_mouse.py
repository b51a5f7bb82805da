"""The mouse: hovering describes a cell, clicking a known cell travels there, clicking a
menu entry chooses it; in the window (pixels) and in terminals that report the mouse."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import tcod.event
from tcod.event import MouseButton

from helpers import player_xy, settle
from mouse_helpers import click, motion, room_screen
from roguelike.frontend import window
from roguelike.frontend.terminal import TerminalLoop
from roguelike.render.tileset import load_tileset
from roguelike.saves import Games
from roguelike.screens.base import App
from roguelike.screens.look import describe
from roguelike.screens.roomy import roomy_size
from roguelike.screens.title import TitleScreen
from term_helpers import ScriptedTerminal, xterm_setup

ROOM = [
    "############",
    "#..........#",
    "#.@........#",
    "#.......i..#",
    "############",
]


def test_hovering_describes_the_cell_under_the_pointer() -> None:
    screen, session = room_screen(ROOM)
    app = App(screen)
    app.handle(motion(8.5, 3.2))  # as the look command says it
    assert screen.pilot.shown == " ".join(text for text, _ in describe(screen.game, (8, 3)))
    assert screen.pilot.shown.startswith("Dose (")
    app.handle(motion(2, 2))
    assert screen.pilot.shown.startswith("You, Tester.")
    assert session.steps == 0  # looking takes no time


def test_clicking_a_known_cell_travels_there_a_step_per_tick() -> None:
    screen, session = room_screen(ROOM)
    app = App(screen)
    app.handle(click(9, 1))
    assert app.busy
    settle(app)
    assert player_xy(screen.game) == (9, 1)
    assert session.steps == 7


def test_clicking_a_dose_stops_beside_it_and_clicking_the_panel_does_nothing() -> None:
    screen, session = room_screen(ROOM)
    app = App(screen)
    app.handle(click(8, 3))
    settle(app)
    assert max(abs(player_xy(screen.game)[0] - 8), abs(player_xy(screen.game)[1] - 3)) == 1
    steps = session.steps
    app.handle(click(40, 23))
    assert not app.busy and session.steps == steps


def test_clicking_an_unknown_cell_says_there_is_no_known_way() -> None:
    screen, _ = room_screen(ROOM)
    App(screen).handle(click(30, 10))
    assert screen.pilot.shown == "There is no known way there."


def test_menu_entries_follow_the_pointer_and_a_click_chooses(tmp_path: Path) -> None:
    title = TitleScreen(Games(tmp_path, seed=3))
    app = App(title)
    console = tcod.console.Console(80, 25, order="C")
    app.draw(console, 0.0)
    assert title.menu.drawn_at is not None  # drawing placed the menu
    left, top = title.menu.drawn_at
    app.handle(motion(left + 3, top + 2))
    assert title.menu.cursor == 2
    app.handle(click(left + 3, top))  # New game
    assert type(app.stack[-1]).__name__ == "NewGameScreen"


def sgr(code: int, column: int, row: int, final: str = "M") -> bytes:
    """An SGR mouse report for a 0-based terminal cell."""
    return f"\x1b[<{code};{column + 1};{row + 1}{final}".encode()


def test_terminal_mouse_reports_are_decoded() -> None:
    decoder = xterm_setup().decoder
    (press,) = decoder.feed(sgr(0, 4, 2))
    assert isinstance(press, tcod.event.MouseButtonDown) and press.button == MouseButton.LEFT
    assert press.position == (4.0, 2.0)  # a Point of floats, as the window's pixels are
    (moved,) = decoder.feed(sgr(35, 7, 1))
    assert isinstance(moved, tcod.event.MouseMotion) and moved.position == (7.0, 1.0)
    assert decoder.feed(sgr(0, 4, 2, "m")) == []  # a release
    assert decoder.feed(sgr(64, 4, 2)) == []  # the wheel
    assert [type(e).__name__ for e in decoder.feed(sgr(2, 1, 1) + b"l")] == ["MouseButtonDown", "KeyDown", "TextInput"]


@pytest.mark.parametrize("size", [(80, 25), (100, 25), (100, 31)])
def test_terminal_hover_and_click_travel_wherever_the_console_sits(size: tuple[int, int]) -> None:
    screen, session = room_screen(ROOM)
    # Centred; a terminal with room to spare (roomy.py) has the game in its top-left corner.
    left, top = (size[0] - 80) // 2, (size[1] - 25) // 2
    if roomy_size(*size) is not None:
        left, top = 0, 0
    script = [sgr(35, 8 + left, 3 + top), sgr(0, 9 + left, 1 + top)] + [b""] * 12
    terminal = ScriptedTerminal(script, size)
    TerminalLoop(App(screen), terminal, xterm_setup()).run()
    assert player_xy(screen.game) == (9, 1)
    assert session.steps == 7


def test_window_click_in_pixels_travels(monkeypatch: pytest.MonkeyPatch) -> None:
    screen, session = room_screen(ROOM)
    tileset = load_tileset()
    px, py = 9.5 * tileset.tile_width, 1.5 * tileset.tile_height
    script: list[list[tcod.event.Event]] = [[click(px, py)], *([] for _ in range(12))]

    def wait(timeout: float | None = None) -> Iterator[tcod.event.Event]:
        yield from (script.pop(0) if script else [tcod.event.Quit()])

    monkeypatch.setattr(tcod.event, "wait", wait)
    window.run_window(App(screen))
    assert player_xy(screen.game) == (9, 1)
    assert session.steps == 7


def test_enter_on_the_look_cursor_travels_there() -> None:
    screen, session = room_screen(ROOM)
    app = App(screen)
    app.handle(
        tcod.event.KeyDown(scancode=tcod.event.Scancode.X, sym=tcod.event.KeySym.X, mod=tcod.event.Modifier.NONE)
    )
    for _ in range(4):
        app.handle(
            tcod.event.KeyDown(scancode=tcod.event.Scancode.L, sym=tcod.event.KeySym.L, mod=tcod.event.Modifier.NONE)
        )
    assert session.steps == 0  # looking takes no time
    app.handle(
        tcod.event.KeyDown(
            scancode=tcod.event.Scancode.RETURN, sym=tcod.event.KeySym.RETURN, mod=tcod.event.Modifier.NONE
        )
    )
    assert app.stack == [screen] and app.busy
    settle(app)
    assert player_xy(screen.game) == (6, 2) and session.steps == 4
