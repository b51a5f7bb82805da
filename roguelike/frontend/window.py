"""The dedicated 80x25 window: present the console, pass events to the screens.

It runs the loop it shares with the web (:mod:`roguelike.frontend.loop`), presenting each
frame in the window and reading keys from SDL.

The window follows the settings in force while it runs: a new tile size changes the
tileset and the window's size, fullscreen and scaling change at once, and Alt+Enter
is the fullscreen setting's shortcut. Its place and size are remembered for the next
run when it closes.
"""

from __future__ import annotations

import logging
import os
import sys

import tcod.console
import tcod.context
import tcod.event
import tcod.sdl.video
from tcod.cffi import ffi, lib

from roguelike import APP_ID
from roguelike.content import formulas
from roguelike.frontend.loop import RunLoop
from roguelike.render.look import finish_frame
from roguelike.render.text import wrap
from roguelike.render.tileset import tileset_for
from roguelike.screens import ambient
from roguelike.screens.base import App
from roguelike.screens.keymap import is_fullscreen_toggle
from roguelike.screens.roomy import Canvas, roomy_size
from roguelike.settings import Scaling, Settings, WindowPlace
from roguelike.settings.options import largest_fitting, tiles_in_use

TITLE = "Hedonic Hypothesis"
CRASH_BG = (30, 8, 16)
CRASH_TEXT = (240, 220, 225)


def open_window(chosen: Settings) -> tcod.context.Context:
    """The game's window, named for task bars (RuntimeError if none can open)."""
    # tcod forwards SDL's start-up chatter to logging; players should only see problems.
    logging.getLogger("tcod.sdl").setLevel(logging.ERROR)
    # SDL names the window's class (what task bars and window managers show) after the app id.
    os.environ.setdefault("SDL_APP_ID", APP_ID)
    os.environ.setdefault("SDL_APP_NAME", TITLE)
    x, y, width, height = window_place(chosen)
    return tcod.context.new(
        x=x,
        y=y,
        width=width,
        height=height,
        tileset=tileset_for(chosen.tiles),
        title=TITLE,
        sdl_window_flags=tcod.context.SDL_WINDOW_RESIZABLE,
        vsync=True,
        argv=[],
    )


def run_window(app: App, context: tcod.context.Context | None = None) -> None:
    """Run the app in a resizable window (opened here unless given) until its last screen closes."""
    chosen = ambient.chosen()
    with context or open_window(chosen) as context:
        if context.sdl_window is not None:
            keep_on_screen(context.sdl_window)
            suggest_tiles(context.sdl_window)
            ambient.preferences().screen = usable_area(context.sdl_window)
        window = WindowPresenter(app, context, SettingsFollower(context, chosen))
        if context.sdl_window is not None:
            context.sdl_window.start_text_input()
        try:
            RunLoop(app, window).run(tcod.event.wait)
        finally:
            window.follower.remember_place()


class WindowPresenter:
    """The window's part of the loop: the settings followed, the frame presented, window keys, the crash told."""

    def __init__(self, app: App, context: tcod.context.Context, follower: SettingsFollower) -> None:
        self.app, self.context, self.follower = app, context, follower
        self.room = WindowRoom()

    def present(self, app: App, console: tcod.console.Console) -> None:
        """Follow the settings, then show the console (or a canvas around it) in the window."""
        self.follower.follow()
        shown = self.room.shown(self.context, app, console)
        finish_frame(shown, ambient.look())
        self.context.present(shown, integer_scaling=self.follower.integer_scaling, keep_aspect=True)

    def handle(self, event: tcod.event.Event) -> None:
        """Window-level keys, then the screens."""
        dispatch(self.app, self.context, self.room.origin, event)

    def crashed(self, message: str, console: tcod.console.Console) -> None:
        """Show the crash in the window until a key."""
        show_crash(self.context, console, message)


def show_crash(context: tcod.context.Context, console: tcod.console.Console, message: str) -> None:
    """Tell a player who may have no terminal what happened and where the files are; wait for a key."""
    console.clear(bg=CRASH_BG)
    for row, line in enumerate(crash_lines(message, console.width - 2, console.height - 2), start=1):
        console.print(1, row, line, fg=CRASH_TEXT, bg=CRASH_BG)
    context.present(console, integer_scaling=True, keep_aspect=True)
    while True:
        for event in tcod.event.wait():
            if isinstance(event, (tcod.event.KeyDown, tcod.event.Quit)):
                return


