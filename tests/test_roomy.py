"""The in-view list beside the game in a terminal or window larger than 80x25 (issue 23)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
import tcod.console
import tcod.context
import tcod.event
from tcod.event import KeySym, Modifier, Scancode

from components import StateOfMind
from roguelike import settings
from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.content.doses import DOSE_KINDS, dose_odds
from roguelike.content.finds import FIND_KINDS
from roguelike.core.commands import Wizard
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.frontend import window
from roguelike.render.tileset import tileset_for
from roguelike.saves import Games
from roguelike.screens.base import App
from roguelike.screens.help import known_in
from roguelike.screens.ingame import InGameScreen
from roguelike.screens.look import LookScreen
from roguelike.screens.roomy import Canvas, roomy_size
from roguelike.screens.sidebar import HUNTS, UNNOTICED, in_view, in_view_words
from roguelike.screens.title import TitleScreen


def text_rows(console: tcod.console.Console) -> list[str]:
    """What a console shows, row by row."""
    return ["".join(chr(c) for c in row) for row in console.rgb["ch"].tolist()]


def game_with_a_monster() -> Game:
    """A new game with its start dose in sight and a wizard's monster beside the player."""
    game = Game.new(5, "Ida")
    game.apply(Wizard("monster", kind="voices"))
    return game


def range_words(game: Game, kind: str) -> str:
    """The range the look panel gives a dose of ``kind`` now (the help's Known, dose_odds)."""
    known = known_in(game, frozenset())
    assert known.state_of_mind is not None and known.tolerance is not None
    odds = dose_odds(DOSE_KINDS[kind], known.depth, known.state_of_mind, known.tolerance)
    return f"+{odds.low}..+{odds.high}" + odds.if_purer(f", purer +{odds.purest}")


def test_only_a_terminal_or_window_larger_than_80x25_gets_a_canvas() -> None:
    assert roomy_size(80, 25) is None
    assert roomy_size(100, 25) is None  # too narrow for the list, and no rows to spare: as today
    assert roomy_size(120, 40) == (120, 40)
    assert roomy_size(80, 30) == (80, 30)  # more message rows only


def test_the_list_names_each_monster_hit_and_notice_and_each_dose_true_range_and_risk() -> None:
    game = game_with_a_monster()
    entries = in_view(game)
    names = [entry.name for entry in entries]
    assert names[0] == "Voices" and "Dose" in names
    voices = entries[0]
    assert voices.lines[0][0] == MONSTER_KINDS["voices"].hit_summary and voices.lines[1][0] in (HUNTS, UNNOTICED)
    dose = entries[names.index("Dose")]
    assert dose.lines[0][0] == range_words(game, "dose") and dose.lines[1][0] == "no risk of overdose"
    assert in_view_words(game).startswith("In view: Voices ")
    game.close()


def test_a_dose_that_could_kill_is_listed_as_a_warning() -> None:
    game = game_with_a_monster()
    game.player_component(StateOfMind).value = 90
    (dose,) = [entry for entry in in_view(game) if entry.name == "Dose"]
    assert dose.lines[1] == ("it WILL overdose you", True)
    game.close()


def test_the_canvas_puts_the_game_top_left_the_list_beside_and_more_messages_under() -> None:
    game = game_with_a_monster()
    app = App(InGameScreen(Session(game)))
    console = tcod.console.Console(80, 25, order="C")
    app.draw(console, 0.0)
    canvas = Canvas(120, 40)
    rows = text_rows(canvas.compose(app, console))
    assert rows[:25] == [row[:80] + rows[r][80:] for r, row in enumerate(text_rows(console))]
    assert rows[0][81:].startswith("In view") and any(range_words(game, "dose") in row[81:] for row in rows)
    assert any("Voices" in row[81:] for row in rows)
    messages = [row[32:80].strip() for row in rows[21:]]
    assert "You wake up shaking. A dose must be near." in " ".join(messages)
    game.close()


