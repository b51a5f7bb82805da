"""Character names: any Unicode the player types, kept safe to store and to draw.

Control and format characters (escape sequences, newlines, bidi overrides, lone
surrogates) are dropped, because they could garble a terminal or make a name that
cannot be encoded; everything else, emoji and all scripts included, is kept.
"""

from __future__ import annotations

import unicodedata

NAME_MAX = 200  # code points kept; screens truncate further to what fits
DEFAULT_NAME = "Wanderer"
UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def printable(text: str) -> str:
    """The text without characters that are unsafe to store or draw."""
    return "".join(c for c in text if unicodedata.category(c) not in UNSAFE_CATEGORIES)


def clean_name(text: str) -> str:
    """A name as the game keeps it: printable, single spaces, at most NAME_MAX long."""
    return " ".join(printable(text).split())[:NAME_MAX].rstrip()  # a cut may end on a space


def fit(text: str, width: int) -> str:
    """Printable text cut to ``width`` cells, with an ellipsis when cut."""
    shown = printable(text)
    if width <= 0:
        return ""
    return shown if len(shown) <= width else shown[: width - 1] + "…"
