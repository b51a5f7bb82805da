"""The terminal game loop, driven in-process with a scripted terminal and a fake clock."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator

import pyte
import pytest
import tcod.console
import tcod.event
from blessed import Terminal

from roguelike.frontend.palette import ColourMode
from roguelike.frontend.terminal import TerminalLoop, TerminalSetup, too_small_message
from roguelike.frontend.termkeys import KeyDecoder
from roguelike.frontend.termsession import Capabilities
from roguelike.screens.base import App, Quit, Screen, Transition


class Clock:
    """A clock that only moves when told."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


# What one read of the scripted terminal gives: bytes, b"" (woken, no input), None (hang-up),
# or a callable run at that point (a resize, a signal, time passing).
Read = bytes | None | Callable[[], object]


class ScriptedTerminal:
    """A terminal whose input is a script of reads (see :data:`Read`)."""

    def __init__(self, script: list[Read], size: tuple[int, int] = (80, 25)) -> None:
        self.script: Iterator[Read] = iter(script)
        self.current_size = size
        self.timeouts: list[float | None] = []
        self.screen = pyte.Screen(120, 40)
        self.stream = pyte.ByteStream(self.screen)
        self.written: list[bytes] = []
        self.signalled = False

    @property
    def closing(self) -> bool:
        return self.signalled

    def size(self) -> tuple[int, int]:
        return self.current_size

    def write(self, data: bytes) -> None:
        self.written.append(data)
        self.stream.feed(data)

    def read(self, timeout: float | None) -> bytes | None:
        self.timeouts.append(timeout)
        for step in self.script:
            if callable(step):
                step()
                continue
            return step
        raise AssertionError("the loop read past the end of the script")

    def suspend(self) -> None:
        self.suspended = getattr(self, "suspended", 0) + 1

    def take_redraw(self) -> bool:
        return False

    def row(self, y: int) -> str:
        return self.screen.display[y]


class Recorder(Screen):
    """A screen that shows the keys it got and the time it was drawn at."""

    def __init__(self, animated: bool = False) -> None:
        self.animating = animated
        self.keys: list[str] = []
        self.draws: list[float] = []
        self.closed = 0

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if isinstance(event, tcod.event.KeyDown):
            self.keys.append(event.sym.name)
            if event.sym == tcod.event.KeySym.Q:
                return Quit()
        return None

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        self.draws.append(now)
        console.print(0, 0, "keys: " + " ".join(self.keys))

    @property
    def animated(self) -> bool:
        return self.animating

    def on_close(self) -> None:
        self.closed += 1


def setup() -> TerminalSetup:
    """The setup of an xterm in truecolour, with a 25 ms Esc delay."""
    terminal = Terminal(kind="xterm-256color", stream=io.StringIO(), force_styling=True)
    return TerminalSetup(Capabilities(), KeyDecoder(terminal), ColourMode.TRUECOLOUR, True, 0.025)


def run(
    screen: Recorder, script: list[Read], size: tuple[int, int] = (80, 25), clock: Clock | None = None
) -> ScriptedTerminal:
    """Run the loop over a script until the app closes or the script hangs up."""
    terminal = ScriptedTerminal(script, size)
    TerminalLoop(App(screen), terminal, setup(), clock or Clock()).run()
    return terminal


def test_keys_reach_the_screen_and_each_batch_is_drawn() -> None:
    screen = Recorder()
    terminal = run(screen, [b"\x1b[A", b"hj", b"q"])
    assert screen.keys == ["UP", "H", "J", "Q"]
    assert len(screen.draws) == 3  # the first frame, then once per read that changed something
    assert terminal.row(0).startswith("keys: UP H J")


def test_idle_loop_blocks_on_input_with_no_timeout() -> None:
    terminal = run(Recorder(), [b"h", b"j", None])
    assert terminal.timeouts == [None, None, None]


def test_ctrl_c_closes_the_app_so_screens_save() -> None:
    screen = Recorder()
    run(screen, [b"h", b"\x03", b"j"])
    assert screen.keys == ["H"]
    assert screen.closed == 1


def test_a_closing_signal_ends_the_loop_before_more_keys() -> None:
    screen = Recorder()

    def signal() -> None:
        terminal.signalled = True

    terminal = ScriptedTerminal([b"h", signal, b"j"])
    TerminalLoop(App(screen), terminal, setup(), Clock()).run()
    assert screen.keys == ["H"]


def test_hang_up_ends_the_loop() -> None:
    screen = Recorder()
    run(screen, [b"h", None])
    assert screen.keys == ["H"]


def test_lone_escape_is_delivered_once_its_delay_is_over() -> None:
    clock = Clock()
    screen = Recorder()

    def later() -> None:
        clock.now += 0.03

    terminal = run(screen, [b"\x1b", b"", later, b"", b"q"], clock=clock)
    assert screen.keys == ["ESCAPE", "Q"]
    assert terminal.timeouts[1] == pytest.approx(0.025)  # waiting for the rest of a sequence, not forever


def test_escape_sequence_split_across_reads_is_not_an_escape() -> None:
    screen = Recorder()
    run(screen, [b"\x1b", b"[B", b"q"])
    assert screen.keys == ["DOWN", "Q"]


def test_animated_screen_redraws_on_a_capped_timer() -> None:
    clock = Clock()
    screen = Recorder(animated=True)

    def tick() -> None:
        clock.now += 0.01

    terminal = run(screen, [tick, b"", tick, b"", tick, tick, tick, b"", b"q"], clock=clock)
    assert screen.draws == pytest.approx([100.0, 100.05])
    assert terminal.timeouts[:3] == pytest.approx([0.05, 0.04, 0.03])


def test_small_terminal_pauses_with_a_message_and_resumes() -> None:
    screen = Recorder()
    terminal = ScriptedTerminal([])

    def grow() -> None:
        terminal.current_size = (100, 30)

    terminal.script = iter([b"h", grow, b"", b"j", b"q"])
    terminal.current_size = (60, 20)
    TerminalLoop(App(screen), terminal, setup(), Clock()).run()
    assert screen.keys == ["J", "Q"]  # h came while paused
    assert b"make the terminal at least 80x25" in terminal.written[0]
    assert terminal.row(2).startswith("          keys: J")  # centred in 100x30: 10 columns in, 2 rows down


def test_ctrl_c_still_quits_while_paused() -> None:
    screen = Recorder()
    run(screen, [b"\x03"], size=(40, 10))
    assert screen.closed == 1
    assert screen.draws == []


def test_ctrl_l_redraws_everything() -> None:
    screen = Recorder()
    terminal = run(screen, [b"h", b"\x0c", b"q"])
    assert screen.keys == ["H", "Q"]  # Ctrl-L is the frontend's, not the screens'
    assert b"\x1b[2J" in terminal.written[-1]
    assert terminal.row(0).startswith("keys: H")


def test_too_small_message_fits_the_width() -> None:
    message = too_small_message(30, 10).decode()
    screen = pyte.Screen(30, 10)
    pyte.ByteStream(screen).feed(message.encode())
    text = " ".join(line.strip() for line in screen.display)
    assert "make the terminal at least 80x25" in text
    assert "30x10" in text
