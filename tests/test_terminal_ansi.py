"""The ANSI diff renderer, checked byte for byte and by replaying its output in pyte."""

from __future__ import annotations

import numpy as np
import pyte
import tcod.console
from hypothesis import given, settings
from hypothesis import strategies as st

from roguelike.frontend.ansi import AnsiRenderer
from roguelike.frontend.palette import ColourMode

SYNC_BEGIN, SYNC_END = b"\x1b[?2026h", b"\x1b[?2026l"


def blank_console() -> tcod.console.Console:
    """An 80x25 console of spaces, white on black."""
    return tcod.console.Console(80, 25, order="C")


def busy_console(seed: int) -> tcod.console.Console:
    """A console where every cell has its own glyph and colours."""
    rng = np.random.default_rng(seed)
    console = blank_console()
    console.ch[:] = rng.integers(33, 127, (25, 80))
    console.fg[:] = rng.integers(0, 256, (25, 80, 3))
    console.bg[:] = rng.integers(0, 256, (25, 80, 3))
    return console


def replay(*chunks: bytes, columns: int = 80, rows: int = 25) -> pyte.Screen:
    """A pyte screen after it received the renderer's bytes."""
    screen = pyte.Screen(columns, rows)
    stream = pyte.ByteStream(screen)
    for chunk in chunks:
        stream.feed(chunk)
    return screen


def hex_colour(rgb: np.ndarray) -> str:
    """pyte's spelling of an RGB colour."""
    return "".join(f"{int(channel):02x}" for channel in rgb)


def assert_shows(screen: pyte.Screen, console: tcod.console.Console, origin: tuple[int, int] = (0, 0)) -> None:
    """Every console cell appears on the pyte screen with its glyph and exact colours."""
    for y in range(console.height):
        row = screen.buffer[y + origin[0]]
        for x in range(console.width):
            cell = row[x + origin[1]]
            expected = chr(int(console.ch[y, x]))
            assert cell.data == expected, (y, x)
            assert cell.bg == hex_colour(console.bg[y, x]), (y, x)
            if expected != " ":
                assert cell.fg == hex_colour(console.fg[y, x]), (y, x)


def test_first_frame_clears_and_draws_every_cell() -> None:
    console = busy_console(1)
    output = AnsiRenderer(ColourMode.TRUECOLOUR, unicode=True).render(console)
    assert output.startswith(SYNC_BEGIN + b"\x1b[0m\x1b[2J")
    assert output.endswith(SYNC_END)
    assert_shows(replay(output), console)


def test_unchanged_frame_writes_nothing() -> None:
    renderer = AnsiRenderer(ColourMode.TRUECOLOUR, unicode=True)
    console = busy_console(2)
    renderer.render(console)
    assert renderer.render(console) == b""


def test_one_changed_cell_is_one_move_one_colour_one_glyph() -> None:
    renderer = AnsiRenderer(ColourMode.TRUECOLOUR, unicode=True)
    console = blank_console()
    renderer.render(console)
    console.print(3, 4, "@", fg=(255, 255, 0), bg=(0, 0, 0))
    expected = SYNC_BEGIN + b"\x1b[5;4H\x1b[38;2;255;255;0;48;2;0;0;0m@" + SYNC_END
    assert renderer.render(console) == expected


def test_same_row_gap_uses_a_relative_move_and_keeps_the_colour() -> None:
    renderer = AnsiRenderer(ColourMode.COLOURS_256, unicode=True)
    console = blank_console()
    renderer.render(console)
    console.print(10, 0, "a", fg=(255, 0, 0), bg=(0, 0, 0))
    console.print(15, 0, "b", fg=(255, 0, 0), bg=(0, 0, 0))
    expected = SYNC_BEGIN + b"\x1b[1;11H\x1b[38;5;196;48;5;16ma\x1b[4Cb" + SYNC_END
    assert renderer.render(console) == expected


def test_contiguous_cells_of_one_colour_are_one_run() -> None:
    renderer = AnsiRenderer(ColourMode.COLOURS_16, unicode=True)
    console = blank_console()
    renderer.render(console)
    console.print(0, 24, "Turn 12", fg=(255, 255, 255), bg=(0, 0, 0))
    assert renderer.render(console) == SYNC_BEGIN + b"\x1b[25;1H\x1b[97;40mTurn\x1b[C12" + SYNC_END


def test_blank_cells_ignore_foreground_changes() -> None:
    renderer = AnsiRenderer(ColourMode.TRUECOLOUR, unicode=True)
    console = blank_console()
    renderer.render(console)
    console.fg[:] = (12, 34, 56)
    assert renderer.render(console) == b""


