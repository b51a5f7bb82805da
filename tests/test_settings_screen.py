"""The Settings screen: reached from the title and the in-game menu, keys, and changes that
take effect at once in the window's drawing and in the terminal."""

from __future__ import annotations

import json
from pathlib import Path

import pyte
import tcod.console
import tcod.event
from tcod.event import KeySym, Modifier, Scancode

from roguelike import settings
from roguelike.content import formulas
from roguelike.content.interrupts import Disturbance
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.frontend.terminal import TerminalLoop
from roguelike.render.colours import SCHEMES, Slot
from roguelike.render.draw import draw_game
from roguelike.saves import Games
from roguelike.screens import ambient
from roguelike.screens.base import App
from roguelike.screens.ingame import InGameScreen
from roguelike.screens.pause import PauseScreen
from roguelike.screens.settings import SettingsScreen, trouble_lines
from roguelike.screens.title import TitleScreen
from roguelike.settings import Glyphs, Motion, PaletteName, Preferences, TileSize
from test_terminal_loop import Clock, ScriptedTerminal, setup


def key(sym: KeySym) -> tcod.event.KeyDown:
    """A key press."""
    return tcod.event.KeyDown(scancode=Scancode.UNKNOWN, sym=sym, mod=Modifier.NONE)


def text_of(app: App) -> str:
    """What the app shows, one line a row."""
    console = tcod.console.Console(formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT, order="C")
    app.draw(console, 0.0)
    return "\n".join("".join(chr(c) for c in row) for row in console.rgb["ch"])


def use_file(root: Path) -> Preferences:
    """The settings of a data folder, in force."""
    prefs = Preferences.load(root)
    settings.use(prefs)
    return prefs


def test_the_title_opens_settings_with_its_letter_and_esc_comes_back(tmp_path: Path) -> None:
    app = App(TitleScreen(Games(tmp_path, seed=1)))
    assert "Settings" in text_of(app)
    app.handle(key(KeySym.S))
    assert isinstance(app.stack[-1], SettingsScreen)
    shown = text_of(app)
    for words in ("S E T T I N G S", "Palette", "classic", "Motion and flashing", "reduced", "Tile size", "11x20"):
        assert words in shown
    app.handle(key(KeySym.ESCAPE))
    assert isinstance(app.stack[-1], TitleScreen)


def test_the_in_game_menu_opens_settings_and_the_game_waits(tmp_path: Path) -> None:
    session = Session(Game.new(4, "Pause"))
    app = App(InGameScreen(session))
    app.handle(key(KeySym.ESCAPE))
    assert isinstance(app.stack[-1], PauseScreen) and "Settings" in text_of(app)
    app.handle(key(KeySym.DOWN))
    app.handle(key(KeySym.RETURN))
    assert isinstance(app.stack[-1], SettingsScreen)
    app.handle(key(KeySym.P))
    app.handle(key(KeySym.B))  # Back
    assert isinstance(app.stack[-1], PauseScreen)
    assert session.game.state.turn == 0
    session.close()


def test_arrows_enter_and_letters_change_values_which_are_saved_at_once(tmp_path: Path) -> None:
    prefs = use_file(tmp_path)
    app = App(SettingsScreen())
    app.handle(key(KeySym.P))
    assert settings.current().palette is PaletteName.COLOURBLIND
    app.handle(key(KeySym.LEFT))
    assert settings.current().palette is PaletteName.CLASSIC
    app.handle(key(KeySym.LEFT))
    assert settings.current().palette is PaletteName.CONTRAST
    app.handle(key(KeySym.DOWN))
    app.handle(key(KeySym.RETURN))
    assert settings.current().motion is Motion.NONE
    app.handle(key(KeySym.T))
    assert settings.current().tiles == TileSize(14, 24)
    app.handle(key(KeySym.G))
    assert settings.current().glyphs is Glyphs.ASCII
    assert "contrast" in text_of(app) and "14x24" in text_of(app)
    document = json.loads((tmp_path / "settings.json").read_text())
    assert document == {
        "version": 1,
        "palette": "contrast",
        "motion": "none",
        "glyphs": "ascii",
        "tiles": "14x24",
        "fullscreen": False,
        "scaling": "integer",
        "interrupts": [kind.value for kind in Disturbance],
        "confirm_lethal": True,
        "volume": 60,
        "sound_effects": True,
        "drone": True,
        "bell": False,
    }
    assert Preferences.load(tmp_path).current == prefs.current


def test_a_palette_chosen_on_the_screen_colours_the_game_at_once(tmp_path: Path) -> None:
    use_file(tmp_path)
    game = Game.new(4, "Colours")
    console = tcod.console.Console(formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT, order="C")
    word = formulas.mood_word(20, 5)
    app = App(SettingsScreen())
    for name in (PaletteName.COLOURBLIND, PaletteName.GREYSCALE, PaletteName.CONTRAST):
        app.handle(key(KeySym.P))
        draw_game(console, game, 0.0, ambient.look())
        assert tuple(console.rgb["fg"][formulas.MAP_HEIGHT, 0]) == SCHEMES[name][Slot(word)]


