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


def test_wide_names_show_as_typed_two_cells_each() -> None:
    import tcod.console

    from roguelike.core.names import fit
    from roguelike.frontend.ansi import AnsiRenderer
    from roguelike.frontend.palette import ColourMode
    from test_terminal_ansi import replay

    console = tcod.console.Console(80, 25, order="C")
    console.print(2, 3, f"{fit('山田 🌸 Zoë', 20):<20}|", fg=(200, 200, 200))
    renderer = AnsiRenderer(ColourMode.TRUECOLOUR, unicode=True)
    first = renderer.render(console)
    assert replay(first).display[3].rstrip() == "  山田 🌸 Zoë" + " " * 9 + "|"
    console.print(2, 3, "ab", fg=(10, 200, 10))  # a later frame overwrites one wide character
    second = renderer.render(console)
    assert replay(first, second).display[3].rstrip() == "  ab田 🌸 Zoë" + " " * 9 + "|"


def test_names_are_cut_by_cells() -> None:
    from roguelike.core.names import fit, on_one_line, text_width

    cut = on_one_line(fit("山" * 30, 21))
    assert text_width(cut) <= 21 and cut.endswith("…") and "\ue000" not in cut
    assert fit("Ann", 20) == "Ann" and on_one_line(fit("Zoë 🌸", 6)) == "Zoë 🌸"


def test_latin_widths_known_without_the_tables_agree_with_them() -> None:
    from wcwidth import wcwidth

    from roguelike.core.names import char_width

    for code in range(0x20, 0x2000):
        assert char_width(chr(code)) == max(0, wcwidth(chr(code))), hex(code)
