"""How a help page's entries are laid out on the screen, however many there are.

A page is a list of entries (a rule with its text, a monster, a paragraph), each a few
lines kept together. A line too wide wraps at its words under where its text began; a
page too tall is turned in as few parts as hold it, cut between entries (inside one only
when it is taller than a whole part) and balanced, so no part is left holding a lone
entry when an even cut exists. Blank entries separate groups and never start or end a part;
a :class:`Heading` (a table's column names) starts every later part of its page again.
"""

from __future__ import annotations

import bisect
from typing import NamedTuple

from roguelike.content import formulas

Colour = tuple[int, int, int]
Line = list[tuple[str, Colour]]
Entry = list[Line]  # lines kept together on one part where they fit
TOP = 2  # the tabs, then a blank row
HINTS = formulas.SCREEN_HEIGHT - 1  # the row that says how to turn and leave
ROWS = HINTS - TOP  # rows of text a part of a page holds
WIDTH = formulas.SCREEN_WIDTH - 2  # columns of text, from the margin to the edge
NARROWEST = 24  # text wrapped beside a column keeps at least this many columns
BLANK: Entry = [[]]


class Heading(list[Line]):
    """An entry shown again atop every later part of its page (the names of a table's columns)."""


class Laid(NamedTuple):
    """A part of a page: its rows, the first ``repeated`` of them a heading shown on an earlier part too."""

    rows: list[Line]
    repeated: int


def parts_of(entries: list[Entry], size: int = ROWS, width: int = WIDTH) -> list[Laid]:
    """A page's entries as rows fitted to ``width``, in the fewest parts of at most ``size`` rows,
    cut between entries (inside one only when it is taller than a part) and as even as those
    cuts allow; blank rows never start or end a part, and a heading starts each part after its own."""
    blocks = [fitted_entry(entry, width) for entry in entries]
    rows = [row for block in blocks for row in block]
    cuts, repeats = cut_points(blocks, entries, size)
    heights = Heights(rows)
    best = cheapest_cuts(cuts, repeats, heights, size)
    if len(rows) not in best:  # an entry too tall to follow its heading: the heading is not repeated
        cuts, repeats = cut_points(blocks, [list(entry) for entry in entries], size)
        best = cheapest_cuts(cuts, repeats, heights, size)
    ends = [len(rows)]
    while ends[-1]:
        ends.append(best[ends[-1]][2])
    chosen = [(repeats[start], heights.trimmed(start, end)) for start, end in zip(ends[:0:-1], ends[-2::-1])]
    return [Laid([*heading, *part], len(heading)) for heading, part in chosen if part] or [Laid([], 0)]


def cheapest_cuts(
    cuts: list[int], repeats: dict[int, list[Line]], heights: Heights, size: int
) -> dict[int, tuple[int, int, int]]:
    """For each cut that parts of at most ``size`` rows can reach: the fewest parts up to it, then
    the least sum of their squared heights (the most even), and the cut before it on that way."""
    best: dict[int, tuple[int, int, int]] = {0: (0, 0, 0)}
    for end in cuts[1:]:
        choices = []
        for start in reversed([cut for cut in cuts if cut < end]):
            height = heights.between(start, end)
            if height > size:
                break
            height += len(repeats[start]) if height else 0
            if start in best and height <= size:
                parts, squares, _ = best[start]
                choices.append((parts + (1 if height else 0), squares + height * height, start))
        if choices:
            best[end] = min(choices)
    return best


def cut_points(blocks: list[Entry], entries: list[Entry], size: int) -> tuple[list[int], dict[int, list[Line]]]:
    """The rows a page may be cut before (between entries but not just after a heading, and
    anywhere inside an entry taller than ``size``), each with the heading a part starting there repeats."""
    cuts: dict[int, list[Line]] = {0: []}
    row, heading = 0, list[Line]()
    for block, entry in zip(blocks, entries):
        if len(block) > size:
            cuts.update((inside, heading) for inside in range(row + 1, row + len(block)))
        row += len(block)
        if isinstance(entry, Heading) and len(block) < size:
            heading = block
        else:
            cuts[row] = heading
    cuts[row] = heading
    return sorted(cuts), cuts


class Heights:
    """How many rows a stretch of a page takes once the blank rows at its ends are dropped."""

    def __init__(self, rows: list[Line]) -> None:
        self.rows = rows
        written = [index for index, row in enumerate(rows) if line_text(row).strip()]
        self.first = [bisect.bisect_left(written, index) for index in range(len(rows) + 1)]
        self.written = written

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The first and one past the last row with text in ``rows[start:end]`` (equal if none)."""
        low, high = self.first[start], self.first[end]
        if low == high:
            return start, start
        return self.written[low], self.written[high - 1] + 1

    def between(self, start: int, end: int) -> int:
        """The rows ``rows[start:end]`` take, blank ends dropped."""
        low, high = self.span(start, end)
        return high - low

    def trimmed(self, start: int, end: int) -> list[Line]:
        """``rows[start:end]`` without blank rows at either end."""
        low, high = self.span(start, end)
        return self.rows[low:high]


def fitted_entry(entry: Entry, width: int) -> Entry:
    """An entry's lines as rows no wider than ``width``."""
    return [row for line in entry for row in fitted(line, width)]


def fitted(line: Line, width: int = WIDTH) -> list[Line]:
    """A line as rows no wider than ``width``: the text that would pass the edge wraps at a
    word, under where that text began (a word wider than a whole row is the only thing broken)."""
    rows: list[Line] = []
    while (cut := overflow(line, width)) is not None:
        index, start = cut
        text, colour = line[index]
        indent = min(start + len(text) - len(text.lstrip(" ")), width - NARROWEST)
        first, rest = split_at_word(text, width - start)
        if not first and start > indent:  # not one word fits here: the text starts the next row
            rows.append(line[:index])
            line = [(" " * indent, colour), (text.lstrip(" "), colour), *line[index + 1 :]]
            continue
        if not first:
            first, rest = text[: width - start], text[width - start :]
        rows.append([*line[:index], (first, colour)])
        line = [(" " * indent, colour), (rest.lstrip(" "), colour), *line[index + 1 :]]
    return [*rows, line]


def overflow(line: Line, width: int) -> tuple[int, int] | None:
    """The first piece of a line whose text passes ``width``, and the column it starts at."""
    start = 0
    for index, (text, _) in enumerate(line):
        if start + len(text.rstrip()) > width:
            return index, start
        start += len(text)
    return None


def split_at_word(text: str, room: int) -> tuple[str, str]:
    """The most whole words of ``text`` that fit in ``room`` columns, and the rest ("" first if none fit)."""
    space = text.rfind(" ", 0, room + 1)
    if space <= 0 or not text[:space].strip():
        return "", text
    return text[:space].rstrip(" "), text[space:]


def line_text(line: Line) -> str:
    """A line's text, without its colours."""
    return "".join(text for text, _ in line)