def crash_lines(message: str, width: int, rows: int) -> list[str]:
    """The crash message wrapped to the window, ending with how to close it, in ``rows`` rows
    whatever the data folder's length: the developers' commands (in the report too) give way
    first, then the lines before the last that still do not fit."""
    closing = ["", "Press any key to close the game."]
    paragraphs = message.splitlines()
    lines = wrapped(paragraphs, width)
    if len(lines) + len(closing) > rows:
        lines = wrapped([text for text in paragraphs if not is_developer_line(text)], width)
    if len(lines) + len(closing) > rows:
        lines = lines[: rows - len(closing) - 2] + ["...", lines[-1]]
    return lines + closing


def wrapped(paragraphs: list[str], width: int) -> list[str]:
    """Paragraphs wrapped to a width (paths break anywhere, never at their hyphens)."""
    return [line for text in paragraphs for line in wrap(text, width, hyphens=False) or [""]]


def is_developer_line(text: str) -> bool:
    """A line of the crash message for developers: the commands that reproduce the crash."""
    return text.startswith("To reproduce") or text.strip().startswith("hedonic ")


def window_place(chosen: Settings) -> tuple[int | None, int | None, int, int]:
    """Where to open the window (None: where the system likes) and how large: as remembered,
    but never smaller than the tiles need."""
    width, height = chosen.tiles.window(formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT)
    place = chosen.window
    if place is None:
        return None, None, width, height
    return place.x, place.y, max(width, place.width), max(height, place.height)


def suggest_tiles(window: tcod.sdl.video.Window) -> None:
    """Unless the player chose a tile size, take the largest whose window fits this screen."""
    area = usable_area(window)
    if area is not None:
        ambient.preferences().suggest("tiles", largest_fitting(*area))


def keep_on_screen(window: tcod.sdl.video.Window) -> None:
    """Centre a window whose remembered place is on no screen (a monitor since unplugged)."""
    (x, y), (width, height) = window.position, window.size
    if not any(overlaps((x, y, width, height), bounds) for bounds in display_bounds()):
        window.position = (lib.SDL_WINDOWPOS_CENTERED, lib.SDL_WINDOWPOS_CENTERED)


def keep_whole_on_screen(window: tcod.sdl.video.Window, size: tuple[int, int]) -> None:
    """Centre a window that grew past the edge of a screen it would fit on (larger tiles grow it
    from where it stood); one larger than its screen stays where the player put it. The new
    ``size`` is passed in because X11 reports a resize only later."""
    (x, y), (width, height) = window.position, size
    screens = [bounds for bounds in display_bounds() if overlaps((x, y, width, height), bounds)]
    if any(contains(bounds, (x, y, width, height)) for bounds in screens):
        return
    if any(width <= bounds[2] and height <= bounds[3] for bounds in screens):
        window.position = (lib.SDL_WINDOWPOS_CENTERED, lib.SDL_WINDOWPOS_CENTERED)


def contains(outer: tuple[int, int, int, int], inner: tuple[int, int, int, int]) -> bool:
    """Whether rectangle ``inner`` (x, y, width, height) lies wholly inside ``outer``."""
    return (
        outer[0] <= inner[0]
        and inner[0] + inner[2] <= outer[0] + outer[2]
        and outer[1] <= inner[1]
        and inner[1] + inner[3] <= outer[1] + outer[3]
    )


