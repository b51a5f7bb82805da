"""Owning the terminal for a game, and always giving it back as it was.

A :class:`TerminalSession` puts the terminal in raw mode, switches to the alternate
screen, hides the cursor, turns on application keypad mode and mouse reports and turns
off line wrap; on
the way out (quit, exception, signal) it undoes every one of these, whatever happened.
Every catchable signal whose default would end the program (SIGINT, SIGTERM, SIGHUP,
SIGQUIT, SIGUSR1 ...), SIGWINCH, SIGTSTP and SIGCONT only set a flag and wake the input
wait through a self-pipe (``signal.set_wakeup_fd``), so the game loop decides what to do
next and a save is never interrupted half-way. Ctrl-Z (or SIGTSTP) gives the terminal
back and stops the program; ``fg`` brings it back in its modes, redrawn. A terminal left
raw by a program that was killed (kill -9 leaves no chance to clean up) is repaired to a
sane mode at start, rather than kept as "the terminal's own".
"""

from __future__ import annotations

import os
import select
import signal
import termios
import tty
from dataclasses import dataclass
from types import FrameType, TracebackType
from typing import Any

from blessed import Terminal

# Signals whose default action ends the program (those that exist on this platform).
CLOSING_SIGNALS = frozenset(
    getattr(signal, name)
    for name in (
        "SIGINT",
        "SIGTERM",
        "SIGHUP",
        "SIGQUIT",
        "SIGUSR1",
        "SIGUSR2",
        "SIGALRM",
        "SIGVTALRM",
        "SIGPROF",
        "SIGXCPU",
        "SIGPWR",
    )
    if hasattr(signal, name)
)
STOP, CONTINUE = signal.SIGTSTP, signal.SIGCONT
CAUGHT_SIGNALS = (*sorted(CLOSING_SIGNALS), signal.SIGWINCH, STOP, CONTINUE)
READ_SIZE = 4096
WRAP_OFF, WRAP_ON = "\x1b[?7l", "\x1b[?7h"
# Mouse reports: buttons and any motion, in the SGR encoding (no limit on the column).
MOUSE_ON, MOUSE_OFF = "\x1b[?1003h\x1b[?1006h", "\x1b[?1006l\x1b[?1003l"
RESET_CLEAR_HOME = "\x1b[0m\x1b[2J\x1b[H"
# Modes a killed program (this game, or another) can leave on, which the game never wants:
# the other mouse reports and encodings, bracketed paste (a paste would arrive wrapped in
# ESC[200~ ... ESC[201~) and synchronized output (a frame cut short by kill -9).
STALE_MODES_OFF = "\x1b[?1000l\x1b[?1002l\x1b[?1005l\x1b[?1015l\x1b[?2004l\x1b[?2026l"


class NoTerminal(RuntimeError):
    """Standard input or output is not a terminal, so there is nothing to play in."""


@dataclass(frozen=True)
class Capabilities:
    """The terminal's own sequences for the modes the game switches (from terminfo)."""

    enter_screen: str = "\x1b[?1049h"
    leave_screen: str = "\x1b[?1049l"
    hide_cursor: str = "\x1b[?25l"
    show_cursor: str = "\x1b[?25h"
    keypad_on: str = "\x1b[?1h\x1b="
    keypad_off: str = "\x1b[?1l\x1b>"

    @classmethod
    def of(cls, terminal: Terminal) -> Capabilities:
        """The terminfo sequences of ``terminal``, with xterm's where terminfo has none."""
        default = cls()
        return cls(
            enter_screen=terminal.enter_fullscreen or default.enter_screen,
            leave_screen=terminal.exit_fullscreen or default.leave_screen,
            hide_cursor=terminal.hide_cursor or default.hide_cursor,
            show_cursor=terminal.normal_cursor or default.show_cursor,
            keypad_on=terminal.smkx or default.keypad_on,
            keypad_off=terminal.rmkx or default.keypad_off,
        )

    def setup(self) -> bytes:
        """Bytes that put the terminal in the game's modes (and only those: stale ones go off)."""
        return (
            self.enter_screen
            + self.hide_cursor
            + self.keypad_on
            + WRAP_OFF
            + STALE_MODES_OFF
            + MOUSE_ON
            + RESET_CLEAR_HOME
        ).encode()

    def restore(self) -> bytes:
        """Bytes that undo :meth:`setup` (the screen is cleared in case there is no alternate one)."""
        return (
            STALE_MODES_OFF
            + RESET_CLEAR_HOME
            + MOUSE_OFF
            + WRAP_ON
            + self.keypad_off
            + self.show_cursor
            + self.leave_screen
        ).encode()


def reset_terminal(fd_in: int = 0, fd_out: int = 1) -> bool:
    """``hedonic --reset-terminal``: every mode the game sets turned off and the tty made sane
    (after a game killed with kill -9); False when there is no terminal to reset."""
    if not os.isatty(fd_out):
        return False
    os.write(fd_out, Capabilities().restore())
    if os.isatty(fd_in):
        termios.tcsetattr(fd_in, termios.TCSADRAIN, sane(termios.tcgetattr(fd_in)))
    return True


def sane(mode: list[Any]) -> list[Any]:
    """A terminal mode, repaired if it is raw (no line editing, no echo): what ``stty sane`` sets."""
    iflag, oflag, cflag, lflag, ispeed, ospeed, cc = mode
    if lflag & (termios.ICANON | termios.ECHO):
        return mode
    iflag = (iflag | termios.BRKINT | termios.ICRNL | termios.IXON) & ~(termios.INLCR | termios.IGNCR)
    oflag |= termios.OPOST | termios.ONLCR
    cflag |= termios.CREAD
    lflag |= termios.ISIG | termios.ICANON | termios.ECHO | termios.ECHOE | termios.ECHOK | termios.IEXTEN
    return [iflag, oflag, cflag, lflag, ispeed, ospeed, cc]


