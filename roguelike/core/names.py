"""Character names: any Unicode the player types, kept safe to store and to draw.

Control and format characters (escape sequences, newlines, bidi overrides, lone
surrogates) are dropped, because they could garble a terminal or make a name that
cannot be encoded; everything else, emoji and all scripts included, is kept.
"""

from __future__ import annotations

import unicodedata

NAME_MAX = 200  # code points kept; screens truncate further to what fits
DEFAULT_NAME = "Wanderer"
WIDE_TAIL = "\ue000"  # private use (never in a name): the second cell of a wide character
UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def printable(text: str) -> str:
    """The text without characters that are unsafe to store or draw."""
    return "".join(c for c in text if unicodedata.category(c) not in UNSAFE_CATEGORIES)


def shown(text: object) -> str:
    """Text from outside the game (a file name, a path, a reason naming one) fit to print on a
    line: each unsafe character becomes ``?``, so escape sequences never reach the terminal and
    undecodable bytes never fail to print, while the name stays as long and as findable."""
    return "".join("?" if unicodedata.category(c) in UNSAFE_CATEGORIES else c for c in str(text))


def shown_lines(text: object) -> str:
    """Several lines of such text (a crash message, a report), each made safe by :func:`shown`."""
    return "\n".join(shown(line) for line in str(text).split("\n"))


def clean_name(text: str) -> str:
    """A name as the game keeps it: printable, single spaces, at most NAME_MAX long."""
    return " ".join(printable(text).split())[:NAME_MAX].rstrip()  # a cut may end on a space


def char_width(char: str) -> int:
    """Cells a character takes in a terminal: 0 (combining), 1, or 2 (CJK, most emoji)."""
    if " " <= char < "\x7f" or "\xa0" <= char < "\u0300":
        return 1  # Latin letters: known without wcwidth's tables, whose import costs every start-up
    from wcwidth import wcwidth

    return max(0, wcwidth(char))


def text_width(text: str) -> int:
    """Cells a text takes in a terminal."""
    return sum(char_width(char) for char in text if char != WIDE_TAIL)


def fit(text: str, width: int) -> str:
    """Printable text cut to ``width`` cells (an ellipsis when cut), one code point a cell.

    A console holds one character a cell, so each wide character is followed by
    :data:`WIDE_TAIL`, the cell it spills into: the text's length is its width, padding
    with ``:<20`` works, and the terminal frontend writes the pair as one character.
    Characters of no width (combining marks left after NFC) are dropped.
    """
    cells: list[str] = []
    for char in unicodedata.normalize("NFC", printable(text)):
        size = char_width(char)
        if size:
            cells.append(char + WIDE_TAIL if size == 2 else char)
    if width <= 0:
        return ""
    if sum(len(cell) for cell in cells) <= width:
        return "".join(cells)
    kept, used = [], 0
    for cell in cells:
        if used + len(cell) > width - 1:
            break
        kept.append(cell)
        used += len(cell)
    return "".join(kept) + "…"


def on_one_line(fitted: str) -> str:
    """Fitted text for a line of output rather than a console (the spill cells removed)."""
    return fitted.replace(WIDE_TAIL, "")
