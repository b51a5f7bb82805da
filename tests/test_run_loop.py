"""The one run loop of the window and the web, and what the list of live games calls a game."""

from __future__ import annotations

import asyncio

import pytest
import tcod.console
import tcod.event
from tcod.event import KeySym, Scancode

from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.frontend.loop import ANIMATION_FPS, Events, RunLoop
from roguelike.frontend.web.live import LiveGame
from roguelike.screens.base import App, Pop, Push, Screen, Transition
from roguelike.screens.help import HelpScreen
from roguelike.screens.ingame import InGameScreen
from roguelike.server.hosted.playing import ANIMATION_FPS as HOSTED_FPS


def key(sym: KeySym) -> tcod.event.KeyDown:
    """A key press."""
    return tcod.event.KeyDown(scancode=Scancode.UNKNOWN, sym=sym, mod=tcod.event.Modifier.NONE)


class Noted(Screen):
    """A screen that notes what the loop asks of it; Esc closes it, Tab opens another on it."""

    def __init__(self, log: list[str], name: str) -> None:
        self.log, self.name = log, name

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """Esc: close; Tab: another screen on top."""
        self.log.append(f"{self.name} key")
        if isinstance(event, tcod.event.KeyDown) and event.sym == KeySym.TAB:
            return Push(Noted(self.log, "top"))
        return Pop() if isinstance(event, tcod.event.KeyDown) and event.sym == KeySym.ESCAPE else None

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """Note the frame."""
        self.log.append(f"{self.name} drawn")

    def before_input(self) -> None:
        """Note the save before input."""
        self.log.append(f"{self.name} saved")


class Presenter:
    """A frontend that notes what it shows."""

    def __init__(self, log: list[str]) -> None:
        self.log = log
        self.app: App | None = None

    def present(self, app: App, console: tcod.console.Console) -> None:
        """Note the frame shown."""
        self.log.append("presented")

    def handle(self, event: tcod.event.Event) -> None:
        """Hand the event to the app."""
        assert self.app is not None
        self.app.handle(event)

    def crashed(self, message: str, console: tcod.console.Console) -> None:
        """No crash expected."""
        raise AssertionError(message)


EXPECTED = [
    "bottom drawn",
    "presented",
    "bottom saved",
    "bottom key",
    "top drawn",
    "presented",
    "bottom saved",
    "top saved",
    "top key",
    "bottom drawn",
    "presented",
    "bottom saved",
    "bottom key",
]


@pytest.mark.parametrize("awaited", [False, True])
def test_each_frame_is_drawn_presented_then_saved_before_input_until_the_stack_empties(awaited: bool) -> None:
    log: list[str] = []
    app = App(Noted(log, "bottom"))
    presenter = Presenter(log)
    presenter.app = app
    keys = [[key(KeySym.TAB)], [key(KeySym.ESCAPE)], [key(KeySym.ESCAPE)]]
    timeouts: list[float | None] = []

    def wait(timeout: float | None) -> Events:
        timeouts.append(timeout)
        return keys.pop(0)

    async def wait_async(timeout: float | None) -> Events:
        return wait(timeout)

    loop = RunLoop(app, presenter)
    if awaited:
        asyncio.run(loop.run_async(wait_async))
    else:
        loop.run(wait)
    assert log == EXPECTED
    assert not app.running and keys == [] and timeouts == [None, None, None]  # nothing due: wait for a key


def test_a_live_game_is_called_by_what_its_screens_show() -> None:
    game = Game.new(3, "Ann")
    try:
        app = App(InGameScreen(Session(game)))
        live = LiveGame(app, "g1")
        assert live.title == "Ann, turn 0"
        app.apply(Push(HelpScreen()))  # a menu over the game: still that game
        assert live.title == "Ann, turn 0"
        app.close_all()
        assert live.title == "at the title screen"
    finally:
        game.close()


class Swirling(Noted):
    """A screen that changes with time alone (a High's swirl)."""

    @property
    def animated(self) -> bool:
        """Always."""
        return True


@pytest.mark.parametrize(("fps", "between"), [(None, 1 / ANIMATION_FPS), (HOSTED_FPS, 1 / HOSTED_FPS)])
def test_an_animated_screen_is_redrawn_at_its_frontends_rate_a_hosted_game_at_its_own(
    fps: float | None, between: float
) -> None:
    log: list[str] = []
    app = App(Swirling(log, "swirl"))
    presenter = Presenter(log)
    presenter.app = app
    timeouts: list[float | None] = []

    def wait(timeout: float | None) -> Events:
        timeouts.append(timeout)
        return [] if len(timeouts) < 3 else [key(KeySym.ESCAPE)]

    (RunLoop(app, presenter) if fps is None else RunLoop(app, presenter, fps=fps)).run(wait)
    assert timeouts == [between] * 3 and log.count("swirl drawn") == 3
    assert HOSTED_FPS < ANIMATION_FPS  # the server's frames cost its shared cores and the network
