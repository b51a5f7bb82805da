"""The key decoder against the bytes real terminals send (xterm, tmux, Linux console, rxvt)."""

from __future__ import annotations

import io

import pytest
import tcod.event
from blessed import Terminal
from tcod.event import KeySym, Modifier, Scancode

from roguelike.frontend.termkeys import KeyDecoder

NONE, SHIFT, CTRL, ALT = Modifier.NONE, Modifier.SHIFT, Modifier.CTRL, Modifier.ALT


def decoder(kind: str = "xterm-256color") -> KeyDecoder:
    """A decoder with the key tables of terminal type ``kind``."""
    return KeyDecoder(Terminal(kind=kind, stream=io.StringIO(), force_styling=True))


def keys(events: list[tcod.event.Event]) -> list[tuple[KeySym, Modifier] | str]:
    """Key presses as (sym, mod) and text input as the text."""
    found: list[tuple[KeySym, Modifier] | str] = []
    for event in events:
        if isinstance(event, tcod.event.KeyDown):
            found.append((event.sym, event.mod))
        elif isinstance(event, tcod.event.TextInput):
            found.append(event.text)
    return found


def decode_all(data: bytes, kind: str = "xterm-256color") -> list[tuple[KeySym, Modifier] | str]:
    """Keys for bytes received in one read, with any held-back Esc released."""
    keyboard = decoder(kind)
    return keys(keyboard.feed(data) + keyboard.flush())


