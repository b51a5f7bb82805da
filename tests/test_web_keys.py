"""Browser key codes mean the same keys (and so the same actions) as in the window and the terminal."""

from __future__ import annotations

import pytest
import tcod.event
from tcod.event import KeySym, Modifier

from roguelike.frontend.web.keycodes import (
    ALT_BIT,
    BROWSER_CODES,
    CTRL_BIT,
    REPEAT_BIT,
    SHIFT_BIT,
    BadMessage,
    decode,
    key_event,
)
from roguelike.screens import bindings

BITS = ((Modifier.SHIFT, SHIFT_BIT), (Modifier.CTRL, CTRL_BIT), (Modifier.ALT, ALT_BIT))
# Keys some layouts have of their own and a US keyboard types with Shift; each action bound
# to one of these is also bound to the Shift chord, which the browser sends.
LAYOUT_ONLY = {KeySym.GREATER, KeySym.QUESTION}
CODE_OF = {sym: code for code, sym in reversed(BROWSER_CODES.items())}


def bits_of(mod: Modifier) -> int:
    """The protocol's modifier bits for ``Modifier`` flags."""
    return sum(bit for flag, bit in BITS if mod & flag)


def test_every_default_binding_is_reached_by_its_browser_key() -> None:
    keys = bindings.defaults()
    for action, chords in bindings.default_keys().items():
        reachable = [chord for chord in chords if chord[0] in CODE_OF]
        assert reachable, action
        for sym, mod in reachable:
            event = key_event(CODE_OF[sym], bits_of(mod))
            assert isinstance(event, tcod.event.KeyDown)
            assert keys.action_for(event) == keys.table[(sym, mod)], (action, sym, mod)
        assert {sym for sym, _ in chords if sym not in CODE_OF} <= LAYOUT_ONLY


@pytest.mark.parametrize(
    ("code", "bits", "action"),
    [
        ("KeyH", 0, "move_west"),
        ("KeyL", 0, "move_east"),
        ("Numpad8", 0, "move_north"),
        ("Numpad1", 0, "move_south_west"),
        ("Digit9", 0, "move_north_east"),
        ("ArrowLeft", SHIFT_BIT, "move_north_west"),
        ("ArrowRight", CTRL_BIT, "move_south_east"),
        ("PageDown", 0, "move_south_east"),
        ("Period", 0, "wait"),
        ("Numpad5", 0, "wait"),
        ("Period", SHIFT_BIT, "travel_down"),
        ("Comma", SHIFT_BIT, "travel_up"),
        ("KeyO", 0, "explore"),
        ("KeyZ", SHIFT_BIT, "rest"),
        ("Slash", SHIFT_BIT, "help"),
        ("Escape", 0, "menu"),
        ("KeyX", 0, "look"),
        ("Semicolon", 0, "look"),
        ("KeyM", 0, "message_log"),
    ],
)
def test_browser_codes_map_to_the_documented_actions(code: str, bits: int, action: str) -> None:
    event = key_event(code, bits)
    assert isinstance(event, tcod.event.KeyDown)
    assert bindings.defaults().action_for(event) == action


def test_a_rebinding_in_keys_toml_works_by_the_physical_key() -> None:
    keys = bindings.Bindings({**bindings.default_keys(), "explore": [bindings.parse_chord("Shift+X")]})
    event = key_event("KeyX", SHIFT_BIT)
    assert isinstance(event, tcod.event.KeyDown) and keys.action_for(event) == "explore"


def test_a_key_message_becomes_the_window_s_event() -> None:
    event = decode(bytes([0x10, SHIFT_BIT | REPEAT_BIT]) + b"Period")
    assert isinstance(event, tcod.event.KeyDown)
    assert (event.sym, event.scancode, event.repeat) == (KeySym.PERIOD, tcod.event.Scancode.PERIOD, True)
    assert event.mod & Modifier.SHIFT and not event.mod & Modifier.CTRL
    released = decode(bytes([0x14, 0]) + b"KeyA")
    assert isinstance(released, tcod.event.KeyUp) and released.sym == KeySym.A


def test_text_and_the_pointer_come_on_console_cells() -> None:
    text = decode(b"\x11" + "ë".encode())
    assert isinstance(text, tcod.event.TextInput) and text.text == "ë"
    click = decode(bytes([0x13, 12, 7, 1]))
    assert isinstance(click, tcod.event.MouseButtonDown)
    assert (click.position.x, click.position.y, click.button) == (12, 7, tcod.event.MouseButton.LEFT)
    moved = decode(bytes([0x12, 79, 24]))
    assert isinstance(moved, tcod.event.MouseMotion) and (moved.position.x, moved.position.y) == (79, 24)


def test_an_unknown_key_is_no_event_and_a_malformed_message_is_refused() -> None:
    assert decode(bytes([0x10, 0]) + b"LaunchMail") is None
    for bad in (
        b"\x10\x00",
        b"\x10\x00Key-A",
        b"\x11\x07",
        b"\x12\x01",
        b"\x13\x01\x01\x04",
        b"\x20",
        b"\x12\x50\x00",
        b"\x13\x00\x19\x01",
    ):
        with pytest.raises(BadMessage):
            decode(bad)
