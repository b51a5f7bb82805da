"""The startup menu, new game, load game, character stats and the in-game menu, driven by events."""

from __future__ import annotations

from pathlib import Path

import pytest
import tcod.console
from tcod.event import KeySym

from roguelike.cli.main import main
from roguelike.core.names import NAME_MAX
from roguelike.saves import Games, list_saves, load_save, read_history, read_save
from roguelike.screens.base import App
from roguelike.screens.confirm import ConfirmScreen
from roguelike.screens.death import DyingScreen, RecordScreen
from roguelike.screens.ingame import InGameScreen
from roguelike.screens.loadgame import LoadGameScreen
from roguelike.screens.newgame import NewGameScreen
from roguelike.screens.stats import StatsScreen
from roguelike.screens.title import TitleScreen
from save_helpers import SEED, about_to_die, key, played, saved, screen_rows, screen_text, text


def names_of(app: App) -> list[str]:
    """The stack as screen class names."""
    return [type(screen).__name__ for screen in app.stack]


def start(tmp_path: Path) -> App:
    """The app at the title screen over a data directory."""
    app = App(TitleScreen(Games(tmp_path, seed=SEED)))
    screen_text(app.stack[-1])
    return app


def play_new(app: App, *typed: str) -> InGameScreen:
    """Choose New game, type a name, press Enter."""
    app.handle(key(KeySym.N))
    app.handle(text("n"))  # the N key's own character, which must not become part of the name
    for part in typed:
        app.handle(text(part))
    app.handle(key(KeySym.RETURN))
    screen = app.stack[-1]
    assert isinstance(screen, InGameScreen)
    return screen


def test_with_nothing_saved_the_title_offers_no_resume(tmp_path: Path) -> None:
    shown = screen_text(start(tmp_path).stack[-1])
    assert "Resume" not in shown
    for label in (
        "1. New game",
        "2. Daily",
        "3. Load game",
        "4. Character stats",
        "5. Best games (hall of fame)",
        "6. Settings",
        "7. Help",
        "8. Quit",
        "H E D O N I C",
        "Marla Daniels",
    ):
        assert label in shown


def test_a_new_game_asks_a_name_and_saves_before_the_first_turn(tmp_path: Path) -> None:
    app = start(tmp_path)
    game = play_new(app, "Zoë", " 🌈").game
    assert names_of(app) == ["TitleScreen", "InGameScreen"]
    assert game.state.name == "Zoë 🌈"
    (info,) = list_saves(tmp_path)
    assert (info.name, info.turn) == ("Zoë 🌈", 0)
    assert info.save_id not in ("Zoë 🌈", "Zoë")
    app.close_all()


def test_backspace_esc_and_a_blank_name(tmp_path: Path) -> None:
    app = start(tmp_path)
    app.handle(key(KeySym.RETURN))
    screen = app.stack[-1]
    assert isinstance(screen, NewGameScreen)
    app.handle(text("Ab"))
    app.handle(key(KeySym.BACKSPACE))
    assert screen.name == "A"
    assert "A_" in screen_text(screen)
    app.handle(key(KeySym.ESCAPE))
    assert names_of(app) == ["TitleScreen"]
    game = play_new(app).game
    assert game.state.name == "Wanderer"
    app.close_all()


def test_any_unicode_and_any_length_is_safe_and_shown_truncated(tmp_path: Path) -> None:
    app = start(tmp_path)
    app.handle(key(KeySym.RETURN))
    screen = app.stack[-1]
    assert isinstance(screen, NewGameScreen)
    app.handle(text("\x1b[31m\u202eevil\x00\n"))
    assert screen.name == "[31mevil"
    app.handle(text("名" * 10_000))
    assert len(screen.name) == NAME_MAX
    assert all(len(row) <= 80 for row in screen_rows(screen))
    app.handle(key(KeySym.RETURN))
    assert load_save(list_saves(tmp_path)[0].path).state.name == screen.name
    app.close_all()
    title_rows = screen_rows(app_title(tmp_path))
    resume = next(row for row in title_rows if "Resume" in row)
    assert "…" in resume and "turn 0" in resume


def app_title(tmp_path: Path) -> TitleScreen:
    """A fresh title screen over a data directory."""
    return TitleScreen(Games(tmp_path))


