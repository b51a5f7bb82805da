"""Room beyond 80x25: a terminal or window with room to spare shows more beside the game.

Every screen draws on the 80x25 console. A frontend whose terminal or window holds more
cells (:func:`roomy_size`) shows a larger canvas: while a game is on screen (the
in-game screen, look, a replay, a menu over a game: :meth:`Screen.room`) the 80x25 game
sits in the top-left corner, the in-view list (:mod:`roguelike.screens.sidebar`) fills
the columns to its right, and under the in-game screen the message area grows down into
the spare rows. A screen that says it is roomy (the message log) is drawn on the whole
canvas instead. Any other screen is centred, as a terminal shows it. At exactly 80x25
nothing changes. The canvas is drawn unfinished: the frontend finishes it (the palette's
filter, ASCII glyphs) once, as it would the console.
"""

from __future__ import annotations

import tcod.console

from roguelike.content import formulas
from roguelike.render.colours import Scheme, Slot
from roguelike.render.panel import MESSAGE_WIDTH, MESSAGES_X, PANEL_TOP, draw_above_messages, message_lines
from roguelike.screens import ambient
from roguelike.screens.base import App, Room
from roguelike.screens.look import CURSOR_BG
from roguelike.screens.mouse import ListShown
from roguelike.screens.pilot import draw_note
from roguelike.screens.sidebar import draw_sidebar

WIDTH, HEIGHT = formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT
SIDEBAR_LEAST = 24  # columns beside the game the list needs (its gap column included)
LIST_POINTED_BG = (60, 60, 30)  # the rows of the entry under the pointer: a dark shade of look's cursor


def roomy_size(columns: int, rows: int) -> tuple[int, int] | None:
    """The canvas for a terminal or window of this many cells (None: the 80x25 console alone)."""
    if columns >= WIDTH + SIDEBAR_LEAST or (columns >= WIDTH and rows > HEIGHT):
        return columns, max(rows, HEIGHT)
    return None


def room_of(app: App) -> Room | None:
    """What the topmost screen with a game shows beside it; only the top screen's messages grow."""
    for depth, screen in enumerate(reversed(app.stack)):
        room = screen.room()
        if room is not None:
            return room if depth == 0 else Room(room.game)
    return None


class Canvas:
    """The larger console a roomy frontend shows, and where the 80x25 game sits on it."""

    def __init__(self, columns: int, rows: int) -> None:
        self.console = tcod.console.Console(columns, rows, order="C")
        self.origin = (0, 0)  # (x, y) of the game's top-left cell

    def compose(self, app: App, game_console: tcod.console.Console) -> tcod.console.Console:
        """The canvas with the drawn 80x25 console on it, and the room beside it filled."""
        canvas = self.console
        canvas.clear()
        if app.stack and app.stack[-1].roomy:  # it fills the canvas itself (the message log); never animated
            self.origin, app.list_shown = (0, 0), None
            app.stack[-1].on_draw(canvas, 0.0)
            return canvas
        room = room_of(app)
        self.origin = (0, 0) if room is not None else ((canvas.width - WIDTH) // 2, (canvas.height - HEIGHT) // 2)
        game_console.blit(canvas, self.origin[0], self.origin[1])
        shown = None if room is None else fill_room(canvas, room, ambient.look().scheme)
        # Only the top screen's list answers the mouse (not one under a menu).
        app.list_shown = shown if app.stack and app.stack[-1].room() is not None else None
        if app.list_shown is not None and app.list_pointed is not None:
            highlight(canvas, app.list_shown, app.list_pointed)
        return canvas


def highlight(canvas: tcod.console.Console, shown: ListShown, cell: tuple[int, int]) -> None:
    """The entry the pointer rests on, in the list and at its cell on the map, as look's cursor shows a cell."""
    rows = [y for y, at in enumerate(shown.cells) if at == cell]
    for y in rows:
        canvas.rgb["bg"][y, shown.left : shown.right] = LIST_POINTED_BG
    if rows:
        canvas.rgb["bg"][cell[1], cell[0]] = CURSOR_BG
        canvas.rgb["fg"][cell[1], cell[0]] = (0, 0, 0)


def fill_room(canvas: tcod.console.Console, room: Room, scheme: Scheme) -> ListShown | None:
    """The in-view list beside the game (returned, for the mouse) and, for the in-game screen,
    messages in the rows under it."""
    shown = None
    if canvas.width - WIDTH >= SIDEBAR_LEAST:
        cells = draw_sidebar(canvas, room.game, WIDTH, canvas.width - WIDTH, scheme)
        shown = ListShown(WIDTH, canvas.width, tuple(cells))
    if canvas.height > HEIGHT:
        canvas.draw_rect(0, HEIGHT, WIDTH, canvas.height - HEIGHT, ch=ord(" "), bg=scheme[Slot.PANEL_BG])
        if room.messages:
            draw_tall_messages(canvas, room, scheme)
            if room.note is not None:  # the grown messages must not cover it
                draw_note(canvas, room.note)
    return shown


def draw_tall_messages(canvas: tcod.console.Console, room: Room, scheme: Scheme) -> None:
    """The message area from the panel's top to the canvas's last row, newest last (as in the panel),
    under the rows over the messages (the effects and streak with no room beside the bar, the carried doses)."""
    canvas.draw_rect(
        MESSAGES_X, PANEL_TOP, MESSAGE_WIDTH, canvas.height - PANEL_TOP, ch=ord(" "), bg=scheme[Slot.PANEL_BG]
    )
    top = PANEL_TOP + draw_above_messages(canvas, room.game, scheme)
    lines = message_lines(room.game, canvas.height - top, scheme)
    for row, (text, colour) in enumerate(lines):
        fade = 0.55 + 0.45 * (row + 1) / len(lines)
        faded = (int(colour[0] * fade), int(colour[1] * fade), int(colour[2] * fade))
        canvas.print(MESSAGES_X, top + row, text[:MESSAGE_WIDTH], fg=faded)
