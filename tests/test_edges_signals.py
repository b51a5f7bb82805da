"""The terminal after every catchable signal, Ctrl-Z and fg, and a start on a terminal left raw."""

from __future__ import annotations

import os
import signal
import subprocess
import termios
import time
import tty
from pathlib import Path

import pytest

from test_terminal_e2e import LIMIT, PtyGame, assert_restored, data, start_new_game, step_somewhere
from test_terminal_tmux import TYPED, Tmux, play_env, require_tmux, short_socket

pytestmark = pytest.mark.slow
__all__ = ["data"]


@pytest.mark.parametrize("how", ["SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM"])
def test_any_signal_that_would_end_the_game_saves_and_restores_the_terminal(data: Path, how: str) -> None:
    game = PtyGame(data)
    try:
        start_new_game(game)
        step_somewhere(game)
        game.process.send_signal(getattr(signal, how))
        assert game.wait_exit() == 128 + getattr(signal, how)  # what a shell reports for a program the signal ended
        assert_restored(game)
    finally:
        game.close()
    assert list((data / "saves").glob("*.save"))


def test_a_start_on_a_terminal_left_raw_repairs_it(data: Path) -> None:
    game = PtyGame(data)
    try:
        tty.setraw(game.slave)  # what a game killed with SIGKILL leaves behind
        game.wait_for("H E D O N I C")
        game.send(b"\x03")
        assert game.wait_exit() == 0
        lflag, oflag = termios.tcgetattr(game.slave)[3], termios.tcgetattr(game.slave)[1]
        assert lflag & termios.ICANON and lflag & termios.ECHO and lflag & termios.ISIG
        assert oflag & termios.OPOST
    finally:
        game.close()


def pane_mode(tmux: Tmux) -> str:
    """The pane's tty modes as stty prints them."""
    return tmux.run("display", "-p", "#{pane_tty}").strip()


def test_ctrl_z_suspends_with_the_terminal_restored_and_fg_brings_the_game_back(data: Path, tmp_path: Path) -> None:
    require_tmux()
    tmux = Tmux(short_socket(), play_env(data))
    try:
        tmux.keys("exec env PS1='sh>' sh -im", "Enter")  # a plain sh with job control: no readline tidies up after us
        tmux.wait_for("sh>")
        tmux.keys(TYPED, "Enter")
        tmux.wait_for("H E D O N I C")
        tmux.keys("Enter")
        tmux.wait_for("name")
        tmux.keys("Enter")
        tmux.wait_for("Turn 0")
        tmux.keys("C-z")
        tmux.wait_for("Stopped")
        assert tmux.flags() == "0 1 0 0"  # main screen, cursor shown, keypad modes off
        tty_path = pane_mode(tmux)
        modes = subprocess.run(["stty", "-a", "-F", tty_path], capture_output=True, text=True, timeout=LIMIT).stdout
        assert " icanon" in modes and " echo " in modes
        tmux.keys("fg", "Enter")
        tmux.wait_for("Turn 0")  # redrawn whole
        assert tmux.flags() == "1 0 1 1"
        tmux.keys("C-c")
        tmux.wait_for("\nsh>")
        deadline = time.monotonic() + LIMIT
        while tmux.flags() != "0 1 0 0" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert tmux.flags() == "0 1 0 0"
    finally:
        subprocess.run(tmux.command + ["kill-server"], env=tmux.env, capture_output=True, timeout=LIMIT)
    assert os.path.isdir(data / "saves")
