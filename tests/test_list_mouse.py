"""The mouse over the in-view list beside the map (issue 23): an entry stands for its cell on
the map, so hovering it describes the cell and clicking it travels there (beside a dose),
with the map's own safety rails; in the screens, the terminal and the window."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import tcod.console
import tcod.context
import tcod.event
from tcod.event import MouseButton

from helpers import player_xy, settle
from mouse_helpers import click, motion, room_screen
from roguelike import settings
from roguelike.frontend import window
from roguelike.frontend.terminal import TerminalLoop
from roguelike.render.tileset import tileset_for
from roguelike.screens.base import App
from roguelike.screens.ingame import InGameScreen
from roguelike.screens.look import CURSOR_BG, describe
from roguelike.screens.pause import PauseScreen
from roguelike.screens.roomy import LIST_POINTED_BG, Canvas
from term_helpers import ScriptedTerminal, xterm_setup

ROOM = [
    "############",
    "#..........#",
    "#.@........#",
    "#.......i..#",
    "############",
]
DOSE = (8, 3)
# The list beside the 80x25 game: its title, a gap, then the dose's name row and its two lines.
NAME_ROW, LINE_ROW, TITLE_ROW = 2, 3, 0
LIST_X = 84


def drawn_wide(app: App) -> list[str]:
    """Draw the app on a 120x40 canvas, as a large frontend does; its rows of text."""
    console = tcod.console.Console(80, 25, order="C")
    app.draw(console, 0.0)
    canvas = Canvas(120, 40).compose(app, console)
    return ["".join(chr(c) for c in row) for row in canvas.rgb["ch"].tolist()]


def beside_the_dose(screen: InGameScreen) -> bool:
    x, y = player_xy(screen.game)
    return max(abs(x - DOSE[0]), abs(y - DOSE[1])) == 1


def test_the_dose_entry_sits_where_these_tests_point() -> None:
    screen, _ = room_screen(ROOM)
    rows = drawn_wide(App(screen))
    assert rows[TITLE_ROW][81:].startswith("In view")
    assert (
        rows[NAME_ROW][81:].startswith("! Dose") and rows[LINE_ROW][81:].strip() == "6 east and 1 south"
    )  # where it lies
    assert rows[LINE_ROW + 1][81:].strip().startswith("+")


def test_hovering_an_entry_describes_its_cell_as_hovering_the_map_does() -> None:
    screen, session = room_screen(ROOM)
    app = App(screen)
    drawn_wide(app)
    app.handle(motion(LIST_X, LINE_ROW))
    assert screen.pilot.shown == " ".join(text for text, _ in describe(screen.game, DOSE))
    app.handle(motion(2, 2))
    assert screen.pilot.shown.startswith("You, Tester.")
    app.handle(motion(LIST_X + 2, NAME_ROW))
    assert screen.pilot.shown.startswith("Dose (")
    assert session.steps == 0  # pointing takes no time


def test_clicking_an_entry_travels_beside_the_dose_a_step_per_tick() -> None:
    screen, session = room_screen(ROOM)
    app = App(screen)
    drawn_wide(app)
    app.handle(click(LIST_X, NAME_ROW))
    assert app.busy
    settle(app)
    assert beside_the_dose(screen)
    assert session.steps == 5


def test_the_title_a_gap_or_another_button_does_nothing() -> None:
    screen, session = room_screen(ROOM)
    app = App(screen)
    drawn_wide(app)
    for event in (click(LIST_X, TITLE_ROW), click(LIST_X, 30), click(LIST_X, NAME_ROW, MouseButton.RIGHT)):
        app.handle(event)
        assert not app.busy and session.steps == 0


def test_a_click_on_the_list_while_travelling_stops_like_a_click_on_the_map() -> None:
    screen, session = room_screen(ROOM)
    app = App(screen)
    drawn_wide(app)
    app.handle(click(9, 1))
    app.tick()
    app.handle(click(LIST_X, NAME_ROW))
    assert not app.busy and session.steps == 1


def test_the_list_under_a_menu_does_not_answer_the_mouse() -> None:
    screen, session = room_screen(ROOM)
    app = App(screen)
    app.stack.append(PauseScreen(session))
    drawn_wide(app)
    assert app.list_shown is None
    app.handle(click(LIST_X, NAME_ROW))
    app.stack.pop()
    assert not app.busy and session.steps == 0


def sgr(code: int, column: int, row: int, final: str = "M") -> bytes:
    """An SGR mouse report for a 0-based terminal cell."""
    return f"\x1b[<{code};{column + 1};{row + 1}{final}".encode()


def test_in_a_large_terminal_hovering_and_clicking_an_entry_work() -> None:
    screen, session = room_screen(ROOM)
    terminal = ScriptedTerminal([sgr(35, LIST_X, LINE_ROW)], (120, 40))
    TerminalLoop(App(screen), terminal, xterm_setup()).run()
    assert screen.pilot.shown is not None and screen.pilot.shown.startswith("Dose (")
    screen, session = room_screen(ROOM)
    terminal = ScriptedTerminal([sgr(0, LIST_X, NAME_ROW)] + [b""] * 10, (120, 40))
    TerminalLoop(App(screen), terminal, xterm_setup()).run()
    assert beside_the_dose(screen) and session.steps == 5


def test_in_a_large_window_a_click_in_pixels_on_an_entry_travels(monkeypatch: pytest.MonkeyPatch) -> None:
    screen, session = room_screen(ROOM)
    tileset = tileset_for(settings.current().tiles)
    px, py = (LIST_X + 0.5) * tileset.tile_width, (NAME_ROW + 0.5) * tileset.tile_height
    script: list[list[tcod.event.Event]] = [[], [click(px, py)], *([] for _ in range(10))]

    def wait(timeout: float | None = None) -> Iterator[tcod.event.Event]:
        yield from (script.pop(0) if script else [tcod.event.Quit()])

    monkeypatch.setattr(window, "suggest_tiles", lambda _: None)  # keep the tiles this test chose
    monkeypatch.setattr(tcod.event, "wait", wait)
    with tcod.context.new(columns=120, rows=40, tileset=tileset, argv=[]) as context:
        window.run_window(App(screen), context)
    assert beside_the_dose(screen) and session.steps == 5


def composed(app: App) -> tcod.console.Console:
    """The 120x40 canvas a large frontend would show now."""
    console = tcod.console.Console(80, 25, order="C")
    app.draw(console, 0.0)
    return Canvas(120, 40).compose(app, console)


def test_hovering_an_entry_highlights_it_and_its_cell_on_the_map_until_a_key() -> None:
    screen, _ = room_screen(ROOM)
    app = App(screen)
    composed(app)
    app.handle(motion(LIST_X, LINE_ROW))
    canvas = composed(app)
    assert tuple(canvas.rgb["bg"][DOSE[1], DOSE[0]]) == CURSOR_BG
    assert all(tuple(canvas.rgb["bg"][y, 100]) == LIST_POINTED_BG for y in (NAME_ROW, LINE_ROW, LINE_ROW + 1))
    assert tuple(canvas.rgb["bg"][TITLE_ROW, 100]) != LIST_POINTED_BG
    app.handle(
        tcod.event.KeyDown(
            scancode=tcod.event.Scancode.LSHIFT, sym=tcod.event.KeySym.LSHIFT, mod=tcod.event.Modifier.NONE
        )
    )
    canvas = composed(app)
    assert tuple(canvas.rgb["bg"][DOSE[1], DOSE[0]]) != CURSOR_BG
    assert tuple(canvas.rgb["bg"][NAME_ROW, 100]) != LIST_POINTED_BG


def test_on_a_tall_canvas_the_line_under_the_messages_is_not_covered_by_the_grown_messages() -> None:
    screen, _ = room_screen(ROOM)
    app = App(screen)
    composed(app)
    app.handle(motion(LIST_X, LINE_ROW))
    rows = ["".join(chr(c) for c in row) for row in composed(app).rgb["ch"].tolist()]
    said = " ".join(row[32:80].strip() for row in rows[25:])
    assert said.endswith(" ".join(text for text, _ in describe(screen.game, DOSE)).split()[-1])
    assert screen.pilot.shown is not None
    assert said.replace(" ", "").endswith(screen.pilot.shown.replace(" ", ""))
