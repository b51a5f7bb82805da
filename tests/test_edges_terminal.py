"""Edges of the terminal: what the terminal's own description says about its keys comes first."""

from __future__ import annotations

from tcod.event import KeySym, Modifier

from test_terminal_keys import decode_all


def test_the_freebsd_console_page_down_is_page_down() -> None:
    assert decode_all(b"\x1b[G", "cons25") == [(KeySym.PAGEDOWN, Modifier.NONE)]
    assert decode_all(b"\x1b[I", "cons25") == [(KeySym.PAGEUP, Modifier.NONE)]


def test_where_terminfo_is_silent_the_game_still_knows_the_sequence() -> None:
    assert decode_all(b"\x1b[G", "linux") == [(KeySym.KP_5, Modifier.NONE)]
    assert decode_all(b"\x1b[G", "xterm-256color") == [(KeySym.KP_5, Modifier.NONE)]