def test_a_screen_without_a_game_stays_centred_as_in_a_terminal_today(tmp_path: Path) -> None:
    app = App(TitleScreen(Games(tmp_path)))
    console = tcod.console.Console(80, 25, order="C")
    app.draw(console, 0.0)
    canvas = Canvas(120, 40)
    rows = text_rows(canvas.compose(app, console))
    assert canvas.origin == (20, 7)
    assert rows[7:32] == [" " * 20 + row + " " * 20 for row in text_rows(console)]


def test_look_over_the_game_keeps_its_description_and_the_list_stays(tmp_path: Path) -> None:
    game = game_with_a_monster()
    app = App(InGameScreen(Session(game)))
    app.stack.append(LookScreen(game))
    console = tcod.console.Console(80, 25, order="C")
    app.draw(console, 0.0)
    drawn = text_rows(console)
    rows = text_rows(Canvas(120, 30).compose(app, console))
    assert [row[:80] for row in rows[21:25]] == drawn[21:25]  # the description is not covered by messages
    assert rows[0][81:].startswith("In view")
    game.close()


def test_the_readout_key_says_the_list_for_a_screen_reader() -> None:
    game = game_with_a_monster()
    screen = InGameScreen(Session(game))
    screen.on_event(tcod.event.KeyDown(scancode=Scancode.V, sym=KeySym.V, mod=Modifier.SHIFT))
    said = " ".join(screen.spoken())
    assert "In view: Voices" in said and range_words(game, "dose") in said
    assert game.state.turn == 0  # reading out costs no turn
    game.close()


@pytest.fixture
def wide_window() -> Iterator[tcod.context.Context]:
    """A headless window 120x40 cells of the default tiles."""
    context = tcod.context.new(columns=120, rows=40, tileset=tileset_for(settings.current().tiles), argv=[])
    yield context
    context.close()


def presented(context: tcod.context.Context, app: App, monkeypatch: pytest.MonkeyPatch) -> np.ndarray:
    """The glyphs of the first frame the window presents for ``app`` (then it closes)."""
    frames: list[np.ndarray] = []
    monkeypatch.setattr(window, "suggest_tiles", lambda _: None)  # keep the tiles this test chose
    monkeypatch.setattr(context, "present", lambda console, **_: frames.append(console.rgb["ch"].copy()))
    monkeypatch.setattr(tcod.event, "wait", lambda timeout=None: iter([tcod.event.Quit()]))
    window.run_window(app, context)
    return frames[0]


def test_a_large_window_shows_the_list_beside_the_game(
    wide_window: tcod.context.Context, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = game_with_a_monster()
    words = range_words(game, "dose")
    frame = presented(wide_window, App(InGameScreen(Session(game))), monkeypatch)
    rows = ["".join(chr(c) for c in row) for row in frame.tolist()]
    assert frame.shape == (40, 120)
    assert rows[0][81:].startswith("In view") and any(words in row for row in rows)


def test_a_window_of_80x25_shows_the_game_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    game = game_with_a_monster()
    with tcod.context.new(columns=80, rows=25, tileset=tileset_for(settings.current().tiles), argv=[]) as context:
        frame = presented(context, App(InGameScreen(Session(game))), monkeypatch)
    assert frame.shape == (25, 80)
    assert not any("In view" in "".join(chr(c) for c in row) for row in frame.tolist())


def test_a_find_is_listed_only_while_high() -> None:
    game = Game.new(5, "Ida")
    game.apply(Wizard("mind", value=70))
    game.apply(Wizard("find", kind="clarity"))
    (clarity,) = [entry for entry in in_view(game) if entry.name == FIND_KINDS["clarity"].name]
    assert clarity.lines == ((FIND_KINDS["clarity"].effect(), False), ("walk onto it to take it", False))
    game.apply(Wizard("mind", value=40))
    assert not [entry for entry in in_view(game) if entry.name == FIND_KINDS["clarity"].name]
    game.close()