SEQUENCES = [
    # xterm, normal and application cursor modes
    ("xterm-256color", b"\x1b[A", KeySym.UP, NONE),
    ("xterm-256color", b"\x1b[B", KeySym.DOWN, NONE),
    ("xterm-256color", b"\x1b[C", KeySym.RIGHT, NONE),
    ("xterm-256color", b"\x1b[D", KeySym.LEFT, NONE),
    ("xterm-256color", b"\x1bOA", KeySym.UP, NONE),
    ("xterm-256color", b"\x1bOD", KeySym.LEFT, NONE),
    ("xterm-256color", b"\x1b[H", KeySym.HOME, NONE),
    ("xterm-256color", b"\x1bOH", KeySym.HOME, NONE),
    ("xterm-256color", b"\x1b[F", KeySym.END, NONE),
    ("xterm-256color", b"\x1bOF", KeySym.END, NONE),
    ("xterm-256color", b"\x1b[5~", KeySym.PAGEUP, NONE),
    ("xterm-256color", b"\x1b[6~", KeySym.PAGEDOWN, NONE),
    ("xterm-256color", b"\x1b[1;2A", KeySym.UP, SHIFT),
    ("xterm-256color", b"\x1b[1;2D", KeySym.LEFT, SHIFT),
    ("xterm-256color", b"\x1b[1;5C", KeySym.RIGHT, CTRL),
    ("xterm-256color", b"\x1b[1;5D", KeySym.LEFT, CTRL),
    ("xterm-256color", b"\x1b[1;3A", KeySym.UP, ALT),
    ("xterm-256color", b"\x1b[1;6C", KeySym.RIGHT, SHIFT | CTRL),
    ("xterm-256color", b"\x1b[1;2H", KeySym.HOME, SHIFT),
    ("xterm-256color", b"\x1b[5;5~", KeySym.PAGEUP, CTRL),
    # xterm numpad: application keypad, NumLock off (5 is ESC [E), keypad Enter
    ("xterm-256color", b"\x1bOp", KeySym.KP_0, NONE),
    ("xterm-256color", b"\x1bOq", KeySym.KP_1, NONE),
    ("xterm-256color", b"\x1bOr", KeySym.KP_2, NONE),
    ("xterm-256color", b"\x1bOs", KeySym.KP_3, NONE),
    ("xterm-256color", b"\x1bOt", KeySym.KP_4, NONE),
    ("xterm-256color", b"\x1bOu", KeySym.KP_5, NONE),
    ("xterm-256color", b"\x1bOv", KeySym.KP_6, NONE),
    ("xterm-256color", b"\x1bOw", KeySym.KP_7, NONE),
    ("xterm-256color", b"\x1bOx", KeySym.KP_8, NONE),
    ("xterm-256color", b"\x1bOy", KeySym.KP_9, NONE),
    ("xterm-256color", b"\x1b[E", KeySym.KP_5, NONE),
    ("xterm-256color", b"\x1bOE", KeySym.KP_5, NONE),
    ("xterm-256color", b"\x1bOM", KeySym.KP_ENTER, NONE),
    ("xterm-256color", b"\x1bOn", KeySym.KP_PERIOD, NONE),
    # tmux (TERM=tmux-256color or screen), which sends the vt220 editing keys
    ("tmux-256color", b"\x1b[1~", KeySym.HOME, NONE),
    ("tmux-256color", b"\x1b[4~", KeySym.END, NONE),
    ("tmux-256color", b"\x1bOA", KeySym.UP, NONE),
    ("tmux-256color", b"\x1bOH", KeySym.HOME, NONE),
    ("tmux-256color", b"\x1b[1;2B", KeySym.DOWN, SHIFT),
    ("tmux-256color", b"\x1b[1;5D", KeySym.LEFT, CTRL),
    ("tmux-256color", b"\x1bOw", KeySym.KP_7, NONE),
    ("screen", b"\x1b[1~", KeySym.HOME, NONE),
    ("screen", b"\x1bOB", KeySym.DOWN, NONE),
    ("screen", b"\x1b[6~", KeySym.PAGEDOWN, NONE),
    # the Linux console
    ("linux", b"\x1b[A", KeySym.UP, NONE),
    ("linux", b"\x1b[1~", KeySym.HOME, NONE),
    ("linux", b"\x1b[4~", KeySym.END, NONE),
    ("linux", b"\x1b[5~", KeySym.PAGEUP, NONE),
    ("linux", b"\x1b[G", KeySym.KP_5, NONE),
    ("linux", b"\x1b[[A", KeySym.F1, NONE),
    ("linux", b"\x1bOq", KeySym.KP_1, NONE),
    ("linux", b"\x1bOA", KeySym.UP, NONE),
    # rxvt
    ("rxvt-unicode-256color", b"\x1b[7~", KeySym.HOME, NONE),
    ("rxvt-unicode-256color", b"\x1b[8~", KeySym.END, NONE),
    ("rxvt-unicode-256color", b"\x1b[a", KeySym.UP, SHIFT),
    ("rxvt-unicode-256color", b"\x1bOd", KeySym.LEFT, CTRL),
]


@pytest.mark.parametrize(("kind", "data", "sym", "mod"), SEQUENCES)
def test_escape_sequences(kind: str, data: bytes, sym: KeySym, mod: Modifier) -> None:
    assert decode_all(data, kind) == [(sym, mod)]


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"\r", [(KeySym.RETURN, NONE)]),
        (b"\n", [(KeySym.RETURN, NONE)]),
        (b"\x7f", [(KeySym.BACKSPACE, NONE)]),
        (b"\x08", [(KeySym.BACKSPACE, NONE)]),
        (b"\t", [(KeySym.TAB, NONE)]),
        (b"\x1b[Z", [(KeySym.TAB, SHIFT)]),
        (b"\x03", [(KeySym.C, CTRL)]),
        (b"\x11", [(KeySym.Q, CTRL)]),
        (b"h", [(KeySym.H, NONE), "h"]),
        (b"H", [(KeySym.H, SHIFT), "H"]),
        (b"5", [(KeySym.N5, NONE), "5"]),
        (b".", [(KeySym.PERIOD, NONE), "."]),
        (b">", [(KeySym.PERIOD, SHIFT), ">"]),
        (b"?", [(KeySym.SLASH, SHIFT), "?"]),
        (b" ", [(KeySym.SPACE, NONE), " "]),
        ("é".encode(), ["é"]),
        (b"\x1bh", [(KeySym.H, ALT)]),
        (b"\x1bH", [(KeySym.H, SHIFT | ALT)]),
        (b"\x1b\x7f", [(KeySym.BACKSPACE, ALT)]),
    ],
)
def test_characters(data: bytes, expected: list[object]) -> None:
    assert decode_all(data) == expected