def test_quit_from_the_game_menu_saves_and_resume_comes_back_to_it(tmp_path: Path) -> None:
    app = start(tmp_path)
    screen = play_new(app, "Ann")
    for _ in range(5):
        app.handle(key(KeySym.PERIOD))
    turn = screen.game.state.turn
    app.handle(key(KeySym.ESCAPE))
    assert names_of(app)[-1] == "PauseScreen"
    app.handle(key(KeySym.RETURN))  # Continue is the default
    assert names_of(app)[-1] == "InGameScreen"
    app.handle(key(KeySym.ESCAPE))
    app.handle(key(KeySym.Q))
    assert names_of(app) == ["TitleScreen"]
    shown = screen_text(app.stack[-1])
    assert f"1. Resume Ann (turn {turn}, floor 1," in shown
    app.handle(key(KeySym.R))
    resumed = app.stack[-1]
    assert isinstance(resumed, InGameScreen)
    assert (resumed.game.state.name, resumed.game.state.turn) == ("Ann", turn)
    app.close_all()


def test_closing_the_program_mid_game_releases_the_save(tmp_path: Path) -> None:
    app = start(tmp_path)
    play_new(app, "Ann")
    app.close_all()
    Games(tmp_path).resume(list_saves(tmp_path)[0].path).close()


def test_resuming_a_save_open_in_another_game_says_so(tmp_path: Path) -> None:
    session, _ = played(tmp_path, turns=3)
    app = start(tmp_path)
    app.handle(key(KeySym.N1))
    assert names_of(app) == ["TitleScreen"]
    assert "already open in another running game" in screen_text(app.stack[-1])
    session.close()


def test_load_game_lists_saves_and_a_number_loads_one(tmp_path: Path) -> None:
    saved(tmp_path, "Ann", turns=4)
    older = saved_again(tmp_path, "Bo", turns=8)
    app = start(tmp_path)
    app.handle(key(KeySym.L))
    screen = app.stack[-1]
    assert isinstance(screen, LoadGameScreen)
    rows = screen_text(screen)
    assert "1. Bo" in rows or "1. Ann" in rows
    index = [info.path for info in screen.saves].index(older) + 1
    app.handle(key(KeySym(KeySym.N1 + index - 1)))
    assert names_of(app) == ["TitleScreen", "InGameScreen"]
    playing = app.stack[-1]
    assert isinstance(playing, InGameScreen) and playing.game.state.name == "Bo"
    app.close_all()


def saved_again(tmp_path: Path, name: str, turns: int) -> Path:
    """Save one more game and return its file."""
    before = set((tmp_path / "saves").glob("*.save"))
    saved_path = played(tmp_path, name, turns)[0]
    saved_path.close()
    (path,) = set((tmp_path / "saves").glob("*.save")) - before
    return path


def test_a_damaged_save_is_listed_with_its_reason_and_kept_until_the_player_deletes_it(tmp_path: Path) -> None:
    path = saved(tmp_path)
    path.write_bytes(path.read_bytes()[:100])
    damaged = path.read_bytes()
    app = start(tmp_path)
    assert "Resume" not in screen_text(app.stack[-1])
    app.handle(key(KeySym.L))
    screen = app.stack[-1]
    assert "damaged: the file is cut short" in screen_text(screen)
    app.handle(key(KeySym.N1))
    assert names_of(app)[-1] == "LoadGameScreen"
    assert "it is kept as it is" in screen_text(screen)
    app.handle(key(KeySym.D))
    assert isinstance(app.stack[-1], ConfirmScreen)
    assert "Delete this damaged save for good?" in screen_text(app.stack[-1])
    app.handle(key(KeySym.X))
    app.handle(key(KeySym.N))
    assert path.read_bytes() == damaged
    app.handle(key(KeySym.DELETE))
    app.handle(key(KeySym.Y))
    assert names_of(app)[-1] == "LoadGameScreen"
    assert not path.exists()
    assert "There are no saved games." in screen_text(screen)


def test_deleting_a_save_asks_first(tmp_path: Path) -> None:
    path = saved(tmp_path, "Ann")
    app = start(tmp_path)
    app.handle(key(KeySym.L))
    app.handle(key(KeySym.D))
    assert "Delete Ann for good?" in screen_text(app.stack[-1])
    app.handle(key(KeySym.ESCAPE))
    assert path.exists()
    app.handle(key(KeySym.D))
    app.handle(key(KeySym.Y))
    assert not path.exists() and list_saves(tmp_path) == []


