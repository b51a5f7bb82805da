"""The rebinding page: add a key by pressing it, clear, reset; written to keys.toml at once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import tcod.console
import tcod.event
from tcod.event import KeySym, Modifier, Scancode

from roguelike.screens import bindings
from roguelike.screens.bindings import ACTIONS
from roguelike.screens.rebind import RebindScreen


def press(sym: KeySym, mod: Modifier = Modifier.NONE) -> tcod.event.KeyDown:
    return tcod.event.KeyDown(scancode=Scancode.UNKNOWN, sym=sym, mod=mod)


@pytest.fixture
def keymap(tmp_path: Path) -> Iterator[Path]:
    """The data directory's keymap in force for the test; the defaults again afterwards."""
    bindings.use(bindings.load(tmp_path))
    yield tmp_path / "keys.toml"
    bindings.use(bindings.defaults())


def to_action(screen: RebindScreen, action: str) -> None:
    """Move the page's cursor down to an action."""
    while screen.action != action:
        screen.on_event(press(KeySym.DOWN))


def shown(screen: RebindScreen) -> str:
    console = tcod.console.Console(80, 25, order="C")
    screen.on_draw(console, 0.0)
    return "\n".join("".join(chr(c) for c in row) for row in console.rgb["ch"])


def test_pressing_a_key_adds_it_and_writes_the_file(keymap: Path) -> None:
    screen = RebindScreen()
    to_action(screen, "rest")
    screen.on_event(press(KeySym.RETURN))
    assert "press a key..." in shown(screen)
    screen.on_event(press(KeySym.LSHIFT, Modifier.LSHIFT))  # a modifier alone is not a key
    screen.on_event(press(KeySym.R, Modifier.LCTRL))
    assert bindings.active().action_for(press(KeySym.R, Modifier.LCTRL)) == "rest"
    assert bindings.parse_file(keymap)["rest"] == [(KeySym.Z, Modifier.SHIFT), (KeySym.R, Modifier.CTRL)]
    assert "Shift+Z, Ctrl+R" in shown(screen) and screen.status == f"Saved in {keymap}."


def test_clearing_and_resetting_an_action(keymap: Path) -> None:
    screen = RebindScreen()
    to_action(screen, "explore")
    screen.on_event(press(KeySym.BACKSPACE))
    assert bindings.active().action_for(press(KeySym.O)) is None
    assert bindings.parse_file(keymap)["explore"] == []
    screen.on_event(press(KeySym.R))
    assert bindings.active().action_for(press(KeySym.O)) == "explore"


def test_the_menu_keeps_a_key(keymap: Path) -> None:
    screen = RebindScreen()
    to_action(screen, "menu")
    screen.on_event(press(KeySym.DELETE))
    assert bindings.active().action_for(press(KeySym.ESCAPE)) == "menu"
    assert "menu keeps at least one key" in screen.status


def test_a_key_taken_from_another_action_moves_and_the_page_says_so(keymap: Path) -> None:
    screen = RebindScreen()
    to_action(screen, "rest")
    screen.on_event(press(KeySym.RETURN))
    screen.on_event(press(KeySym.O))
    assert screen.status.startswith("O was explore's; now it is rest's. Saved in")
    assert bindings.active().action_for(press(KeySym.O)) == "rest"
    assert bindings.parse_file(keymap)["explore"] == [] and not bindings.active().conflicts


def test_the_only_key_to_the_menu_is_never_taken_away(keymap: Path) -> None:
    screen = RebindScreen()
    to_action(screen, "rest")
    screen.on_event(press(KeySym.RETURN))
    screen.on_event(press(KeySym.ESCAPE))  # Esc gives up waiting: it is never taken
    assert bindings.active().action_for(press(KeySym.ESCAPE)) == "menu"


def test_shift_r_restores_every_default(keymap: Path) -> None:
    screen = RebindScreen()
    to_action(screen, "rest")
    screen.on_event(press(KeySym.RETURN))
    screen.on_event(press(KeySym.O))
    screen.on_event(
        tcod.event.KeyDown(scancode=tcod.event.Scancode.UNKNOWN, sym=KeySym.R, mod=tcod.event.Modifier.LSHIFT)
    )
    assert bindings.active().action_for(press(KeySym.O)) == "explore"
    assert screen.status.startswith("Every action has its default keys again.")


def test_a_damaged_file_is_replaced_only_when_asked_twice(keymap: Path) -> None:
    keymap.write_text("[keys\n", encoding="utf-8")
    bindings.use(bindings.load(keymap.parent))
    screen = RebindScreen()
    assert str(keymap) in screen.status
    screen.on_event(press(KeySym.BACKSPACE))  # clear move_north: first it asks
    assert keymap.read_text(encoding="utf-8") == "[keys\n"
    assert "press the change again" in screen.status
    screen.on_event(press(KeySym.BACKSPACE))
    assert bindings.parse_file(keymap)["move_north"] == []
    assert len(bindings.parse_file(keymap)) == len(ACTIONS)


def test_escape_leaves_unless_waiting_for_a_key(keymap: Path) -> None:
    screen = RebindScreen()
    screen.on_event(press(KeySym.RETURN))
    assert screen.on_event(press(KeySym.ESCAPE)) is None and not screen.waiting
    assert bindings.active().keys["move_north"] == bindings.default_keys()["move_north"]
    assert screen.on_event(press(KeySym.ESCAPE)) is not None


def test_every_action_shows_with_its_keys_when_the_cursor_reaches_it(keymap: Path) -> None:
    screen = RebindScreen()
    for index, action in enumerate(ACTIONS):
        screen.cursor = index
        rows = shown(screen).split("\n")
        assert any(row.startswith(f"  > {action} ") for row in rows), action
        assert rows[-1].startswith("  Up/Down  Enter: add a key")  # the hints keep the last row