def test_colour_change_the_mode_cannot_show_writes_nothing() -> None:
    renderer = AnsiRenderer(ColourMode.COLOURS_256, unicode=True)
    console = blank_console()
    console.print(0, 0, "#", fg=(200, 0, 0))
    renderer.render(console)
    console.fg[0, 0] = (201, 1, 1)  # the same cube entry as (200, 0, 0): (215, 0, 0)
    assert renderer.render(console) == b""
    console.fg[0, 0] = (0, 200, 0)
    assert renderer.render(console) != b""


def test_origin_offsets_the_whole_frame() -> None:
    console = busy_console(3)
    renderer = AnsiRenderer(ColourMode.TRUECOLOUR, unicode=True, origin=(2, 10))
    screen = replay(renderer.render(console), columns=100, rows=30)
    assert_shows(screen, console, origin=(2, 10))
    assert all(screen.buffer[0][x].data == " " for x in range(100))


def test_reset_redraws_everything_after_a_clear() -> None:
    renderer = AnsiRenderer(ColourMode.TRUECOLOUR, unicode=True)
    console = busy_console(4)
    renderer.render(console)
    renderer.reset((0, 0))
    output = renderer.render(console)
    assert b"\x1b[2J" in output
    assert_shows(replay(output), console)


def test_256_colour_frame_shows_the_palette_entries() -> None:
    console = blank_console()
    console.print(0, 0, "R", fg=(255, 0, 0), bg=(0, 0, 255))
    console.print(1, 0, "G", fg=(128, 128, 128), bg=(255, 255, 255))
    screen = replay(AnsiRenderer(ColourMode.COLOURS_256, unicode=True).render(console))
    assert (screen.buffer[0][0].fg, screen.buffer[0][0].bg) == ("ff0000", "0000ff")
    assert (screen.buffer[0][1].fg, screen.buffer[0][1].bg) == ("808080", "ffffff")


def test_ascii_locale_gets_ascii_only() -> None:
    console = blank_console()
    console.print(0, 0, "┌─┐│█·é≈")
    output = AnsiRenderer(ColourMode.TRUECOLOUR, unicode=False).render(console)
    output.decode("ascii")
    assert replay(output).display[0].startswith("/-\\|#.e~")


def test_unicode_locale_keeps_box_drawing_but_not_wide_glyphs() -> None:
    console = blank_console()
    console.print(0, 0, "┌─┐ 中x")
    screen = replay(AnsiRenderer(ColourMode.TRUECOLOUR, unicode=True).render(console))
    assert screen.display[0].startswith("┌─┐ ?x")


def test_control_codepoints_never_reach_the_terminal() -> None:
    console = blank_console()
    console.ch[0, :5] = [0x1B, 0x07, 0x0A, 0x9B, 0x41]
    output = AnsiRenderer(ColourMode.TRUECOLOUR, unicode=True).render(console)
    assert replay(output).display[0][:5] == "    A"
    assert b"\x07" not in output and b"\n" not in output and "\x9b".encode() not in output


CHANGE = st.tuples(
    st.integers(0, 79),
    st.sampled_from([0, 1, 12, 24]),
    st.sampled_from("@.#~ g"),
    st.integers(0, 255),
    st.integers(0, 255),
)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(CHANGE, min_size=1, max_size=15), min_size=1, max_size=6), st.sampled_from(list(ColourMode)))
def test_diffs_keep_the_terminal_equal_to_the_console(
    frames: list[list[tuple[int, int, str, int, int]]], mode: ColourMode
) -> None:
    renderer = AnsiRenderer(mode, unicode=True)
    console = blank_console()
    screen = pyte.Screen(80, 25)
    stream = pyte.ByteStream(screen)
    stream.feed(renderer.render(console))
    for changes in frames:
        for x, y, glyph, red, blue in changes:
            console.print(x, y, glyph, fg=(red, 255 - red, blue), bg=(blue, red, 0))
        stream.feed(renderer.render(console))
    fresh = replay(AnsiRenderer(mode, unicode=True).render(console))
    assert cells(screen) == cells(fresh)


def cells(screen: pyte.Screen) -> list[tuple[str, str | None, str]]:
    """Glyph, foreground (where a glyph shows) and background of every cell."""
    found = []
    for y in range(screen.lines):
        for x in range(screen.columns):
            cell = screen.buffer[y][x]
            found.append((cell.data, cell.fg if cell.data != " " else None, cell.bg))
    return found
