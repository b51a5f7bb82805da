"""The real program in a real pseudo-terminal, read back through pyte (a VT emulator).

Each test starts ``python -m roguelike play --terminal`` on a fresh pty that is the
child's controlling terminal (so resizes send it SIGWINCH), types keys as a terminal
would send them and waits, with a generous limit, for the screen to show what it must.
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable
from pathlib import Path

import pyte
import pytest

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 30.0  # seconds: only a bound against hanging, never a speed requirement
UP, DOWN, LEFT, RIGHT = b"\x1bOA", b"\x1bOB", b"\x1bOD", b"\x1bOC"

pytestmark = pytest.mark.slow


def controlling_terminal() -> None:
    """In the child: make its standard input the controlling terminal of its session."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def set_size(fd: int, columns: int, rows: int) -> None:
    """Set a pty's size (the kernel tells the foreground process with SIGWINCH)."""
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


def game_env(data: Path, **extra: str) -> dict[str, str]:
    """An environment like a user's terminal: xterm, truecolour, UTF-8, no display."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "NO_COLOR", "TMUX")
    }
    env.update(
        TERM="xterm-256color",
        COLORTERM="truecolor",
        LANG="C.UTF-8",
        LC_ALL="",
        HEDONIC_DATA_DIR=str(data),
        HOME=str(data.parent),
        PYTHONPATH=str(ROOT),
    )
    env.update(extra)
    return env


class PtyGame:
    """The game running in a pty, with a pyte screen that follows its output."""

    def __init__(
        self,
        data: Path,
        columns: int = 80,
        rows: int = 25,
        args: tuple[str, ...] = ("--terminal",),
        program: tuple[str, ...] = ("-m", "roguelike", "play"),
        **env: str,
    ) -> None:
        self.master, self.slave = os.openpty()
        set_size(self.slave, columns, rows)
        self.modes_before = termios.tcgetattr(self.slave)
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.output = bytearray()
        self.process = subprocess.Popen(
            [sys.executable, *program, *args],
            cwd=ROOT,
            env=game_env(data, **env),
            stdin=self.slave,
            stdout=self.slave,
            stderr=self.slave,
            start_new_session=True,
            preexec_fn=controlling_terminal,
        )

    def close(self) -> None:
        """Stop the game if it still runs and close the pty."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        for fd in (self.master, self.slave):
            if fd >= 0:
                os.close(fd)
        self.master = self.slave = -1

    def hang_up(self) -> None:
        """Close the terminal under the program, as when its window or connection goes."""
        os.close(self.master)
        os.close(self.slave)
        self.master = self.slave = -1

    def pump(self, timeout: float) -> None:
        """Feed whatever output arrives within ``timeout`` to the screen."""
        ready, _, _ = select.select([self.master], [], [], timeout)
        if ready:
            data = os.read(self.master, 65536)
            self.output.extend(data)
            self.stream.feed(data)

    def wait_for(self, what: str | Callable[[], bool]) -> None:
        """Wait until the screen shows ``what`` (text, or a condition)."""
        check: Callable[[], bool] = (lambda: what in self.text) if isinstance(what, str) else what
        deadline = time.monotonic() + LIMIT
        while not check():
            if time.monotonic() > deadline:
                raise AssertionError(f"waited for {what!r}; the screen shows:\n{self.text}")
            self.pump(0.05)

    def wait_exit(self) -> int:
        """Wait for the program to end, reading its last output; its exit status."""
        deadline = time.monotonic() + LIMIT
        while self.process.poll() is None and time.monotonic() < deadline:
            self.pump(0.05)
        self.pump(0.1)
        if self.process.poll() is None:
            raise AssertionError(f"the program is still running; the screen shows:\n{self.text}")
        return self.process.returncode

    def send(self, keys: bytes) -> None:
        """Type keys as the terminal would send them."""
        os.write(self.master, keys)

    def resize(self, columns: int, rows: int) -> None:
        """Resize the terminal, as dragging a window's corner does."""
        self.screen.resize(rows, columns)
        set_size(self.master, columns, rows)

    @property
    def text(self) -> str:
        """Everything on the screen, one line per row."""
        return "\n".join(self.screen.display)

    def choose(self, label: str) -> None:
        """Pick a menu entry: move the cursor (down arrow) onto it, then Enter."""
        selected = re.compile(rf">\s*\d+\.\s*{re.escape(label)}")
        self.wait_for(label)
        for _ in range(10):
            if selected.search(self.text):
                before = self.text
                self.send(b"\r")
                self.wait_for(lambda: self.text != before or self.process.poll() is not None)
                return
            before = self.text
            self.send(DOWN)
            self.wait_for(lambda: self.text != before)
        raise AssertionError(f"could not select {label!r}:\n{self.text}")

    def player(self) -> tuple[int, int]:
        """Where the '@' is (x, y)."""
        found = [(line.index("@"), y) for y, line in enumerate(self.screen.display) if "@" in line]
        assert len(found) == 1, self.text
        return found[0]


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """A data directory of the test's own."""
    return tmp_path / "data"