def test_death_goes_to_the_history_and_the_stats_screen_lists_it(tmp_path: Path) -> None:
    app = start(tmp_path)
    screen = play_new(app, "Ann")
    about_to_die(screen.session)
    while isinstance(app.stack[-1], InGameScreen):
        app.handle(key(KeySym.PERIOD))
    dying = app.stack[-1]
    assert isinstance(dying, DyingScreen)
    assert list_saves(tmp_path) == []
    (record,) = read_history(tmp_path).records
    dying.on_draw(tcod.console.Console(80, 25, order="C"), 100.0)
    dying.on_draw(tcod.console.Console(80, 25, order="C"), 102.0)
    app.handle(key(KeySym.RETURN))
    assert isinstance(app.stack[-1], RecordScreen)
    app.handle(key(KeySym.RETURN))
    assert names_of(app) == ["TitleScreen"]
    assert "Resume" not in screen_text(app.stack[-1])
    app.handle(key(KeySym.C))
    stats = app.stack[-1]
    assert isinstance(stats, StatsScreen)
    row = next(line for line in screen_rows(stats) if "Ann" in line)
    assert row.split()[:6] == ["1", "Ann", str(record.turns), str(record.score), "1", record.cause.capitalize()]
    app.handle(key(KeySym.ESCAPE))
    assert names_of(app) == ["TitleScreen"]


def test_the_stats_screen_scrolls_and_reports_unreadable_records(tmp_path: Path) -> None:
    from roguelike.saves import CharacterRecord
    from roguelike.saves.history import write_record
    from roguelike.storage.datadir import DataDir

    for index in range(30):
        write_record(
            DataDir(tmp_path).record(f"r{index}"), CharacterRecord(f"C{index}", index, 1, 1, "overdose", 0, 0, 0, 1, 0)
        )
    DataDir(tmp_path).record("broken").write_bytes(b"nope")
    screen = StatsScreen(Games(tmp_path))
    assert screen_rows(screen)[4].split()[:3] == ["1", "C29", "29"]
    screen.on_event(key(KeySym.PAGEDOWN))
    screen.on_event(key(KeySym.PAGEDOWN))
    assert "C0" in screen_text(screen)
    assert "1 record(s) could not be read" in screen_text(screen)


def test_the_stats_screen_sorts_by_score_and_back_by_turns(tmp_path: Path) -> None:
    from roguelike.saves import CharacterRecord
    from roguelike.saves.history import write_record
    from roguelike.storage.datadir import DataDir

    for name, turns, score in (("Long", 900, 50), ("Rich", 300, 700), ("Dull", 100, 10)):
        write_record(
            DataDir(tmp_path).record(name), CharacterRecord(name, turns, 1, 1, "overdose", 0, 0, 0, 1, 0, score=score)
        )
    screen = StatsScreen(Games(tmp_path))

    def names() -> list[str]:
        return [row.split()[1] for row in screen_rows(screen)[4:7]]

    assert names() == ["Long", "Rich", "Dull"] and "by turns" in screen_text(screen)
    screen.on_event(key(KeySym.S))
    assert names() == ["Rich", "Long", "Dull"] and "by score" in screen_text(screen)
    assert screen_rows(screen)[4].split()[2:4] == ["300", "700"]
    screen.on_event(key(KeySym.T))
    assert names() == ["Long", "Rich", "Dull"]


def test_the_game_menu_shows_a_failing_save_in_the_notification_area(tmp_path: Path) -> None:
    app = start(tmp_path)
    screen = play_new(app, "Ann")
    screen.session.notices.warn("save", "Cannot save: no space left on device; your save from turn 3 is kept.")
    assert "Cannot save: no space left on device" in screen_rows(screen)[21]
    app.handle(key(KeySym.ESCAPE))
    assert "Cannot save" in screen_text(app.stack[-1])
    app.close_all()


def test_hedonic_saves_prints_one_line_per_save(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = saved(tmp_path, "Ann", turns=6)
    bad = saved_again(tmp_path, "Bo", turns=2)
    bad.write_bytes(b"\x89HHS\r\n\x1a\nrubbish")
    assert main(["saves", "--data-dir", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    turn = read_save(good).plain["turn"]
    assert lines == [f"Ann  turn {turn}  floor 1  ok", f"{bad.name}  turn ?  floor ?  damaged: the file is cut short"]


def test_hedonic_saves_with_no_saves(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["saves", "--data-dir", str(tmp_path / "empty")]) == 0
    assert "no saves in" in capsys.readouterr().out