def test_vi_keys_and_digits_all_arrive_as_keys_and_text() -> None:
    typed = decode_all(b"hjklyubn123456789")
    assert [key for key in typed if isinstance(key, tuple)] == [
        (sym, NONE)
        for sym in (
            KeySym.H,
            KeySym.J,
            KeySym.K,
            KeySym.L,
            KeySym.Y,
            KeySym.U,
            KeySym.B,
            KeySym.N,
            KeySym.N1,
            KeySym.N2,
            KeySym.N3,
            KeySym.N4,
            KeySym.N5,
            KeySym.N6,
            KeySym.N7,
            KeySym.N8,
            KeySym.N9,
        )
    ]
    assert "".join(key for key in typed if isinstance(key, str)) == "hjklyubn123456789"


def test_scancodes_match_the_window() -> None:
    events = decoder().feed(b"h\x1b[A\x1bOq")
    assert [event.scancode for event in events if isinstance(event, tcod.event.KeyDown)] == [
        Scancode.H,
        Scancode.UP,
        Scancode.KP_1,
    ]


def test_lone_escape_waits_for_a_flush() -> None:
    keyboard = decoder()
    assert keyboard.feed(b"\x1b") == []
    assert keyboard.pending
    assert keys(keyboard.flush()) == [(KeySym.ESCAPE, NONE)]
    assert not keyboard.pending


def test_sequence_split_across_reads_is_one_key() -> None:
    keyboard = decoder()
    assert keyboard.feed(b"\x1b") == []
    assert keyboard.feed(b"[1;") == []
    assert keys(keyboard.feed(b"5D")) == [(KeySym.LEFT, CTRL)]


def test_escape_then_a_key_in_a_later_read_is_two_keys() -> None:
    keyboard = decoder()
    keyboard.feed(b"\x1b")
    assert keys(keyboard.feed(b"q")) == [(KeySym.ESCAPE, NONE), (KeySym.Q, NONE), "q"]


def test_escape_twice_is_two_escapes() -> None:
    assert decode_all(b"\x1b\x1b") == [(KeySym.ESCAPE, NONE), (KeySym.ESCAPE, NONE)]


def test_keys_typed_ahead_arrive_in_order() -> None:
    assert decode_all(b"\x1b[Ah\x1bOy\r\x1b") == [
        (KeySym.UP, NONE),
        (KeySym.H, NONE),
        "h",
        (KeySym.KP_9, NONE),
        (KeySym.RETURN, NONE),
        (KeySym.ESCAPE, NONE),
    ]


@pytest.mark.parametrize("data", [b"\x1b[99x", b"\x1b[200~", b"\x1b[<0;10;5M", b"\x1b[I", b"\x1b[?1;2c", b"\x1bO2Z"])
def test_unknown_sequences_are_dropped_whole(data: bytes) -> None:
    assert decode_all(data + b"k") == [(KeySym.K, NONE), "k"]


def test_sequence_cut_short_is_not_typed() -> None:
    keyboard = decoder()
    assert keyboard.feed(b"\x1b[1;5") == []
    assert keyboard.flush() == []


def test_utf8_split_across_reads() -> None:
    keyboard = decoder()
    encoded = "é".encode()
    assert keyboard.feed(encoded[:1]) == []
    assert keys(keyboard.feed(encoded[1:])) == ["é"]


def test_latin1_locale_decodes_its_own_bytes() -> None:
    keyboard = KeyDecoder(Terminal(kind="xterm", stream=io.StringIO(), force_styling=True), "latin-1")
    assert keys(keyboard.feed(b"\xe9")) == ["é"]
