"""The ANSI diff renderer: turn successive 80x25 consoles into the bytes a terminal needs.

Each frame is compared with the last one written, on the glyph and on the colour keys
of the active colour mode, and only the changed cells are written: a cursor move where
the changed cells are not contiguous, an SGR sequence only where the colour differs from
the one in effect. Every frame is wrapped in synchronized-output markers so terminals
that know them show it at once, without tearing; others ignore them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import tcod.console
from numpy.typing import NDArray

from roguelike.core.names import WIDE_TAIL
from roguelike.frontend.glyphs import cell_text, is_wide
from roguelike.frontend.palette import (
    ColourMode,
    KeyArray,
    colour_keys,
    sgr_background,
    sgr_foreground,
)

SYNC_BEGIN = "\x1b[?2026h"
SYNC_END = "\x1b[?2026l"
RESET_AND_CLEAR = "\x1b[0m\x1b[2J"
# Colour key of a blank cell's foreground: it shows nothing, so any colour will do.
ANY_COLOUR = -1
BLANKS = (0, 0x20)
TAIL = ord(WIDE_TAIL)  # the cell a wide character spills into (see roguelike.core.names.fit)


def pair_changes(frame: Frame, changed: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """Changed cells, where a wide character and its spill cell are always written together."""
    tails = frame.glyphs[:, 1:] == TAIL
    paired = changed.copy()
    paired[:, :-1] |= changed[:, 1:] & tails
    paired[:, 1:] |= changed[:, :-1] & tails
    return paired


def fill_any_colour(fg: KeyArray) -> KeyArray:
    """Give blank cells the foreground of the cell before them, so runs stay long."""
    known = np.where(fg != ANY_COLOUR, np.arange(len(fg)), 0)
    filled: KeyArray = fg[np.maximum.accumulate(known)] if len(fg) else fg
    return filled


@dataclass
class Frame:
    """What the terminal shows: glyph codepoints and colour keys, indexed [y, x]."""

    glyphs: NDArray[np.int32]
    fg: KeyArray
    bg: KeyArray


@dataclass
class Pen:
    """Where the terminal's cursor is and which colours it writes with (None: unknown)."""

    y: int = -1
    x: int = -1
    fg: int | None = None
    bg: int | None = None


class AnsiRenderer:
    """Writes consoles to a terminal as ANSI, cell by changed cell."""

    def __init__(self, mode: ColourMode, unicode: bool, origin: tuple[int, int] = (0, 0)) -> None:
        self.mode = mode
        self.unicode = unicode
        self.origin = origin
        self.last: Frame | None = None
        self.encoding = "utf-8" if unicode else "ascii"

    def reset(self, origin: tuple[int, int]) -> None:
        """Forget what the terminal shows: the next frame clears it and is drawn whole."""
        self.origin = origin
        self.last = None

    def forget_rows(self, first: int) -> None:
        """Something else wrote over rows ``first`` onward: draw them whole next frame."""
        if self.last is not None:
            self.last.glyphs[first:] = -1

    def frame_of(self, console: tcod.console.Console) -> Frame:
        """The glyphs and colour keys of a console in this renderer's colour mode."""
        glyphs = console.ch.astype(np.int32)
        visible = (glyphs != BLANKS[0]) & (glyphs != BLANKS[1])
        fg, bg = colour_keys(self.mode, console.fg, console.bg, visible)
        frame = Frame(glyphs, np.where(visible, fg, ANY_COLOUR).astype(np.int32), bg)
        tails = glyphs[:, 1:] == TAIL  # a wide character and its spill cell share colours, so one run
        frame.fg[:, 1:][tails] = frame.fg[:, :-1][tails]
        frame.bg[:, 1:][tails] = frame.bg[:, :-1][tails]
        return frame

    def render(self, console: tcod.console.Console) -> bytes:
        """The bytes that bring the terminal from the last frame to this console."""
        frame = self.frame_of(console)
        last, self.last = self.last, frame
        if last is None:
            changed = np.ones(frame.glyphs.shape, dtype=bool)
        else:
            changed = pair_changes(frame, (frame.glyphs != last.glyphs) | (frame.fg != last.fg) | (frame.bg != last.bg))
        if not changed.any():
            return b""
        parts = [SYNC_BEGIN, RESET_AND_CLEAR if last is None else ""]
        parts.extend(self.changed_cells(frame, changed))
        parts.append(SYNC_END)
        return "".join(parts).encode(self.encoding, errors="replace")

    def changed_cells(self, frame: Frame, changed: NDArray[np.bool_]) -> list[str]:
        """Cursor moves, colour changes and text for the changed cells, run by run."""
        ys, xs = np.nonzero(changed)
        glyphs, bg = frame.glyphs[ys, xs], frame.bg[ys, xs]
        fg = fill_any_colour(frame.fg[ys, xs])
        breaks = np.flatnonzero((np.diff(xs) != 1) | (np.diff(ys) != 0) | (np.diff(fg) != 0) | (np.diff(bg) != 0))
        starts = np.concatenate(([0], breaks + 1)).tolist()
        ends = np.concatenate((breaks + 1, [len(ys)])).tolist()
        pen, parts = Pen(), []
        for start, end in zip(starts, ends):
            parts.append(self.move(pen, int(ys[start]), int(xs[start])))
            parts.append(self.colours(pen, int(fg[start]), int(bg[start])))
            parts.append(self.run_text(glyphs[start:end].tolist()))
            pen.x += end - start
        return parts

    def run_text(self, glyphs: list[int]) -> str:
        """The text of a run of cells: a wide character and its spill cell write as the character."""
        texts = [self.text_of(glyph) for glyph in glyphs]
        for index in range(len(glyphs) - 1):
            if glyphs[index + 1] == TAIL and self.unicode and is_wide(glyphs[index]):
                texts[index], texts[index + 1] = chr(glyphs[index]), ""
        return "".join(texts)

    def text_of(self, codepoint: int) -> str:
        """The text written for a glyph in this renderer's locale."""
        return cell_text(codepoint, self.unicode)

    def move(self, pen: Pen, y: int, x: int) -> str:
        """The shortest cursor motion from the pen to (y, x), or nothing if it is there."""
        if (pen.y, pen.x) == (y, x):
            return ""
        gap = x - pen.x
        same_row = pen.y == y and pen.x >= 0
        pen.y, pen.x = y, x
        if same_row and gap > 0:
            return f"\x1b[{gap}C" if gap > 1 else "\x1b[C"
        return f"\x1b[{y + self.origin[0] + 1};{x + self.origin[1] + 1}H"

    def colours(self, pen: Pen, fg: int, bg: int) -> str:
        """The SGR sequence switching the pen to these colour keys, or nothing."""
        params = []
        if fg != ANY_COLOUR and fg != pen.fg:
            params.append(sgr_foreground(self.mode, fg))
            pen.fg = fg
        if bg != pen.bg:
            params.append(sgr_background(self.mode, bg))
            pen.bg = bg
        return f"\x1b[{';'.join(params)}m" if params else ""
