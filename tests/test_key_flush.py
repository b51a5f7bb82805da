"""Keys typed ahead of something appearing are dropped, in the terminal and in the window."""

from __future__ import annotations

from collections.abc import Callable

import tcod.console
import tcod.event
from tcod.event import KeySym

from bestiary_helpers import add_monster, arena
from roguelike.core.session import Session
from roguelike.frontend.keygate import KeyGate
from roguelike.frontend.terminal import TerminalLoop
from roguelike.screens.base import App, Transition
from roguelike.screens.ingame import InGameScreen
from save_helpers import key
from test_terminal_loop import Clock, Read, Recorder, ScriptedTerminal, setup


class Interrupting(Recorder):
    """A recorder that interrupts after the key J, as the game does when a monster appears."""

    def __init__(self) -> None:
        super().__init__()
        self.pending = False

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        result = super().on_event(event)
        self.pending = isinstance(event, tcod.event.KeyDown) and event.sym == KeySym.J
        return result

    def take_interrupt(self) -> bool:
        pending, self.pending = self.pending, False
        return pending


def test_the_terminal_drops_keys_typed_ahead_and_held_after_an_interruption() -> None:
    screen, clock = Interrupting(), Clock()

    def later(seconds: float) -> Callable[[], object]:
        return lambda: setattr(clock, "now", clock.now + seconds)

    script: list[Read] = [b"hjkl", later(0.1), b"k", later(0.1), b"k", later(1.0), b"l", b"q"]
    TerminalLoop(App(screen), ScriptedTerminal(script), setup(), clock).run()
    assert screen.keys == ["H", "J", "L", "Q"]  # k l typed ahead, k k held: dropped


def press(sym: KeySym, repeat: bool = False) -> tcod.event.KeyDown:
    """A key press, or its automatic repeat while held."""
    return tcod.event.KeyDown(
        scancode=tcod.event.Scancode.UNKNOWN, sym=sym, mod=tcod.event.Modifier.NONE, repeat=repeat
    )


def test_the_window_drops_repeats_of_a_key_held_through_an_interruption() -> None:
    screen = Interrupting()
    app, gate = App(screen), KeyGate(poll=lambda: [press(KeySym.K)])
    gate.pass_events(app, [press(KeySym.J), press(KeySym.K)], app.handle)
    gate.pass_events(app, [press(KeySym.J, repeat=True), press(KeySym.J, repeat=True)], app.handle)
    release = tcod.event.KeyUp(scancode=tcod.event.Scancode.UNKNOWN, sym=KeySym.J, mod=tcod.event.Modifier.NONE)
    gate.pass_events(app, [release, press(KeySym.L)], app.handle)
    assert screen.keys == ["J", "L"]


def test_the_game_interrupts_when_a_monster_comes_into_view_and_not_otherwise() -> None:
    game = arena(["#########", "#@......#", "###+#####", "#.......#", "#########"])
    add_monster(game, "voices", 3, 3)
    screen = InGameScreen(Session(game))
    screen.on_event(key(KeySym.PERIOD))
    assert not screen.take_interrupt()
    screen.on_event(key(KeySym.RIGHT))
    screen.on_event(key(KeySym.RIGHT))
    assert not screen.take_interrupt()
    screen.on_event(key(KeySym.DOWN))  # bumps the door open: the Voices are seen
    assert screen.take_interrupt() and not screen.take_interrupt()
    console = tcod.console.Console(80, 25, order="C")
    screen.on_draw(console, 0.0)


def test_ctrl_c_still_saves_and_quits_while_keys_are_being_dropped() -> None:
    screen, clock = Interrupting(), Clock()
    script: list[Read] = [b"j", b"k\x03", b"l"]
    TerminalLoop(App(screen), ScriptedTerminal(script), setup(), clock).run()
    assert screen.keys == ["J"] and screen.closed == 1
