"""Turning console codepoints into text a terminal shows in exactly one cell.

In a UTF-8 locale most glyphs pass through; in any other locale (or with
``HEDONIC_GLYPHS=ascii``) every codepoint outside ASCII goes through a fallback table
so the map still reads (walls as ``#``, box lines as ``-|+``). In both modes anything
that would not take exactly one cell (control characters, wide or combining
characters) is replaced, because one stray width breaks every cell after it.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Mapping

from roguelike.core.names import WIDE_TAIL, char_width
from roguelike.render.ascii import ascii_fallback


def locale_is_utf8(env: Mapping[str, str]) -> bool:
    """Whether the locale in ``env`` (LC_ALL, then LC_CTYPE, then LANG) is UTF-8."""
    forced = env.get("HEDONIC_GLYPHS", "").strip().lower()
    if forced in ("ascii", "unicode"):
        return forced == "unicode"
    for name in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = env.get(name, "")
        if value:
            return value.lower().replace("-", "").find("utf8") >= 0
    return False


def takes_one_cell(char: str) -> bool:
    """Whether a terminal advances the cursor by exactly one cell for ``char``."""
    if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn", "Mn", "Me", "Zl", "Zp"):
        return False
    return unicodedata.east_asian_width(char) not in ("W", "F")


@functools.lru_cache(maxsize=4096)
def is_wide(codepoint: int) -> bool:
    """Whether a character takes two terminal cells (CJK, most emoji)."""
    return 0 <= codepoint <= 0x10FFFF and char_width(chr(codepoint)) == 2


@functools.lru_cache(maxsize=4096)
def cell_text(codepoint: int, unicode: bool) -> str:
    """The text to write for one console cell holding ``codepoint``."""
    if codepoint < 0x20 or 0x7F <= codepoint < 0xA0 or codepoint > 0x10FFFF or chr(codepoint) == WIDE_TAIL:
        return " "  # a spill cell alone (its wide character overwritten) is blank
    char = chr(codepoint)
    if codepoint < 0x7F:
        return char
    if unicode and takes_one_cell(char):
        return char
    return ascii_fallback(char)
