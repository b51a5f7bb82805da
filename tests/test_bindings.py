"""Rebinding keys: the keymap file in the data directory, damaged files, conflicts, layouts."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import tcod.console
import tcod.event
from tcod.event import KeySym, Modifier, Scancode

from helpers import drawn_game, player_xy
from roguelike.core.commands import Move, Wait
from roguelike.core.session import Session
from roguelike.saves import Games
from roguelike.screens import bindings
from roguelike.screens.base import App
from roguelike.screens.ingame import InGameScreen
from roguelike.screens.title import STATUS_TOP, TitleScreen


def press(sym: KeySym, mod: Modifier = Modifier.NONE) -> tcod.event.KeyDown:
    return tcod.event.KeyDown(scancode=Scancode.UNKNOWN, sym=sym, mod=mod)


@pytest.fixture
def installed() -> Iterator[None]:
    """Whatever a test installs, the defaults are back afterwards."""
    yield
    bindings.use(bindings.defaults())


def test_a_missing_keymap_is_written_with_the_defaults_and_reads_back_the_same(tmp_path: Path) -> None:
    keys = bindings.load(tmp_path)
    text = (tmp_path / "keys.toml").read_text(encoding="utf-8")
    assert keys.notice() is None
    assert 'explore = ["O"]' in text and 'travel_down = ["Shift+PERIOD", "GREATER"]' in text
    assert bindings.parse_file(tmp_path / "keys.toml") == bindings.default_keys()
    assert bindings.load(tmp_path).keys == keys.keys


def test_the_defaults_have_no_conflicts_and_match_the_documented_controls() -> None:
    keys = bindings.defaults()
    assert keys.conflicts == []
    assert keys.command_for(press(KeySym.K)) == Move(0, -1)
    assert keys.command_for(press(KeySym.LEFT, Modifier.LSHIFT)) == Move(-1, -1)
    assert keys.command_for(press(KeySym.UP, Modifier.LSHIFT)) == Move(0, -1)  # unbound Shift: the bare key
    assert keys.command_for(press(KeySym.PERIOD)) == Wait()
    assert keys.action_for(press(KeySym.PERIOD, Modifier.RSHIFT)) == "travel_down"
    assert keys.action_for(press(KeySym.Z, Modifier.LSHIFT)) == "rest"
    assert keys.action_for(press(KeySym.Z)) is None


def test_a_rebound_key_moves_and_explores_in_the_game(tmp_path: Path, installed: None) -> None:
    (tmp_path / "keys.toml").write_text('[keys]\nmove_east = ["D", "Right"]\nexplore = ["Ctrl+E"]\n', encoding="utf-8")
    keys = bindings.load(tmp_path)
    assert keys.notice() is None
    bindings.use(keys)
    game = drawn_game(["#######", "#@....#", "#######"])
    app = App(InGameScreen(Session(game)))
    app.handle(press(KeySym.D))
    assert player_xy(game) == (2, 1)
    app.handle(press(KeySym.L))  # no longer bound: vi-keys were replaced for move_east
    assert player_xy(game) == (2, 1)
    app.handle(press(KeySym.E, Modifier.LCTRL))
    exploring = app.busy
    assert exploring
    app.handle(press(KeySym.O))  # any key stops it; O explores no more
    app.handle(press(KeySym.O))
    assert not app.busy
    assert keys.action_for(press(KeySym.K)) == "move_north"  # actions left out keep their defaults


def test_binding_by_key_serves_other_layouts(tmp_path: Path) -> None:
    # On a German layout ">" is Shift and the "<" key: the player writes the key they press.
    (tmp_path / "keys.toml").write_text('[keys]\ntravel_down = ["Shift+LESS"]\n', encoding="utf-8")
    keys = bindings.load(tmp_path)
    assert keys.action_for(press(KeySym.LESS, Modifier.LSHIFT)) == "travel_down"
    assert keys.action_for(press(KeySym.LESS)) == "travel_up"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('[keys]\nexplore = ["E"\n', "Unclosed array"),
        ('[keys]\nexplore = "E"\n', "explore needs a list of key names"),
        ('[keys]\nexplore = ["Hyper+E"]\n', "explore: 'Hyper' is not Shift, Ctrl or Alt"),
        ('[keys]\nexplore = ["Banana"]\n', "explore: 'Banana' is not a key name"),
        ('[keys]\nfly = ["F"]\n', "'fly' is not an action"),
        ('explore = ["E"]\n', "it needs one [keys] table"),
        ("\udcff", ""),
    ],
)
def test_a_damaged_keymap_is_named_kept_and_the_defaults_are_used(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "keys.toml"
    data = text.encode("utf-8", errors="surrogateescape")
    path.write_bytes(data)
    keys = bindings.load(tmp_path)
    notice = keys.notice()
    assert notice is not None and notice.startswith("keys.toml is damaged: ") and says in notice
    assert "default keys" in notice and notice.endswith(str(path))
    assert keys.keys == bindings.default_keys()
    assert path.read_bytes() == data  # never overwritten


def test_conflicts_are_shown_and_the_first_action_keeps_the_key(tmp_path: Path) -> None:
    (tmp_path / "keys.toml").write_text('[keys]\nrest = ["O"]\n', encoding="utf-8")
    keys = bindings.load(tmp_path)
    assert keys.notice() == f"keys.toml: O is bound to explore and rest: explore keeps it (in {tmp_path / 'keys.toml'})"
    assert keys.action_for(press(KeySym.O)) == "explore"


def test_the_title_screen_names_a_damaged_keymap(tmp_path: Path) -> None:
    (tmp_path / "keys.toml").write_text("[keys\n", encoding="utf-8")
    title = TitleScreen(Games(tmp_path, seed=1))
    title.status = bindings.load(tmp_path).notice() or ""
    console = tcod.console.Console(80, 25, order="C")
    title.on_draw(console, 0.0)
    shown = "".join("".join(chr(c) for c in row) for row in console.rgb["ch"][STATUS_TOP : STATUS_TOP + 3])
    compact = "".join(shown.split())  # the line wraps wherever the path's length puts it
    # The meaning is shown whatever the data folder's length (a long one may only cut the path at the end).
    assert compact.startswith("keys.tomlisdamaged:") and "defaultkeys" in compact
