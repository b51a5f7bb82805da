"""A game running for the browser: the window's loop on the server, its frames sent to viewers.

:class:`LiveGame` runs the same :class:`~roguelike.screens.base.App` the window runs, with
the loop the window runs (:mod:`roguelike.frontend.loop`), except that the frame goes out as
a message (:mod:`roguelike.frontend.frames`) to every viewer and the events come from the
player's browser. What the list of live games calls a game, the screens say
(:meth:`App.watched <roguelike.screens.base.App.watched>`). One player drives it; any number of spectators
watch. Who gets which frame when (the player at once, spectators on their tick, a newcomer a
keyframe, a slow viewer dropped, a crowd kept from costing the player its game) is
:class:`roguelike.ground.fanout.Fanout`'s, which the hosted server shares. (Each message costs
each connection a write to its socket, which on loopback is most of what a spectator costs.)
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import tcod.console
import tcod.event

from roguelike.content import formulas
from roguelike.frontend.frames import cells_of
from roguelike.frontend.keygate import KeyGate
from roguelike.frontend.loop import RunLoop
from roguelike.ground.fanout import GOING_AWAY as GOING_AWAY
from roguelike.ground.fanout import JOIN_BURST as JOIN_BURST
from roguelike.ground.fanout import JOINS_PER_SECOND as JOINS_PER_SECOND
from roguelike.ground.fanout import MAX_PENDING as MAX_PENDING
from roguelike.ground.fanout import MAX_WATCHERS as MAX_WATCHERS
from roguelike.ground.fanout import NORMAL as NORMAL
from roguelike.ground.fanout import POLICY_VIOLATION as POLICY_VIOLATION
from roguelike.ground.fanout import SPECTATOR_TICK as SPECTATOR_TICK
from roguelike.ground.fanout import TRY_AGAIN_LATER as TRY_AGAIN_LATER
from roguelike.ground.fanout import Fanout
from roguelike.ground.fanout import Message as Message
from roguelike.ground.fanout import Viewer as Viewer
from roguelike.render.look import finish_frame
from roguelike.screens import ambient
from roguelike.screens.base import App


class LiveGame(Fanout):
    """An app run for a browser player, with its spectators."""

    def __init__(self, app: App, game_id: str, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT, clock)
        self.app = app
        self.id = game_id
        self.console = tcod.console.Console(formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT, order="C")
        self.events: asyncio.Queue[tcod.event.Event] = asyncio.Queue()
        self.gate = KeyGate(poll=self.queued_events)
        self.crash: Exception | None = None

    @property
    def title(self) -> str:
        """What the list of live games calls this one: who plays (or is watched), or the title screen."""
        return self.app.watched() or "at the title screen"

    async def run(self) -> None:
        """The window's loop, until the last screen closes; the screens always get to save.

        A crash is reported as the window reports it (the files written, the player told on
        the page), then kept in :attr:`crash` for the command to end with.
        """
        try:
            await RunLoop(self.app, self, self.gate, self.clock, self.console).run_async(self.wait)
        except Exception as error:
            self.crash = error
            raise
        finally:
            self.finish("The game closed; it is saved. Run hedonic again to go on.")

    def present(self, app: App, console: tcod.console.Console) -> None:
        """Send what changed on the drawn screen to every viewer."""
        finish_frame(console, ambient.look())
        self.send(console)

    def handle(self, event: tcod.event.Event) -> None:
        """The player's event, to the screens."""
        self.app.handle(event)

    def crashed(self, message: str, console: tcod.console.Console) -> None:
        """Tell every viewer what the crash report says, and end their connections."""
        self.finish(message)

    def send(self, console: tcod.console.Console) -> None:
        """Send what changed on the screen: to the player at once, to spectators on their tick."""
        self.send_cells(cells_of(console))

    async def wait(self, timeout: float | None) -> list[tcod.event.Event]:
        """The events that came within ``timeout`` seconds (None: until one comes)."""
        try:
            first = await asyncio.wait_for(self.events.get(), timeout)
        except TimeoutError:
            return []
        return [first, *self.queued_events()]

    def queued_events(self) -> list[tcod.event.Event]:
        """Every event already waiting, taken off the queue."""
        found = []
        while not self.events.empty():
            found.append(self.events.get_nowait())
        return found
