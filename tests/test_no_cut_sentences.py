"""No screen cuts a sentence with "…": every screen drawn at 80x25 and on a 120x40 canvas.

The rule: ``fit`` (the one function that cuts text with "…") may cut a field to its
column (a name, a path, a date: one word) but never a sentence, a text with a space in it.
A sentence always has somewhere to go on a screen of 80x25 or more: it wraps over the rows
of its box (as the look text, the death screen's verdict and the daily prompt do), and a
box that can grow, grows. Each screen is drawn with ``fit`` watched in every module that
imported it; any sentence it cut fails the test, named with its screen and size.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import pytest
import tcod.console

from bestiary_helpers import add_monster, arena
from components import Position
from conftest import ROOT
from roguelike import settings
from roguelike.core import names
from roguelike.core.game import Game
from roguelike.replay.fileformat import read_replay
from roguelike.replay.playback import Playback
from roguelike.saves.history import record_of
from roguelike.scores.standing import Known
from roguelike.screens import shots
from roguelike.screens.base import App, Screen
from roguelike.screens.death import RecordScreen
from roguelike.screens.look import LookScreen
from roguelike.screens.messages import MessageLogScreen
from roguelike.screens.roomy import Canvas
from roguelike.screens.settings import SettingsScreen
from roguelike.screens.soundpage import SoundScreen

SIZES = ((80, 25), (120, 40))
HELP_PAGES = ("Controls", "Rules", "Bestiary", "Doses", "Highs", "Legend")
DAILY = "Verified: 12345 points, #12 of 123 in the hall; #1 of 1 on the 2026-11-28 daily board."
FEATS = "Feats: Clean floor, Deep diver, Long High, Close to the edge, Untouched, Sober floor"


def played_out(name: str) -> Game:
    """The game at the end of a corpus replay."""
    replay = read_replay(ROOT / "replays" / name)
    playback = Playback(replay)
    playback.seek_step(len(replay.steps))
    return playback.game


@pytest.fixture(scope="module")
def deep() -> Iterator[Game]:
    """A long game, floors deep, still going at its end of the corpus."""
    game = played_out("floors.replay")
    yield game
    game.close()


@pytest.fixture(scope="module")
def dead() -> Iterator[Game]:
    """A game a Depression ended."""
    game = played_out("death-depression.replay")
    yield game
    game.close()


def screens(deep: Game, dead: Game, root: Path) -> dict[str, Callable[[], Screen]]:
    """Every screen ``hedonic screenshot`` draws (help on each page, stats on both), and the other
    screens that show sentences: the record with a daily's verdict, the log, settings, sound."""
    found: dict[str, Callable[[], Screen]] = {
        f"help {page}": partial(shots.SCREENS["help"], deep, root, page) for page in HELP_PAGES
    }
    for name in ("game", "look", "title"):
        found[name] = partial(shots.SCREENS[name], deep, root, "")
    found["death"] = lambda: shots.SCREENS["death"](dead, root, "")
    found["stats"] = lambda: shots.SCREENS["stats"](dead, root, "")
    found["stats overall"] = lambda: shots.SCREENS["stats"](dead, root, "overall")
    found["record on the daily"] = lambda: RecordScreen(record_of(dead), died=True, standing=Known(DAILY, FEATS))
    found["messages"] = lambda: MessageLogScreen(deep)
    found["settings"] = SettingsScreen
    found["settings with a long path"] = lambda: settings_kept_in(root / ("a-long-folder-name-" * 4) / "settings.json")
    found["sound"] = SoundScreen
    found["look at a Depression"] = looking_at_a_depression
    return found


def settings_kept_in(path: Path) -> Screen:
    """Settings whose file lies deep in folders."""
    settings.use(settings.Preferences(path))
    return SettingsScreen()


def looking_at_a_depression() -> Screen:
    """Look's cursor on a hunting Depression (its description the longest of the bestiary)."""
    game = arena()
    pos = game.player_component(Position)
    add_monster(game, "depression", pos.x + 3, pos.y, hunting=True)
    look = LookScreen(game)
    look.jump(1)
    return look


def cut_sentences(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Watch ``fit`` everywhere it was imported; the sentences it cuts from now on go in the list."""
    cut: list[tuple[str, int]] = []
    original = names.fit

    def watched(text: str, width: int) -> str:
        fitted = original(text, width)
        if fitted.endswith("…") and " " in text.strip():
            cut.append((text, width))
        return fitted

    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("roguelike") and getattr(module, "fit", None) is original:
            monkeypatch.setattr(module, "fit", watched)
    return cut


def draw(screen: Screen, size: tuple[int, int]) -> tcod.console.Console:
    """The screen drawn as a frontend of ``size`` cells shows it."""
    console = tcod.console.Console(80, 25, order="C")
    screen.on_draw(console, 0.0)
    if size == (80, 25):
        return console
    return Canvas(*size).compose(App(screen), console)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_no_screen_cuts_a_sentence(
    size: tuple[int, int], deep: Game, dead: Game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cut = cut_sentences(monkeypatch)
    faults = []
    for name, make in screens(deep, dead, tmp_path).items():
        draw(make(), size)
        faults += [f"{name}: {text!r} cut to {width}" for text, width in cut]
        cut.clear()
    assert faults == []


def test_the_watch_catches_a_cut_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    cut = cut_sentences(monkeypatch)
    from roguelike.screens import death

    fit: Callable[[str, int], str] = vars(death)["fit"]  # as the death screen imported it
    fit("a sentence far too long for its column", 12)
    fit("Wanderer-of-the-long-name", 12)  # a field (one word) may be cut to its column
    assert cut == [("a sentence far too long for its column", 12)]
