"""The window frontend under SDL's dummy video driver, and screenshots as pixels."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import ParamSpec

import numpy as np
import pytest
import tcod.event
from tcod.event import KeySym, Modifier, Scancode

from roguelike.core.game import Game
from roguelike.core.session import Observer, Session
from roguelike.frontend import window
from roguelike.render.look import DEFAULT_LOOK
from roguelike.render.png import decode_png
from roguelike.render.screenshot import game_console, render_pixels, save_screenshot
from roguelike.render.tileset import load_tileset
from roguelike.saves import Games
from roguelike.screens.base import App
from roguelike.screens.ingame import InGameScreen
from roguelike.screens.title import TitleScreen


def key(sym: KeySym, mod: Modifier = Modifier.NONE) -> tcod.event.KeyDown:
    """A key press as the window would deliver it."""
    return tcod.event.KeyDown(scancode=Scancode.UNKNOWN, sym=sym, mod=mod)


def scripted_wait(
    events: list[tcod.event.Event], seen: list[App]
) -> Callable[[float | None], Iterator[tcod.event.Event]]:
    """A stand-in for ``tcod.event.wait`` that feeds events one frame at a time."""

    def wait(timeout: float | None = None) -> Iterator[tcod.event.Event]:
        yield events.pop(0) if events else tcod.event.Quit()

    return wait


def test_window_runs_title_game_menu_and_quit(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    sessions: list[Session] = []

    def remember(session: Session, save: Path, carried: bytes) -> list[Observer]:
        sessions.append(session)
        return []

    app = App(TitleScreen(Games(tmp_path, seed=3, observers=[remember])))
    # Enter picks New game, Enter again starts with the default name.
    script: list[tcod.event.Event] = [
        key(KeySym.RETURN),
        key(KeySym.RETURN),
        key(KeySym.RIGHT),
        key(KeySym.LEFT, Modifier.SHIFT),
        key(KeySym.ESCAPE),
    ]
    stacks: list[list[str]] = []
    original_handle = app.handle

    def recording_handle(event: tcod.event.Event) -> None:
        original_handle(event)
        stacks.append([type(screen).__name__ for screen in app.stack])

    monkeypatch.setattr(app, "handle", recording_handle)
    monkeypatch.setattr(tcod.event, "wait", scripted_wait(script, []))
    window.run_window(app)
    assert stacks[1] == ["TitleScreen", "InGameScreen"]
    assert stacks[4] == ["TitleScreen", "InGameScreen", "PauseScreen"]
    assert sessions[0].steps == 2
    assert not app.running


def test_screenshot_shows_the_player_and_the_panel(tmp_path: Path) -> None:
    game = Game.new(4, "Shot")
    out = tmp_path / "shot.png"
    save_screenshot(game, out)
    pixels = decode_png(out.read_bytes())
    tileset = load_tileset()
    assert pixels.shape == (25 * tileset.tile_height, 80 * tileset.tile_width, 4)
    console = game_console(game)
    panel = "".join(chr(c) for c in console.rgb["ch"][21, :10])
    assert panel.strip() == "Withdrawal"  # State of Mind 20 at the start
    assert np.array_equal(render_pixels(console), pixels)
    assert_cell_has_ink(pixels, tileset.tile_width, tileset.tile_height, game)


def assert_cell_has_ink(pixels: np.ndarray, tw: int, th: int, game: Game) -> None:
    """The player's cell is drawn in white ink, and unexplored cells are black."""
    from components import Position

    pos = game.player_component(Position)
    cell = pixels[pos.y * th : (pos.y + 1) * th, pos.x * tw : (pos.x + 1) * tw, :3]
    assert (cell.max(axis=2) > 200).sum() > 10
    explored = game.state.floor.explored
    ys, xs = np.nonzero(~explored)
    dark = pixels[ys[0] * th : (ys[0] + 1) * th, xs[0] * tw : (xs[0] + 1) * tw, :3]
    assert dark.max() == 0