class TerminalSession:
    """The terminal in the game's modes, with signals turned into flags."""

    def __init__(self, capabilities: Capabilities, fd_in: int = 0, fd_out: int = 1) -> None:
        if not (os.isatty(fd_in) and os.isatty(fd_out)):
            raise NoTerminal("standard input and output are not both a terminal")
        self.capabilities = capabilities
        self.fd_in, self.fd_out = fd_in, fd_out
        self.signals: list[int] = []
        self.lost = False
        self.saved_mode: list[Any] = []
        self.saved_handlers: dict[int, object] = {}
        self.saved_wakeup = -1
        self.wake_read, self.wake_write = -1, -1

    def __enter__(self) -> TerminalSession:
        self.saved_mode = sane(termios.tcgetattr(self.fd_in))
        self.install_signals()
        try:
            self.take_over()
        except BaseException:
            self.restore()
            raise
        return self

    def take_over(self) -> None:
        """Raw mode and the game's screen modes."""
        tty.setraw(self.fd_in, termios.TCSANOW)
        self.write(self.capabilities.setup())

    def give_back(self) -> None:
        """The terminal as it was before the game (the session goes on)."""
        try:
            self.write(self.capabilities.restore())
            termios.tcsetattr(self.fd_in, termios.TCSADRAIN, self.saved_mode)
        except (OSError, termios.error):
            pass  # the terminal is gone (hang-up): nothing left to restore

    def suspend(self) -> None:
        """Ctrl-Z: give the terminal back and stop; on ``fg``, take it again (redraw after this)."""
        self.give_back()
        signal.signal(STOP, signal.SIG_DFL)
        os.kill(os.getpid(), STOP)  # the program stops here until the shell continues it
        signal.signal(STOP, self.on_signal)
        self.signals = [number for number in self.signals if number not in (STOP, CONTINUE)]
        self.take_over()

    def take_redraw(self) -> bool:
        """Act on SIGTSTP (suspend) and SIGCONT (take the terminal again); whether to redraw it all."""
        stopped, continued = STOP in self.signals, CONTINUE in self.signals
        self.signals = [number for number in self.signals if number not in (STOP, CONTINUE)]
        if stopped:
            self.suspend()
        elif continued:  # stopped by something we could not catch (SIGSTOP): the shell may have reset the modes
            self.take_over()
        return stopped or continued

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.restore()

    def restore(self) -> None:
        """Give the terminal back: modes, screen, cursor, signal handlers."""
        try:
            self.give_back()
        finally:
            self.uninstall_signals()

    def install_signals(self) -> None:
        """Catch the closing signals and SIGWINCH; wake the input wait when one comes."""
        self.wake_read, self.wake_write = os.pipe()
        os.set_blocking(self.wake_read, False)
        os.set_blocking(self.wake_write, False)
        self.saved_wakeup = signal.set_wakeup_fd(self.wake_write, warn_on_full_buffer=False)
        for number in CAUGHT_SIGNALS:
            self.saved_handlers[number] = signal.signal(number, self.on_signal)

    def uninstall_signals(self) -> None:
        """Put back the signal handlers and wake-up descriptor that were there before."""
        for number, handler in self.saved_handlers.items():
            signal.signal(number, handler)  # type: ignore[arg-type]
        self.saved_handlers.clear()
        signal.set_wakeup_fd(self.saved_wakeup)
        for fd in (self.wake_read, self.wake_write):
            os.close(fd)
        self.wake_read, self.wake_write = -1, -1

    def on_signal(self, number: int, frame: FrameType | None) -> None:
        """Remember a signal; the game loop acts on it after the current step."""
        self.signals.append(number)

    @property
    def ended_by(self) -> int | None:
        """The first signal that asked the program to end, if one did."""
        return next((number for number in self.signals if number in CLOSING_SIGNALS), None)

    @property
    def closing(self) -> bool:
        """Whether a signal asked the program to end, or the terminal went away."""
        return self.lost or any(number in CLOSING_SIGNALS for number in self.signals)

    def size(self) -> tuple[int, int]:
        """Columns and rows of the terminal now."""
        columns, rows = os.get_terminal_size(self.fd_out)
        return columns, rows

    def write(self, data: bytes) -> None:
        """Write all of ``data``; a terminal that fails the write is marked lost."""
        view = memoryview(data)
        while view and not self.lost:
            try:
                view = view[os.write(self.fd_out, view) :]
            except OSError:
                self.lost = True

    def read(self, timeout: float | None) -> bytes | None:
        """Input bytes, waiting up to ``timeout`` (None: forever); b"" if a signal or the
        timeout woke us first, None once the terminal has no more input (hang-up)."""
        ready, _, _ = select.select([self.fd_in, self.wake_read], [], [], timeout)
        if self.wake_read in ready:
            self.drain_wakeups()
        if self.fd_in not in ready:
            return b""
        try:
            data = os.read(self.fd_in, READ_SIZE)
        except OSError:
            data = b""
        if not data:
            self.lost = True
            return None
        return data

    def drain_wakeups(self) -> None:
        """Empty the self-pipe so the next wait blocks again."""
        try:
            while os.read(self.wake_read, READ_SIZE):
                pass
        except BlockingIOError:
            pass