def test_a_damaged_file_is_named_on_the_title_and_the_settings_screen(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text('{"palette": "sepia"}')
    prefs = use_file(tmp_path)
    title = TitleScreen(Games(tmp_path, seed=1))
    title.status = prefs.problem_brief() or ""
    app = App(title)
    assert "settings.json is damaged" in text_of(app)
    app.handle(key(KeySym.S))
    shown = " ".join(text_of(app).split())
    assert "settings.json is damaged" in shown and '"sepia" is not one of' in shown


def test_a_damaged_file_keeps_its_first_line_whatever_the_length_of_the_data_folder(tmp_path: Path) -> None:
    root = tmp_path / ("a-long-home-folder" * 8)[: max(1, 120 - len(str(tmp_path)))]
    root.mkdir()
    (root / "settings.json").write_text('{"palette": "sepia"}')
    use_file(root)
    app = App(SettingsScreen())
    shown = " ".join(text_of(app).split())
    assert "settings.json is damaged" in shown and '"sepia" is not one of' in shown


def test_in_the_terminal_the_settings_change_what_is_written_at_once(tmp_path: Path) -> None:
    use_file(tmp_path)
    terminal = ScriptedTerminal([b"p", b"g", None])
    loop = TerminalLoop(App(SettingsScreen()), terminal, setup(), Clock())
    drew_unicode = loop.renderer.unicode
    loop.run()
    assert drew_unicode and not loop.renderer.unicode  # the glyphs setting reached the renderer
    first, *later = terminal.written
    assert "48;2;220;40;40" in first.decode()  # the classic Desperate band
    assert any("48;2;204;51;17" in frame.decode() for frame in later)  # the colour-blind one
    assert "ASCII" in "".join(terminal.screen.display)
    screen = pyte.Screen(80, 25)
    pyte.ByteStream(screen).feed(b"".join(terminal.written))
    assert "colourblind" in "\n".join(screen.display)


def test_ascii_glyphs_turn_every_box_line_and_symbol_into_ascii() -> None:
    from roguelike.render.look import Look, finish_frame

    console = tcod.console.Console(12, 4, order="C")
    console.draw_frame(0, 0, 12, 4)
    console.print(1, 1, "a·b→c", fg=(255, 255, 255))
    finish_frame(console, Look(SCHEMES[PaletteName.CLASSIC], Motion.REDUCED, Glyphs.ASCII))
    rows = ["".join(chr(c) for c in row) for row in console.rgb["ch"]]
    assert all(row.isascii() for row in rows)
    assert rows[0][0] == "/" and rows[3][11] == "/" and rows[1][0] == "|" and rows[1][1:6] == "a.b>c"


def test_the_replay_viewer_draws_in_the_palette_in_force() -> None:
    from roguelike.replay.fileformat import read_replay
    from roguelike.replay.playback import Playback
    from roguelike.screens.replay import ReplayScreen

    settings.use(Preferences(None, overrides={"palette": PaletteName.CONTRAST}))
    screen = ReplayScreen(Playback(read_replay(Path(__file__).parent.parent / "replays" / "floors.replay")))
    console = tcod.console.Console(formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT, order="C")
    screen.on_draw(console, 0.0)
    row = "".join(chr(c) for c in console.rgb["ch"][formulas.MAP_HEIGHT])
    word = row.split()[0]
    assert tuple(console.rgb["fg"][formulas.MAP_HEIGHT, 0]) == SCHEMES[PaletteName.CONTRAST][Slot(word)]


def test_a_long_damaged_file_message_is_read_whole_with_its_ending(tmp_path: Path) -> None:
    root = tmp_path / ("a-data-directory-with-a-rather-long-name-" * 2)[: max(1, 90 - len(str(tmp_path)) - 1)]
    root.mkdir()
    assert len(str(root)) >= 89
    (root / "settings.json").write_text('{"palette":"nope","motion":42,"glyphs":[1],"tiles":"3x3"}')
    prefs = use_file(root)
    squeezed = trouble_lines(prefs, 76, 3)  # even where not one reason fits, the ending stays
    assert len(squeezed) == 3 and " ".join(squeezed).endswith("until you change a setting.")
    app = App(SettingsScreen())
    rows = text_of(app).splitlines()
    shown = " ".join(" ".join(rows).split())
    assert "is damaged" in shown and "palette" in shown
    assert shown.endswith(
        "the file is kept as it is until you change a setting. Up/Down option Enter, Right or its "
        "letter: next value Left: previous Esc"
    )
    assert "more" in shown or all(key in shown for key in ("motion", "glyphs", "tiles"))  # the rest summed up
