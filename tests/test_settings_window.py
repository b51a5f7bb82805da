"""Tile sizes, the window following the settings, its remembered place, and the command line."""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import ParamSpec, TypeVar

import pytest
import tcod.context
import tcod.event
from tcod.event import KeySym, Modifier, Scancode

from roguelike import settings
from roguelike.cli.main import build_parser, main
from roguelike.frontend import window
from roguelike.render.png import decode_png
from roguelike.render.tileset import tileset_for
from roguelike.screens.base import App
from roguelike.screens.settings import SettingsScreen, about
from roguelike.settings import TILE_SIZES, Preferences, Scaling, TileSize, WindowPlace

Args = ParamSpec("Args")
Made = TypeVar("Made")


@pytest.mark.parametrize("size", TILE_SIZES, ids=str)
def test_each_tile_size_is_what_the_font_gives_at_its_height(size: TileSize) -> None:
    tileset = tileset_for(size)
    assert (tileset.tile_width, tileset.tile_height) == (size.width, size.height)


def test_the_smallest_size_fits_800x600_and_the_largest_fills_1920x1080() -> None:
    smallest, largest = min(TILE_SIZES), max(TILE_SIZES)
    assert smallest.window()[0] <= 800 and smallest.window()[1] <= 600
    width, height = largest.window()
    assert 0.95 * 1920 <= width <= 1920 and 0.95 * 1080 <= height <= 1080
    assert len(TILE_SIZES) >= 3 and settings.Settings().tiles in TILE_SIZES


def key(sym: KeySym, mod: Modifier = Modifier.NONE) -> tcod.event.KeyDown:
    """A key press."""
    return tcod.event.KeyDown(scancode=Scancode.UNKNOWN, sym=sym, mod=mod)


def keeping(kept: list[Made], make: Callable[Args, Made]) -> Callable[Args, Made]:
    """``make``, keeping in ``kept`` what each call makes."""

    def keep(*args: Args.args, **kwargs: Args.kwargs) -> Made:
        made = make(*args, **kwargs)
        kept.append(made)
        return made

    return keep


def run_scripted(
    monkeypatch: pytest.MonkeyPatch, app: App, script: list[tcod.event.Event], sizes: list[tuple[int, int]]
) -> None:
    """Run the window over a script of events, noting the window's size before each batch."""
    contexts: list[tcod.context.Context] = []

    def wait(timeout: float | None = None) -> list[tcod.event.Event]:
        window_ = contexts[0].sdl_window
        assert window_ is not None
        sizes.append(window_.size)
        return [script.pop(0) if script else tcod.event.Quit()]

    monkeypatch.setattr(tcod.context, "new", keeping(contexts, tcod.context.new))
    monkeypatch.setattr(tcod.event, "wait", wait)
    window.run_window(app)


