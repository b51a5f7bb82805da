"""Keys typed ahead of something appearing are dropped, in the window.

When a screen asks (:meth:`App.take_interrupted`: a command changed something that
matters, the player died, an automation stopped by itself) the keys already queued behind
the one that did it are forgotten, and so are the repeats of a key held down through it,
until that key is released.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import tcod.event

from roguelike.screens.base import App

Dispatch = Callable[[tcod.event.Event], None]


class KeyGate:
    """Drops keys typed ahead of an interruption, and a key held down through it."""

    def __init__(self, poll: Callable[[], Iterable[tcod.event.Event]] = tcod.event.get) -> None:
        self.held = False
        self.poll = poll  # the events already queued

    def pass_events(self, app: App, events: Iterable[tcod.event.Event], dispatch: Dispatch) -> None:
        """Dispatch events until a screen interrupts; then drop the keys queued behind."""
        for event in events:
            if isinstance(event, tcod.event.KeyUp):
                self.held = False
            elif isinstance(event, tcod.event.KeyDown) and event.repeat and self.held:
                continue
            dispatch(event)
            if app.take_interrupted():
                self.held = True
                self.drop_keys(dispatch)
                return

    def after_tick(self, app: App, dispatch: Dispatch) -> None:
        """After a step of automation: if it stopped by itself or showed something, drop the keys queued."""
        if app.take_interrupted():
            self.held = True
            self.drop_keys(dispatch)

    def drop_keys(self, dispatch: Dispatch) -> None:
        """Forget queued key presses and typed text; keep everything else (a Quit, a resize)."""
        for event in self.poll():
            if isinstance(event, tcod.event.KeyUp):
                self.held = False
            elif not isinstance(event, (tcod.event.KeyDown, tcod.event.TextInput)):
                dispatch(event)