def start_new_game(game: PtyGame) -> None:
    """From the title to the first turn of a new game, typing a name if asked for one."""
    game.wait_for("H E D O N I C")
    game.choose("New game")
    game.wait_for(lambda: "Turn" in game.text or "name" in game.text)
    if "Turn" not in game.text:
        game.send(b"Tessa")
        game.wait_for("Tessa")
        game.send(b"\x7f")  # Backspace, as terminals send it
        game.wait_for(lambda: "Tess" in game.text and "Tessa" not in game.text)
        game.send(b"\r")
    game.wait_for("Turn")


def step_somewhere(game: PtyGame) -> None:
    """Move the player to a free neighbouring floor cell, each direction by another key form."""
    x, y = game.player()
    # Arrow (application cursor mode), numpad in application keypad mode, vi-key, plain arrow.
    moves = [(0, -1, UP), (0, 1, b"\x1bOr"), (-1, 0, b"h"), (1, 0, b"\x1b[C")]
    for dx, dy, key in moves:
        if game.screen.display[y + dy][x + dx] == ".":
            game.send(key)
            game.wait_for(lambda: game.player() == (x + dx, y + dy))
            return
    raise AssertionError(f"no free floor next to the player:\n{game.text}")


def assert_restored(game: PtyGame) -> None:
    """The terminal is as it was: tty modes, main screen, cursor, keypad, line wrap."""
    assert termios.tcgetattr(game.slave) == game.modes_before
    tail = bytes(game.output[game.output.rindex(b"\x1b[?2026l") :])
    for sequence in (b"\x1b[?1049l", b"\x1b[?25h", b"\x1b[?1l\x1b>", b"\x1b[?7h", b"\x1b[0m"):
        assert sequence in tail, sequence
    assert not game.screen.cursor.hidden


def test_play_quit_from_the_menus_and_start_again(data: Path) -> None:
    game = PtyGame(data)
    try:
        game.wait_for("H E D O N I C")
        assert game.output.startswith(b"\x1b[?1049h")
        assert game.screen.cursor.hidden
        start_new_game(game)
        step_somewhere(game)
        game.send(b"\x1b")
        game.wait_for("Menu")
        game.choose("Quit")
        game.choose("Quit")
        assert game.wait_exit() == 0
        assert_restored(game)
    finally:
        game.close()
    again = PtyGame(data)
    try:
        again.wait_for("H E D O N I C")
        again.choose("Quit")
        assert again.wait_exit() == 0
    finally:
        again.close()


@pytest.mark.parametrize("how", ["ctrl-c", "SIGTERM", "SIGHUP"])
def test_interrupted_game_closes_cleanly_and_restores_the_terminal(data: Path, how: str) -> None:
    game = PtyGame(data)
    try:
        start_new_game(game)
        step_somewhere(game)
        if how == "ctrl-c":
            game.send(b"\x03")
        else:
            game.process.send_signal(getattr(signal, how))
        assert game.wait_exit() == (0 if how == "ctrl-c" else 128 + getattr(signal, how))  # saved, then 128+n
        assert_restored(game)
    finally:
        game.close()
    again = PtyGame(data)
    try:
        again.wait_for("Tess")  # the title offers the interrupted game back
        again.send(b"\x03")
        assert again.wait_exit() == 0
    finally:
        again.close()


