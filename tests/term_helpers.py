"""Helpers for driving the terminal loop in-process: a scripted terminal and an xterm setup."""

from __future__ import annotations

import io

import pyte
from blessed import Terminal

from roguelike.frontend.palette import ColourMode
from roguelike.frontend.terminal import TerminalSetup
from roguelike.frontend.termkeys import KeyDecoder
from roguelike.frontend.termsession import Capabilities


class ScriptedTerminal:
    """A terminal whose reads come from a script (b"": a wait that timed out; the end of
    the script: the terminal went away), drawing into a pyte screen of its size."""

    def __init__(self, script: list[bytes], size: tuple[int, int] = (80, 25)) -> None:
        self.script = iter(script)
        self.columns, self.rows = size
        self.screen = pyte.Screen(*size)
        self.stream = pyte.ByteStream(self.screen)
        self.timeouts: list[float | None] = []

    @property
    def closing(self) -> bool:
        return False

    def size(self) -> tuple[int, int]:
        return self.columns, self.rows

    def write(self, data: bytes) -> None:
        self.stream.feed(data)

    def read(self, timeout: float | None) -> bytes | None:
        self.timeouts.append(timeout)
        return next(self.script, None)

    def suspend(self) -> None:
        """Ctrl-Z: nothing to stop in a script."""

    def take_redraw(self) -> bool:
        return False

    def text(self) -> str:
        """Everything on the screen."""
        return "\n".join(self.screen.display)


def xterm_setup(screen_reader: bool = False) -> TerminalSetup:
    """An xterm in truecolour with a 25 ms Esc delay (for a screen reader if asked)."""
    terminal = Terminal(kind="xterm-256color", stream=io.StringIO(), force_styling=True)
    return TerminalSetup(Capabilities(), KeyDecoder(terminal), ColourMode.TRUECOLOUR, True, 0.025, screen_reader)
