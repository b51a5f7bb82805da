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


def test_a_long_notice_wraps_so_the_kept_turn_is_readable() -> None:
    import tcod.console

    from roguelike.core.game import Game
    from roguelike.core.session import Session
    from roguelike.screens.noticebar import draw_notices

    session = Session(Game.new(3, "Ann"))
    notice = "Cannot save: no space left on device; your save from turn 1234 is kept. Trying again every turn."
    session.notices.warn("save", notice)
    console = tcod.console.Console(80, 25, order="C")
    draw_notices(console, session)
    shown = " ".join("".join(chr(c) for c in row).strip() for row in console.rgb["ch"][21:])
    assert " ".join(shown.split()) == notice
    session.game.close()