# A stand-in for the game whose screen writes down how it was closed (the real screens
# save there), so the tests see that every way out closes the screens first.
RECORDING_APP = """
import sys, termios, tcod.event
from roguelike.screens.base import App, Screen
from roguelike.frontend.terminal import run_terminal

class Recording(Screen):
    def __init__(self):
        self.keys = []
    def on_event(self, event):
        if isinstance(event, tcod.event.KeyDown):
            self.keys.append(event.sym.name)
            if event.sym == tcod.event.KeySym.X:
                raise ValueError("the screen failed")
        return None
    def on_draw(self, console, now):
        console.print(0, 0, "ready " + " ".join(self.keys))
    def on_close(self):
        try:
            mode = "cooked" if termios.tcgetattr(0)[3] & termios.ICANON else "raw"
        except termios.error:
            mode = "gone"
        with open(sys.argv[1], "w") as closed:
            closed.write(" ".join(self.keys + [mode]))

run_terminal(App(Recording()))
"""


def recording_app(tmp_path: Path) -> tuple[PtyGame, Path]:
    """The recording stand-in in a pty, and the file it writes when closed."""
    closed = tmp_path / "closed"
    game = PtyGame(tmp_path / "data", program=("-c", RECORDING_APP), args=(str(closed),))
    game.wait_for("ready")
    game.send(b"k")
    game.wait_for("ready K")
    return game, closed


@pytest.mark.parametrize("how", ["ctrl-c", "SIGINT", "SIGTERM", "SIGHUP"])
def test_every_way_out_closes_the_screens_before_restoring(tmp_path: Path, how: str) -> None:
    game, closed = recording_app(tmp_path)
    try:
        if how == "ctrl-c":
            game.send(b"\x03")
        else:
            game.process.send_signal(getattr(signal, how))
        assert game.wait_exit() == 0
        assert closed.read_text() == "K raw"  # closed while the game still owned the terminal
        assert_restored(game)
    finally:
        game.close()


def test_terminal_hang_up_still_closes_the_screens(tmp_path: Path) -> None:
    game, closed = recording_app(tmp_path)
    try:
        game.hang_up()
        assert game.process.wait(timeout=LIMIT) == 0
        assert closed.read_text().startswith("K ")
    finally:
        game.close()


def test_a_crash_restores_the_terminal_and_shows_the_error(tmp_path: Path) -> None:
    game, closed = recording_app(tmp_path)
    try:
        game.send(b"x")
        assert game.wait_exit() == 1
        assert_restored(game)
        assert b"the screen failed" in game.output[game.output.rindex(b"\x1b[?1049l") :]
        assert closed.read_text() == "K X raw"
    finally:
        game.close()


def test_small_terminal_shows_the_resize_message_then_plays(data: Path) -> None:
    game = PtyGame(data, columns=60, rows=20)
    try:
        game.wait_for(lambda: "make the terminal at least 80x25" in game.text.replace("\n", " "))
        assert "H E D O N I C" not in game.text
        game.resize(100, 30)
        game.wait_for("H E D O N I C")
        assert game.screen.display[7].index("H E D O N I C") == 10 + 22  # centred: 10 columns in
        game.resize(70, 30)
        game.wait_for(lambda: "make the terminal at least 80x25" in game.text.replace("\n", " "))
        game.resize(80, 25)
        game.choose("Quit")
        assert game.wait_exit() == 0
    finally:
        game.close()


def test_ascii_locale_and_16_colours_still_play(data: Path) -> None:
    game = PtyGame(data, LANG="C", COLORTERM="", TERM="linux")
    try:
        start_new_game(game)
        step_somewhere(game)
        assert max(game.output) < 0x80  # nothing but ASCII reached a non-UTF-8 terminal
        assert b"38;2;" not in game.output and b"38;5;" not in game.output
        game.send(b"\x03")
        assert game.wait_exit() == 0
    finally:
        game.close()


def test_without_a_terminal_it_says_so(data: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "roguelike", "play", "--terminal"],
        cwd=ROOT,
        env=game_env(data),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=LIMIT,
    )
    assert result.returncode == 1
    assert b"terminal" in result.stderr
    assert b"\x1b[" not in result.stdout


def test_no_display_falls_back_to_the_terminal(data: Path) -> None:
    game = PtyGame(data, args=())
    try:
        game.wait_for("H E D O N I C")
        game.send(b"\x03")
        assert game.wait_exit() == 0
    finally:
        game.close()
