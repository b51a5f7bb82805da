"""Screen-reader mode: plain lines for what happens, the cursor on @, keys that read out
the surroundings and the condition; driven in tmux and in-process."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
import tcod.event

from bestiary_helpers import set_player
from helpers import drawn_game
from roguelike.content import formulas
from roguelike.core.session import Session
from roguelike.frontend.terminal import TerminalLoop
from roguelike.screens.base import App
from roguelike.screens.ingame import InGameScreen
from term_helpers import ScriptedTerminal, xterm_setup
from test_terminal_e2e import LIMIT, ROOT, game_env
from test_terminal_tmux import require_tmux, short_socket


class ReaderTmux:
    """A tmux server of the test's own running the game for a screen reader, 80x36 (the title's
    eleven lines read out fit under the game's 25 rows)."""

    def __init__(self, socket: Path, env: dict[str, str]) -> None:
        self.command = ["tmux", "-S", str(socket)]
        game = f"cd {ROOT} && {sys.executable} -m roguelike play --screen-reader --seed 3"
        self.run("new-session", "-d", "-x", "80", "-y", "36", game, env=env)

    def run(self, *args: str, env: dict[str, str] | None = None) -> str:
        """A tmux command's output."""
        done = subprocess.run(
            self.command + list(args), env=env, capture_output=True, text=True, timeout=LIMIT, check=True
        )
        return done.stdout

    def rows(self) -> list[str]:
        """The window's rows of text."""
        return self.run("capture-pane", "-p").split("\n")

    def spoken(self) -> list[str]:
        """The plain lines under the 25 rows of the game."""
        return [row.strip() for row in self.rows()[25:36] if row.strip()]

    def cursor(self) -> tuple[int, int, bool]:
        """Column, row and visibility of the cursor."""
        x, y, shown = self.run("display", "-p", "#{cursor_x} #{cursor_y} #{cursor_flag}").split()
        return int(x), int(y), shown == "1"

    def wait_for(self, text: str) -> None:
        """Wait until a plain line under the game holds ``text``."""
        deadline = time.monotonic() + LIMIT
        while not any(text in line for line in self.spoken()):
            if time.monotonic() > deadline:
                raise AssertionError(f"waited for {text!r}; the pane shows:\n" + "\n".join(self.rows()))
            time.sleep(0.05)

    def keys(self, *keys: str) -> None:
        """Press keys."""
        self.run("send-keys", *keys)

    def close(self) -> None:
        """Stop the tmux server."""
        subprocess.run(self.command + ["kill-server"], capture_output=True, timeout=LIMIT, check=False)


@pytest.mark.slow
def test_screen_reader_mode_in_tmux(tmp_path: Path) -> None:
    require_tmux()
    tmux = ReaderTmux(short_socket(), game_env(tmp_path / "data"))
    try:
        tmux.wait_for("1. New game")  # the title is read out as plain lines
        assert tmux.cursor()[2]  # the cursor is shown, on the selected entry
        tmux.keys("Down")
        tmux.wait_for("Daily, 2 of ")
        tmux.keys("Up", "Enter")
        tmux.wait_for("What is your name?")
        tmux.keys("Enter")
        tmux.wait_for("You wake up shaking. A dose must be near.")
        x, y, shown = tmux.cursor()
        assert shown and tmux.rows()[y][x] == "@"  # the cursor rests on the player
        tmux.keys("v")
        tmux.wait_for("Nearest dose:")
        assert "No monster in sight." in " ".join(tmux.spoken())  # wherever the lines wrap it
        tmux.keys("c")
        tmux.wait_for("State of Mind 20 of 100, Withdrawal")
        tmux.keys("l", "c")
        tmux.wait_for("Floor 1, turn 1.")  # the condition read again says the turn went by
        x, y, _ = tmux.cursor()
        assert tmux.rows()[y][x] == "@"
        tmux.keys("C-c")
    finally:
        tmux.close()


ROOM = ["#########", "#.......#", "#..@....#", "#.....i.#", "#########"]


def test_a_terminal_of_25_rows_gets_the_newest_lines_over_the_panel() -> None:
    game = drawn_game(ROOM)
    terminal = ScriptedTerminal([b"v"], (80, 25))
    TerminalLoop(App(InGameScreen(Session(game))), terminal, xterm_setup(screen_reader=True)).run()
    said = " ".join(row.strip() for row in terminal.screen.display[21:25])
    assert said.endswith(
        "Nearest dose: 3 east and 1 south, in sight; +36 to +56, no risk of"
        " overdose. No monster in sight. No stairs known."
    )
    assert (terminal.screen.cursor.x, terminal.screen.cursor.y) == (3, 2)
    assert not terminal.screen.cursor.hidden


def test_the_game_does_not_flash_for_a_screen_reader() -> None:
    game = drawn_game(ROOM)
    screen = InGameScreen(Session(game))
    assert not screen.animated
    terminal = ScriptedTerminal([b"c", b"l"], (80, 30))
    loop = TerminalLoop(App(screen), terminal, xterm_setup(screen_reader=True))
    game.palette().psychedelic = True  # as if very High
    loop.run()
    assert terminal.timeouts == [None, None, None]  # no frame timer: nothing redraws on its own
    spoken = [row.strip() for row in terminal.screen.display[25:] if row.strip()]
    assert spoken[0] == "You wake up shaking. A dose must be near."
    assert spoken[1].startswith("State of Mind 20 of 100, Withdrawal; Desperate at 15.")


def test_a_takeover_that_stops_auto_explore_is_said_once() -> None:
    game = drawn_game(["####################", "#@.................#", "####################"])
    set_player(game, state_of_mind=formulas.desperation_threshold(5) + 1, will=5)
    game.refresh_visible()  # who steers is decided again after a hand-made change
    screen = InGameScreen(Session(game))
    app = App(screen)
    screen.spoken()  # the welcome
    app.handle(
        tcod.event.KeyDown(scancode=tcod.event.Scancode.O, sym=tcod.event.KeySym.O, mod=tcod.event.Modifier.NONE)
    )
    while app.busy:
        app.tick()
    spoken = screen.spoken()
    assert sum("Desperate: the craving hunts for a dose." in line for line in spoken) == 1
    assert spoken[-1].startswith("Desperate: the craving hunts for a dose.")