def test_render_draws_remembered_map_and_hides_unexplored() -> None:
    game = Game.new(6, "Map")
    console = game_console(game)
    floor = game.state.floor
    chars = console.rgb["ch"][: floor.height, : floor.width]
    assert np.array_equal(chars[~floor.explored], np.full((~floor.explored).sum(), ord(" ")))
    seen_walls = floor.explored & (floor.tiles == 0)
    assert (chars[seen_walls] == DEFAULT_LOOK.tile_glyphs[0]).all()


def test_ingame_screen_turns_any_key_into_a_turn_while_desperate() -> None:
    from components import StateOfMind

    session = Session(Game.new(2, "Keys"))
    screen = InGameScreen(session)
    session.game.player_component(StateOfMind).value = 12
    session.game.refresh_visible()  # changed by hand: derive who steers again
    screen.on_event(key(KeySym.Z))
    assert session.game.state.turn == 1
    screen.on_event(key(KeySym.LSHIFT))
    assert session.game.state.turn == 1


def test_help_and_message_log_open_and_close_without_a_turn_passing() -> None:
    session = Session(Game.new(2, "Help"))
    app = App(InGameScreen(session))
    for sym, name in ((KeySym.SLASH, "HelpScreen"), (KeySym.M, "MessageLogScreen"), (KeySym.ESCAPE, "PauseScreen")):
        app.handle(key(sym))
        assert type(app.stack[-1]).__name__ == name
        console = game_console(session.game)
        app.draw(console, 0.0)
        app.handle(key(KeySym.ESCAPE))
        assert len(app.stack) == 1
    assert session.game.state.turn == 0


@pytest.mark.parametrize(
    ("cause", "words"),
    [("exhaustion", "died of exhaustion"), ("overdose", "died of an overdose"), ("depression", "killed by Depression")],
)
def test_death_screen_names_the_cause_and_the_numbers(cause: str, words: str) -> None:
    import tcod.console

    from roguelike.saves.history import record_of
    from roguelike.screens.death import RecordScreen

    game = Game.new(2, "Epitaph")
    game.state.cause_of_death = cause
    console = tcod.console.Console(80, 25, order="C")
    RecordScreen(record_of(game)).on_draw(console, 0.0)
    text = "\n".join("".join(chr(c) for c in row) for row in console.rgb["ch"])
    assert words in text
    for label in ("Turns survived", "Deepest floor", "Doses used"):
        assert label in text


Args = ParamSpec("Args")


def slowed(write: Callable[Args, None]) -> Callable[Args, None]:
    """``write`` on a slow disk: the write outlasts drawing the frame."""

    def slow(*args: Args.args, **kwargs: Args.kwargs) -> None:
        time.sleep(0.05)
        write(*args, **kwargs)

    return slow


def test_each_turn_is_on_disk_before_the_window_reads_the_next_key(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import roguelike.saves.autosave as autosave
    from roguelike.saves import read_save
    from roguelike.saves.savefile import write_save

    monkeypatch.setattr(autosave, "write_save", slowed(write_save))
    sessions: list[tuple[Session, Path]] = []

    def remember(session: Session, save: Path, carried: bytes) -> list[Observer]:
        sessions.append((session, save))
        return []

    app = App(TitleScreen(Games(tmp_path, seed=5, observers=[remember])))
    script: list[tcod.event.Event] = [key(KeySym.RETURN), key(KeySym.RETURN), *[key(KeySym.PERIOD)] * 6]
    saved_turns: list[tuple[int, int]] = []

    def wait(timeout: float | None = None) -> Iterator[tcod.event.Event]:
        if sessions and not sessions[0][0].game.state.game_over:
            session, path = sessions[0]
            saved_turns.append((read_save(path).game().state.turn, session.game.state.turn))
        yield script.pop(0) if script else tcod.event.Quit()

    monkeypatch.setattr(tcod.event, "wait", wait)
    window.run_window(app)
    assert len(saved_turns) >= 6
    assert all(on_disk == played for on_disk, played in saved_turns)
