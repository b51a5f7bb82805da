"""The real game in tmux: the shell works normally after playing (modes, echo, prompt)."""

from __future__ import annotations

import atexit
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from test_terminal_e2e import LIMIT, ROOT, game_env

pytestmark = pytest.mark.slow


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """A data directory of the test's own."""
    return tmp_path / "data"


class Tmux:
    """A tmux server of the test's own, with one 80x25 window running bash."""

    def __init__(self, socket: Path, env: dict[str, str]) -> None:
        self.command = ["tmux", "-S", str(socket)]
        self.env = env
        self.run("new-session", "-d", "-x", "80", "-y", "25", "env PS1='ready>' bash --norc --noprofile")
        self.wait_for("ready>")

    def run(self, *args: str) -> str:
        """A tmux command's output."""
        done = subprocess.run(
            self.command + list(args), env=self.env, capture_output=True, text=True, timeout=LIMIT, check=True
        )
        return done.stdout

    def pane(self) -> str:
        """The text in the window."""
        return self.run("capture-pane", "-p")

    def flags(self) -> str:
        """Alternate screen, cursor shown, keypad and cursor-keys modes, as 0/1."""
        return self.run("display", "-p", "#{alternate_on} #{cursor_flag} #{keypad_flag} #{keypad_cursor_flag}").strip()

    def wait_for(self, text: str) -> None:
        """Wait until the window shows ``text``."""
        deadline = time.monotonic() + LIMIT
        while text not in self.pane():
            if time.monotonic() > deadline:
                raise AssertionError(f"waited for {text!r}; the pane shows:\n{self.pane()}")
            time.sleep(0.05)

    def keys(self, *keys: str) -> None:
        """Press keys (tmux key names, or literal text)."""
        self.run("send-keys", *keys)


def short_socket() -> Path:
    """A path for a tmux server's socket that fits a unix socket's 108 bytes however long the
    temporary folder's path is (pytest's may not); removed when the tests end."""
    folder = tempfile.mkdtemp(prefix="hh-tmux-", dir="/tmp")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return Path(folder) / "s"


def new_game(tmp_path: Path, play_args: str, name: str = "Tess", size: tuple[int, int] = (80, 25)) -> Tmux:
    """``hedonic play --terminal <play_args>`` in a tmux window of its own (``size`` columns x rows),
    a new character ``name`` at turn 0. The script it types stays short whatever the checkout's
    path; the server is killed if the game never gets there."""
    script = tmp_path / "g"
    script.write_text(
        f"cd {shlex.quote(str(ROOT))} && exec {shlex.quote(sys.executable)} -m roguelike play --terminal {play_args}\n",
        encoding="utf-8",
    )
    tmux = Tmux.__new__(Tmux)
    tmux.command = ["tmux", "-S", str(short_socket())]
    tmux.env = game_env(tmp_path / "data")
    tmux.run(
        "new-session",
        "-d",
        "-x",
        str(size[0]),
        "-y",
        str(size[1]),
        "-c",
        str(tmp_path),
        "env PS1='ready>' bash --norc --noprofile",
    )
    try:
        tmux.wait_for("ready>")
        tmux.keys("sh g", "Enter")
        tmux.wait_for("H E D O N I C")
        tmux.keys("n")
        tmux.wait_for("name")
        tmux.keys(name, "Enter")
        tmux.wait_for("Turn 0")
    except BaseException:
        tmux.run("kill-server")
        raise
    return tmux


def require_tmux() -> None:
    """tmux must be there in CI (.ci/run installs it); on a developer's machine it may be missing."""
    if shutil.which("tmux") is None:
        if os.environ.get("CI"):
            pytest.fail("tmux is missing: .ci/run should have installed it")
        pytest.skip("tmux is missing (.ci/run installs it)")


# The command typed stays short whatever the checkout's path: the long one waits in the
# environment, so the typed line never wraps in the 80-column window.
PLAY = "HH_PLAY"
TYPED = f'eval "${PLAY}"'


def play_env(data: Path) -> dict[str, str]:
    """The game's environment, with the command that starts the game in ``$HH_PLAY``."""
    return {
        **game_env(data),
        PLAY: f"cd {shlex.quote(str(ROOT))} && {shlex.quote(sys.executable)} -m roguelike play --terminal",
    }


def test_shell_works_normally_after_playing_in_tmux(data: Path, tmp_path: Path) -> None:
    require_tmux()
    tmux = Tmux(short_socket(), play_env(data))
    try:
        tmux.keys(TYPED, "Enter")
        tmux.wait_for("H E D O N I C")
        assert tmux.flags() == "1 0 1 1"  # alternate screen, hidden cursor, keypad modes
        tmux.keys("Enter")
        tmux.wait_for("name")
        tmux.keys("Enter")
        tmux.wait_for("Turn 0")
        tmux.keys("C-c")
        tmux.wait_for(f"{TYPED}\nready>")  # the prompt is back, right after the command
        assert tmux.flags() == "0 1 0 0"
        tmux.keys("echo restored-$((40 + 2))", "Enter")
        tmux.wait_for("restored-42\n")
        assert "echo restored-$((40 + 2))" in tmux.pane()  # typed text is echoed again
    finally:
        subprocess.run(tmux.command + ["kill-server"], env=tmux.env, capture_output=True, timeout=LIMIT)
