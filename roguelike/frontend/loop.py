"""The one run loop of the window and the web: draw, present, let the screens save, wait, hand on.

A frame is drawn on the 80x25 console and presented (in the window, or sent to browsers);
then the screens finish what must be on disk before the next key (:meth:`App.before_input`);
then the loop waits for input for as long as nothing is due (a step of automation, a frame
of animation: :func:`wait_timeout`), passes the events through the :class:`KeyGate` to the
screens, and lets a busy screen take its next step. It ends when the screen stack empties.
Only presenting and reading keys differ between frontends: the window waits on SDL, the web
awaits its players' messages, so :meth:`RunLoop.run` and :meth:`RunLoop.run_async` are the
same loop with a blocking and an awaited wait. On any way out every screen closes (and
saves); a crash is reported once and told to the player by the frontend.

The terminal has a loop of its own (:mod:`roguelike.frontend.terminal`): it draws only when
something changed, decodes bytes with a wait for a lone Esc, drops typed-ahead keys by time
rather than through the key gate, and pauses while the terminal is too small.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator
from typing import Protocol

import tcod.console
import tcod.event

from roguelike.content import formulas
from roguelike.frontend.keygate import KeyGate
from roguelike.saves.crash import report_once
from roguelike.screens.base import App

ANIMATION_FPS = 30
Events = Iterable[tcod.event.Event]  # consumed as handed on: SDL's are left queued when the gate drops keys


class Presenter(Protocol):
    """What a frontend adds to the loop: showing a frame, taking an event, telling of a crash."""

    def present(self, app: App, console: tcod.console.Console) -> None:
        """Show the console the app was just drawn on."""
        ...

    def handle(self, event: tcod.event.Event) -> None:
        """Give one event to the app (after anything the frontend does with it itself)."""
        ...

    def crashed(self, message: str, console: tcod.console.Console) -> None:
        """Tell the player the game crashed (``message``: what the report says to them), on
        ``console`` if the frontend shows one."""
        ...


def wait_timeout(app: App, fps: float = ANIMATION_FPS) -> float | None:
    """How long to wait for input: a step of automation, a frame of animation (``fps`` a second), or forever."""
    if app.busy:
        return formulas.AUTOMATION_STEP_SECONDS
    return 1 / fps if app.animated else None


class RunLoop:
    """An app run until its last screen closes, by a frontend that presents it."""

    def __init__(
        self,
        app: App,
        presenter: Presenter,
        gate: KeyGate | None = None,
        clock: Callable[[], float] = time.monotonic,
        console: tcod.console.Console | None = None,
        fps: float = ANIMATION_FPS,
    ) -> None:
        self.app, self.presenter, self.clock, self.fps = app, presenter, clock, fps
        self.gate = gate or KeyGate()
        if console is None:
            console = tcod.console.Console(formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT, order="C")
        self.console = console

    def run(self, wait: Callable[[float | None], Events]) -> None:
        """The loop, waiting for input with ``wait`` (the events within a timeout; None: until one comes)."""
        with self.closing():
            while self.app.running:
                self.take(wait(self.show()))

    async def run_async(self, wait: Callable[[float | None], Awaitable[Events]]) -> None:
        """The same loop, awaiting input."""
        with self.closing():
            while self.app.running:
                self.take(await wait(self.show()))

    def show(self) -> float | None:
        """Draw and present a frame and let the screens save; how long to wait for input."""
        self.app.draw(self.console, self.clock())
        self.presenter.present(self.app, self.console)
        self.app.before_input()
        return wait_timeout(self.app, self.fps)

    def take(self, events: Events) -> None:
        """Hand the events on through the key gate, then let a busy screen take its step."""
        self.gate.pass_events(self.app, events, self.presenter.handle)
        self.app.tick()  # a key would have stopped the automation
        self.gate.after_tick(self.app, self.presenter.handle)

    @contextlib.contextmanager
    def closing(self) -> Iterator[None]:
        """Close every screen on any way out (they save); report a crash and tell the player first."""
        try:
            yield
        except Exception as error:
            self.app.close_all()  # the screens save first, as on any way out
            self.presenter.crashed(report_once(error), self.console)
            raise
        finally:
            self.app.close_all()
