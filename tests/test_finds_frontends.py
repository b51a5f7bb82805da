"""Finds and High streaks in every frontend: the window, the terminal (in-process, 16 colours,
and the real game in tmux), the web client and the screen reader."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import tcod.event
from tcod.event import KeySym, Modifier, Scancode

from components import FindsTaken, Position, Tolerance
from finds_helpers import find_game
from roguelike.content.finds import FIND_KINDS
from roguelike.core.commands import Wizard
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.frontend import window
from roguelike.frontend.palette import ColourMode
from roguelike.frontend.terminal import TerminalLoop
from roguelike.frontend.web.live import LiveGame
from roguelike.render.screenshot import game_console, render_pixels
from roguelike.render.tileset import load_tileset
from roguelike.screens.base import App
from roguelike.screens.ingame import InGameScreen
from term_helpers import ScriptedTerminal, xterm_setup
from test_confirm_tmux import STEP_KEYS
from test_feedback_tmux import wizard
from test_terminal_tmux import new_game, require_tmux
from web_helpers import connect, served

CLARITY_TAKEN = "A moment of Clarity"


def terminal_run(
    game: Game,
    script: list[bytes],
    mode: ColourMode = ColourMode.TRUECOLOUR,
    screen_reader: bool = False,
    size: tuple[int, int] = (80, 25),
) -> ScriptedTerminal:
    """The in-game screen of ``game`` in the terminal loop, fed ``script``."""
    terminal = ScriptedTerminal(script, size)
    setup = dataclasses.replace(xterm_setup(screen_reader), mode=mode)
    TerminalLoop(App(InGameScreen(Session(game))), terminal, setup).run()
    return terminal


@pytest.mark.parametrize("mode", [ColourMode.TRUECOLOUR, ColourMode.COLOURS_16])
def test_the_terminal_shows_a_find_only_while_high_in_a_colour_of_its_own(mode: ColourMode) -> None:
    high, _ = find_game(som=80)
    shown = terminal_run(high, [], mode).screen
    assert shown.display[4][9] == "=" and "Streak" not in shown.display[22]
    floor_cell, find_cell = shown.buffer[4][10], shown.buffer[4][9]
    assert find_cell.fg != floor_cell.fg
    sober, _ = find_game(som=55)
    assert terminal_run(sober, [], mode).screen.display[4][9] == "."


def test_in_the_terminal_walking_onto_it_takes_it_and_the_streak_shows() -> None:
    game, _ = find_game(som=80)
    screen = terminal_run(game, [b"l"]).screen
    assert game.player_component(FindsTaken).kinds == {"clarity": 1}
    panel = "\n".join(screen.display[21:25])
    assert CLARITY_TAKEN in panel and "Streak 1 +0" in screen.display[22]


def test_the_screen_reader_names_finds_only_while_high() -> None:
    high, _ = find_game(som=80)
    said = " ".join(
        row.strip() for row in terminal_run(high, [b"v"], screen_reader=True, size=(80, 30)).screen.display[25:]
    )
    assert "Finds in sight, only while High: Clarity (Tolerance -3) 1 east." in said
    sober, _ = find_game(som=55)
    said = " ".join(
        row.strip() for row in terminal_run(sober, [b"v"], screen_reader=True, size=(80, 30)).screen.display[25:]
    )
    assert "Clarity" not in said and "Finds" not in said


def test_the_web_client_sees_the_find_and_takes_it_with_a_key(tmp_path: Path) -> None:
    game, _ = find_game(som=80)
    live = LiveGame(App(InGameScreen(Session(game))), "g1")
    with served(live) as client, connect(client) as player:
        assert player.rows()[4][9] == "="
        player.press("KeyL")
        rows = player.until(lambda rows: any(CLARITY_TAKEN in row for row in rows[21:]))
        assert rows[4][9] == "@" and game.player_component(FindsTaken).kinds == {"clarity": 1}


def test_the_window_draws_the_find_and_a_key_takes_it(monkeypatch: pytest.MonkeyPatch) -> None:
    game, _ = find_game(som=80)
    tileset = load_tileset()
    pixels = render_pixels(game_console(game))
    tw, th = tileset.tile_width, tileset.tile_height
    cell = pixels[4 * th : 5 * th, 9 * tw : 10 * tw, :3]
    assert (cell.min(axis=2) > 200).sum() > 5  # white ink: the Clarity's own colour
    events = [tcod.event.KeyDown(scancode=Scancode.UNKNOWN, sym=KeySym.L, mod=Modifier.NONE)]

    def wait(timeout: float | None = None) -> object:
        yield events.pop(0) if events else tcod.event.Quit()

    monkeypatch.setattr(tcod.event, "wait", wait)
    window.run_window(App(InGameScreen(Session(game))))
    assert game.player_component(Tolerance).value == 0 and game.player_component(FindsTaken).kinds == {"clarity": 1}


SEED = 204
CALM = str(sorted(FIND_KINDS).index("calm") + 1)  # its number in the wizard's list


def step_onto_the_wizard_find() -> str:
    """The key that walks onto the find the wizard puts beside the player (worked out on the same game)."""
    game = Game.new(SEED, "Tess")
    for change in (Wizard("still"), Wizard("mind", 90), Wizard("find", kind="calm")):
        game.apply(change)
    player = game.player_component(Position)
    (spot,) = [(p.x - player.x, p.y - player.y) for _, p, _ in game.finds()]
    game.close()
    return STEP_KEYS[spot]


@pytest.mark.slow
def test_the_real_game_in_tmux_shows_takes_and_counts_a_find(tmp_path: Path) -> None:
    require_tmux()
    step = step_onto_the_wizard_find()
    tmux = new_game(tmp_path, f"--wizard --seed {SEED}")
    try:
        wizard(tmux, "a")
        wizard(tmux, "f", CALM)
        assert "~" not in "\n".join(tmux.pane().split("\n")[:21])  # not High: not there
        wizard(tmux, "m", "9", "0", "Enter")
        tmux.wait_for("~")
        tmux.keys(step)
        tmux.wait_for("A Calm settles on you")
        tmux.wait_for("Streak 1 +0")
        tmux.keys("C-c")
    finally:
        tmux.run("kill-server")
