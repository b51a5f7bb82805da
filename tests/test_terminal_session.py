"""The terminal session in-process on a pty pair: modes, signals, restore, detection."""

from __future__ import annotations

import os
import select
import signal
import termios
from collections.abc import Iterator

import pytest

from roguelike.frontend.palette import ColourMode
from roguelike.frontend.terminal import TerminalSetup, esc_delay
from roguelike.frontend.termsession import Capabilities, NoTerminal, TerminalSession


@pytest.fixture
def pty() -> Iterator[tuple[int, int]]:
    """A pseudo-terminal: (master, slave)."""
    master, slave = os.openpty()
    yield master, slave
    for fd in (master, slave):
        try:
            os.close(fd)
        except OSError:
            pass


def drain(master: int) -> bytes:
    """Everything written to the terminal so far.

    Linux hands pty output to the master side on a kernel work queue, so under load a read
    right after the write can see only part of it: read until the pty stays quiet a while.
    """
    chunks: list[bytes] = []
    while select.select([master], [], [], 0.2)[0]:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


def test_session_sets_modes_and_restores_them_exactly(pty: tuple[int, int]) -> None:
    master, slave = pty
    before = termios.tcgetattr(slave)
    with TerminalSession(Capabilities(), slave, slave):
        during = termios.tcgetattr(slave)
        assert not during[3] & (termios.ICANON | termios.ECHO | termios.ISIG)
        assert drain(master).startswith(b"\x1b[?1049h\x1b[?25l\x1b[?1h\x1b=\x1b[?7l")
    assert termios.tcgetattr(slave) == before
    assert drain(master).endswith(b"\x1b[?7h\x1b[?1l\x1b>\x1b[?25h\x1b[?1049l")


def test_session_restores_the_terminal_after_an_exception(pty: tuple[int, int]) -> None:
    master, slave = pty
    before = termios.tcgetattr(slave)
    with pytest.raises(KeyError):
        with TerminalSession(Capabilities(), slave, slave):
            raise KeyError("a screen failed")
    assert termios.tcgetattr(slave) == before
    assert drain(master).endswith(b"\x1b[?1049l")


def test_signals_become_flags_that_wake_the_wait(pty: tuple[int, int]) -> None:
    _, slave = pty
    with TerminalSession(Capabilities(), slave, slave) as session:
        os.kill(os.getpid(), signal.SIGWINCH)
        assert session.read(None) == b""  # woken with no input, not blocked forever
        assert not session.closing
        os.kill(os.getpid(), signal.SIGTERM)
        assert session.read(None) == b""
        assert session.closing


def test_signal_handlers_and_wakeup_fd_are_put_back(pty: tuple[int, int]) -> None:
    _, slave = pty
    before = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    with TerminalSession(Capabilities(), slave, slave):
        assert signal.getsignal(signal.SIGTERM) != before[signal.SIGTERM]
    assert {number: signal.getsignal(number) for number in before} == before
    assert signal.set_wakeup_fd(-1) == -1


def test_input_is_read_and_a_hang_up_ends_it(pty: tuple[int, int]) -> None:
    master, slave = pty
    with TerminalSession(Capabilities(), slave, slave) as session:
        os.write(master, b"\x1b[A")
        assert session.read(None) == b"\x1b[A"
        os.close(master)
        assert session.read(None) is None
        assert session.closing


def test_not_a_terminal_is_refused() -> None:
    read, write = os.pipe()
    try:
        with pytest.raises(NoTerminal):
            TerminalSession(Capabilities(), read, write)
    finally:
        os.close(read)
        os.close(write)


def test_setup_from_a_linux_console_environment() -> None:
    setup = TerminalSetup.detect({"TERM": "linux", "LANG": "C"})
    assert setup.mode is ColourMode.COLOURS_16
    assert not setup.unicode
    assert setup.capabilities.hide_cursor == "\x1b[?25l\x1b[?1c"  # terminfo's own
    assert setup.capabilities.enter_screen == "\x1b[?1049h"  # none in terminfo: xterm's


def test_setup_from_a_modern_terminal_environment() -> None:
    setup = TerminalSetup.detect({"TERM": "xterm-256color", "COLORTERM": "truecolor", "LANG": "en_US.UTF-8"})
    assert setup.mode is ColourMode.TRUECOLOUR
    assert setup.unicode
    assert setup.esc_delay == 0.025


@pytest.mark.parametrize(("env", "seconds"), [({}, 0.025), ({"ESCDELAY": "100"}, 0.1), ({"ESCDELAY": "x"}, 0.025)])
def test_esc_delay(env: dict[str, str], seconds: float) -> None:
    assert esc_delay(env) == seconds


def modes(data: bytes, switch: bytes) -> set[int]:
    """The private modes (``ESC [?Nh`` on, ``ESC [?Nl`` off) the bytes switch."""
    import re

    return {int(number) for group in re.findall(rb"\x1b\[\?([\d;]+)" + switch, data) for number in group.split(b";")}


BRACKETED_PASTE, MOUSE_BUTTONS, SYNCHRONIZED = 2004, 1000, 2026


def test_leaving_turns_off_every_mode_the_game_or_a_killed_program_turns_on() -> None:
    setup, restore = Capabilities().setup(), Capabilities().restore()
    assert modes(setup, b"h") <= modes(restore, b"l")
    stale = {BRACKETED_PASTE, MOUSE_BUTTONS, SYNCHRONIZED}
    assert stale <= modes(restore, b"l") and stale <= modes(setup, b"l")  # off again at every start, too


def test_reset_terminal_gives_a_killed_games_terminal_back(pty: tuple[int, int]) -> None:
    import subprocess
    import sys
    import tty

    from conftest import ROOT

    master, slave = pty
    tty.setraw(slave)  # what kill -9 leaves, with the mouse reports still on
    status = subprocess.run(
        [sys.executable, "-m", "roguelike", "--reset-terminal"],
        cwd=ROOT,
        stdin=slave,
        stdout=slave,
        stderr=subprocess.PIPE,
        timeout=60,
    ).returncode
    written = drain(master)
    assert status == 0
    assert modes(Capabilities().setup(), b"h") | {BRACKETED_PASTE} <= modes(written, b"l")
    assert termios.tcgetattr(slave)[3] & termios.ICANON and termios.tcgetattr(slave)[3] & termios.ECHO
