"""The dedicated 80x25 window: present the console, pass events to the screens."""

from __future__ import annotations

import logging
import time

import tcod.console
import tcod.context
import tcod.event

from roguelike.content import formulas
from roguelike.render.tileset import load_tileset
from roguelike.screens.keymap import is_fullscreen_toggle
from roguelike.screens.base import App

TITLE = "Hedonic Hypothesis"
ANIMATION_FPS = 30


def run_window(app: App) -> None:
    """Run the app in a resizable window until its last screen closes."""
    # tcod forwards SDL's start-up chatter to logging; players should only see problems.
    logging.getLogger("tcod.sdl").setLevel(logging.ERROR)
    flags = tcod.context.SDL_WINDOW_RESIZABLE
    console = tcod.console.Console(formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT, order="C")
    with tcod.context.new(
        columns=console.width, rows=console.height, tileset=load_tileset(),
        title=TITLE, sdl_window_flags=flags, vsync=True, argv=[],
    ) as context:
        if context.sdl_window is not None:
            context.sdl_window.start_text_input()
        try:
            while app.running:
                app.draw(console, time.monotonic())
                context.present(console, integer_scaling=True, keep_aspect=True)
                app.before_input()
                timeout = 1 / ANIMATION_FPS if app.animated else None
                for event in tcod.event.wait(timeout):
                    dispatch(app, context, event)
        finally:
            app.close_all()


def dispatch(app: App, context: tcod.context.Context, event: tcod.event.Event) -> None:
    """Handle window-level keys (Alt+Enter), then give the event to the screens."""
    if isinstance(event, tcod.event.KeyDown) and is_fullscreen_toggle(event):
        toggle_fullscreen(context)
        return
    app.handle(event)


def toggle_fullscreen(context: tcod.context.Context) -> None:
    """Switch between a window and borderless fullscreen."""
    window = context.sdl_window
    if window is not None:
        window.fullscreen = not window.fullscreen