def test_the_window_follows_the_tile_size_and_remembers_its_place(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    prefs = Preferences.load(tmp_path)
    prefs.change("window", WindowPlace(40, 50, 10, 10))  # too small for the tiles: opens at their size
    settings.use(prefs)
    monkeypatch.setattr(window, "usable_area", lambda sdl_window: (1920, 1040))  # a screen all three fit
    monkeypatch.setattr(window, "suggest_tiles", lambda sdl_window: None)  # start at the default tiles
    sizes: list[tuple[int, int]] = []
    script: list[tcod.event.Event] = [key(KeySym.T), key(KeySym.T), key(KeySym.ESCAPE)]
    run_scripted(monkeypatch, App(SettingsScreen()), script, sizes)
    assert sizes[:3] == [(880, 500), (1120, 600), (1280, 700)]
    place = json.loads((tmp_path / "settings.json").read_text())["window"]
    assert (place["x"], place["y"], place["width"], place["height"]) == (40, 50, 1280, 700)
    assert Preferences.load(tmp_path).current.tiles == TileSize(16, 28)


def test_alt_enter_is_the_fullscreen_setting(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    prefs = Preferences.load(tmp_path)
    settings.use(prefs)
    fullscreen: list[bool] = []
    original_follow = window.SettingsFollower.follow

    def follow(self: window.SettingsFollower) -> None:
        original_follow(self)
        assert self.context.sdl_window is not None
        fullscreen.append(bool(self.context.sdl_window.fullscreen))

    monkeypatch.setattr(window.SettingsFollower, "follow", follow)
    script: list[tcod.event.Event] = [key(KeySym.RETURN, Modifier.LALT), key(KeySym.RETURN, Modifier.LALT)]
    run_scripted(monkeypatch, App(SettingsScreen()), script, [])
    assert fullscreen[:3] == [False, True, False]
    assert json.loads((tmp_path / "settings.json").read_text())["fullscreen"] is False


def test_scaling_decides_how_the_console_is_presented(monkeypatch: pytest.MonkeyPatch) -> None:
    presented: list[bool] = []
    settings.use(Preferences(None, overrides={"scaling": Scaling.FIT}))
    original_present = tcod.context.Context.present

    def present(
        self: tcod.context.Context,
        console: tcod.console.Console,
        *,
        keep_aspect: bool = False,
        integer_scaling: bool = False,
        clear_color: tuple[int, int, int] = (0, 0, 0),
        align: tuple[float, float] = (0.5, 0.5),
    ) -> None:
        presented.append(integer_scaling)
        original_present(
            self,
            console,
            keep_aspect=keep_aspect,
            integer_scaling=integer_scaling,
            clear_color=clear_color,
            align=align,
        )

    monkeypatch.setattr(tcod.context.Context, "present", present)
    run_scripted(monkeypatch, App(SettingsScreen()), [key(KeySym.S)], [])
    assert presented[:2] == [False, True]


def test_tiles_help_lists_the_sizes_and_a_wrong_size_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    help_text = " ".join(build_parser().format_help().split())
    assert all(str(size) in help_text for size in TILE_SIZES)
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--tiles", "12x12"])
    assert "10x18" in capsys.readouterr().err
    args = build_parser().parse_args(["play", "--palette", "colourblind", "--tiles", "10x18", "--ascii"])
    assert (args.palette, args.tiles, args.ascii) == ("colourblind", TileSize(10, 18), True)
    args = build_parser().parse_args(["replay", "x.replay", "--palette", "greyscale", "--ascii"])
    assert (args.palette, args.ascii) == ("greyscale", True)


def test_screenshot_takes_the_overrides(tmp_path: Path) -> None:
    pictures = {}
    for name, options in (("plain", []), ("small", ["--tiles", "10x18"]), ("blind", ["--palette", "colourblind"])):
        out = tmp_path / f"{name}.png"
        assert main(["screenshot", "--seed", "3", "--turns", "5", "--out", str(out), *options]) == 0
        pictures[name] = decode_png(out.read_bytes())
    assert pictures["plain"].shape[:2] == (500, 880)
    assert pictures["small"].shape[:2] == (450, 800)
    assert pictures["blind"].shape == pictures["plain"].shape
    assert (pictures["blind"] != pictures["plain"]).any()


def test_settings_never_reach_the_game() -> None:
    """Drawing every turn in any look leaves the same game, checksum for checksum."""
    import tcod.console

    from roguelike.bots.bot import Bot
    from roguelike.bots.headless import summarise
    from roguelike.core.game import Game
    from roguelike.core.session import Session
    from roguelike.render.colours import SCHEMES
    from roguelike.render.draw import draw_game
    from roguelike.render.look import Look, finish_frame

    def played(look: Look | None) -> tuple[str, ...]:
        session, bot = Session(Game.new(8, "Bot")), Bot()
        console = tcod.console.Console(80, 25, order="C")
        while not session.game.state.game_over and session.game.state.turn < 150:
            session.apply(bot.choose(session.game))
            if look is not None:
                draw_game(console, session.game, session.game.state.turn * 0.37, look)
                finish_frame(console, look)
        return tuple(summarise(session.game).lines())

    undrawn = played(None)
    for scheme, motion, glyphs in zip(
        SCHEMES.values(), itertools.cycle(settings.Motion), itertools.cycle(settings.Glyphs)
    ):
        assert played(Look(scheme, motion, glyphs)) == undrawn


def test_a_first_run_takes_the_largest_tiles_that_fit_the_screen(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(window, "usable_area", lambda sdl_window: (800, 570))
    settings.use(Preferences.load(tmp_path))
    sizes: list[tuple[int, int]] = []
    run_scripted(monkeypatch, App(SettingsScreen()), [], sizes)
    assert sizes[0] == (800, 450) and settings.current().tiles == TileSize(10, 18)
    assert json.loads((tmp_path / "settings.json").read_text())["window"]["width"] == 800


@pytest.mark.parametrize(
    ("area", "size"),
    [
        ((800, 570), TileSize(10, 18)),
        ((1024, 738), TileSize(11, 20)),
        ((1366, 728), TileSize(14, 24)),
        ((1920, 1040), TileSize(22, 40)),
        ((2560, 1400), TileSize(24, 43)),
        ((640, 480), TileSize(10, 18)),
    ],
)
def test_the_tiles_that_fit_a_screen(area: tuple[int, int], size: TileSize) -> None:
    assert settings.options.largest_fitting(*area) == size


def test_tiles_the_player_chose_are_kept_but_a_screen_too_small_for_them_gets_the_largest_that_fit(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(window, "usable_area", lambda sdl_window: (800, 570))
    (tmp_path / "settings.json").write_text('{"tiles": "14x24"}')
    settings.use(Preferences.load(tmp_path))
    sizes: list[tuple[int, int]] = []
    run_scripted(monkeypatch, App(SettingsScreen()), [], sizes)
    assert sizes[0] == (800, 450)  # 10x18: a 1120x600 window would be clipped by the 800x570 screen
    assert settings.current().tiles == TileSize(14, 24)  # still the choice, for a larger screen
    assert "tiles of 14x24 make a window larger than this screen (800x570): 10x18 are used" in capsys.readouterr().err


def test_a_window_remembered_on_a_screen_now_gone_opens_on_this_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    prefs = Preferences.load(tmp_path)
    prefs.change("window", WindowPlace(5000, 4000, 880, 500))
    settings.use(prefs)
    run_scripted(monkeypatch, App(SettingsScreen()), [], [])
    place = Preferences.load(tmp_path).current.window
    assert place is not None
    assert window.overlaps((place.x, place.y, place.width, place.height), (0, 0, 1024, 768))  # SDL's dummy screen


def test_a_window_grown_past_its_screen_edge_is_centred_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    # Larger tiles grow the window from its top-left corner: a window the system centred at
    # the small default size then hung over the screen's edge (seen under X11 with no window
    # manager). The follower re-centres it after every resize.
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    with tcod.context.new(x=100, y=200, width=880, height=500, argv=[]) as context:
        sdl_window = context.sdl_window
        assert sdl_window is not None
        sdl_window.size = (1000, 600)  # grown by larger tiles: now past the right and bottom edges
        assert not window.contains((0, 0, 1024, 768), (100, 200, 1000, 600))
        window.keep_whole_on_screen(sdl_window, (1000, 600))
        (x, y), (width, height) = sdl_window.position, sdl_window.size
        assert window.contains((0, 0, 1024, 768), (x, y, width, height))  # SDL's dummy screen


def test_the_command_names_the_window_class_before_sdl_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    # SDL reads its app id once, at its first start: set any later (when the window opens),
    # X11 task bars showed the window as "python3.11".
    monkeypatch.delenv("SDL_APP_ID", raising=False)
    with pytest.raises(SystemExit):
        main(["--version"])
    assert os.environ["SDL_APP_ID"] == "hedonic-hypothesis"


def test_tiles_too_large_for_the_screen_are_clamped_and_the_settings_screen_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # SDL's dummy screen is 1024x768: tiles of 24x43 would make a 1920x1075 window.
    settings.preferences().change("tiles", TileSize(24, 43))
    with window.open_window(settings.current()) as context:
        sdl_window = context.sdl_window
        assert sdl_window is not None
        follower = window.SettingsFollower(context, settings.current())
        settings.preferences().screen = window.usable_area(sdl_window)
        follower.follow()
        assert follower.tiles == TileSize(11, 20) and sdl_window.size == (880, 500)
    assert "larger than this screen (1024x768): 11x20 are used" in capsys.readouterr().err
    assert "the window uses 11x20, the largest that fits" in about("tiles", TileSize(24, 43))
    assert settings.current().tiles == TileSize(24, 43)  # the player's choice is kept for a larger screen