def overlaps(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    """Whether two rectangles (x, y, width, height) share any pixel."""
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def display_bounds() -> list[tuple[int, int, int, int]]:
    """Where each connected screen lies on the desktop."""
    count = ffi.new("int*")
    displays = lib.SDL_GetDisplays(count)
    if displays == ffi.NULL:
        return []
    found = []
    bounds = ffi.new("SDL_Rect*")
    for index in range(count[0]):
        if lib.SDL_GetDisplayBounds(displays[index], bounds):
            found.append((int(bounds.x), int(bounds.y), int(bounds.w), int(bounds.h)))
    lib.SDL_free(displays)
    return found


def usable_area(window: tcod.sdl.video.Window) -> tuple[int, int] | None:
    """The pixels of the window's screen that windows may use (without taskbars), if known."""
    display = lib.SDL_GetDisplayForWindow(window.p)
    bounds = ffi.new("SDL_Rect*")
    if not display or not lib.SDL_GetDisplayUsableBounds(display, bounds):
        return None
    return int(bounds.w), int(bounds.h)


class SettingsFollower:
    """Applies the settings in force to a window whenever they change."""

    def __init__(self, context: tcod.context.Context, chosen: Settings) -> None:
        self.context = context
        self.applied = chosen
        self.tiles = chosen.tiles  # the tiles the window shows (the chosen ones unless too large)
        self.generation = -1

    @property
    def integer_scaling(self) -> bool:
        """Whether the console is scaled by whole multiples only."""
        return self.applied.scaling is Scaling.INTEGER

    def follow(self) -> None:
        """Apply what changed since the last frame."""
        prefs = ambient.preferences()
        if prefs.generation == self.generation:
            return
        self.generation = prefs.generation
        chosen = prefs.current
        self.applied = chosen
        window = self.context.sdl_window
        tiles = tiles_in_use(chosen.tiles, prefs.screen)
        if tiles != self.tiles:
            self.tiles = tiles
            if tiles != chosen.tiles and prefs.screen is not None:  # said once, when it happens
                print(
                    f"hedonic: tiles of {chosen.tiles} make a window larger than this screen "
                    f"({prefs.screen[0]}x{prefs.screen[1]}): {tiles} are used",
                    file=sys.stderr,
                )
            self.context.change_tileset(tileset_for(tiles))
            if window is not None and not window.fullscreen:
                size = tiles.window(formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT)
                window.size = size
                keep_whole_on_screen(window, size)
        if window is not None and bool(window.fullscreen) != chosen.fullscreen:
            window.fullscreen = chosen.fullscreen

    def remember_place(self) -> None:
        """Keep the window's place and size in the settings (not while fullscreen)."""
        window = self.context.sdl_window
        if window is None or window.fullscreen:
            return
        (x, y), (width, height) = window.position, window.size
        ambient.preferences().remember_window(WindowPlace(x, y, width, height))


def dispatch(app: App, context: tcod.context.Context, origin: tuple[int, int], event: tcod.event.Event) -> None:
    """Handle window-level keys (Alt+Enter), then give the event to the screens (a mouse event
    in the cells of the 80x25 game, which sits at ``origin`` of what the window shows)."""
    if isinstance(event, tcod.event.KeyDown) and is_fullscreen_toggle(event):
        toggle_fullscreen()
        return
    if isinstance(event, (tcod.event.MouseMotion, tcod.event.MouseButtonDown)):
        event = context.convert_event(event)  # pixels to console cells
        event.position = tcod.event.Point(event.position.x - origin[0], event.position.y - origin[1])
    app.handle(event)


class WindowRoom:
    """A window with room for more than 80x25 cells of its tiles shows a canvas of its size
    (:mod:`roguelike.screens.roomy`); one without shows the 80x25 console, scaled."""

    def __init__(self) -> None:
        self.canvas: Canvas | None = None

    @property
    def origin(self) -> tuple[int, int]:
        """Where the 80x25 game sits in what the window shows last."""
        return self.canvas.origin if self.canvas is not None else (0, 0)

    def shown(self, context: tcod.context.Context, app: App, console: tcod.console.Console) -> tcod.console.Console:
        """The console to present this frame: the drawn 80x25 one, or a canvas around it."""
        cells = context.recommended_console_size(formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT)
        size = roomy_size(*cells)
        if size is None:
            self.canvas = None
            return console
        if self.canvas is None or (self.canvas.console.width, self.canvas.console.height) != size:
            self.canvas = Canvas(*size)
        return self.canvas.compose(app, console)


def toggle_fullscreen() -> None:
    """Switch between a window and fullscreen, as the fullscreen setting."""
    prefs = ambient.preferences()
    prefs.change("fullscreen", not prefs.current.fullscreen)
