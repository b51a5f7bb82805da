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

FALLBACK: dict[str, str] = {
    "█": "#", "▓": "#", "▒": "%", "░": ":", "▀": "#", "▄": "#", "▌": "#", "▐": "#",
    "■": "#", "▪": "#", "□": "#", "·": ".", "∙": ".", "•": "*", "◦": "o", "°": "o",
    "○": "o", "●": "o", "◘": "o", "◙": "o", "≈": "~", "∼": "~", "≡": "=", "±": "+",
    "÷": "/", "×": "x", "♠": "T", "♣": "T", "♥": "v", "♦": "*", "♪": "d", "♫": "d",
    "☺": "@", "☻": "@", "☼": "*", "★": "*", "☆": "*", "♂": "m", "♀": "f",
    "↑": "^", "↓": "v", "←": "<", "→": ">", "↔": "-", "↕": "|", "▲": "^", "▼": "v",
    "►": ">", "◄": "<", "▶": ">", "◀": "<", "∞": "8", "√": "v", "Ω": "O", "π": "n",
    "…": ".", "–": "-", "—": "-", "‘": "'", "’": "'", "“": '"', "”": '"', "«": "<",
    "»": ">", "¡": "!", "¿": "?", "¢": "c", "£": "L", "¥": "Y", "§": "S", "¶": "P",
    "♯": "#", "⌂": "^", "†": "+", "‡": "+", "Φ": "0", "Θ": "0", "α": "a", "β": "b",
}


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


def ascii_fallback(char: str) -> str:
    """The ASCII stand-in for a character: the table, its unaccented letter, or ``?``."""
    if char in FALLBACK:
        return FALLBACK[char]
    name = unicodedata.name(char, "")
    if name.startswith(("BOX DRAWINGS", "BOX-DRAWING")):
        return box_fallback(name)
    if name.endswith(("BLOCK", "SHADE")):
        return "#"
    plain = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode("ascii")
    return plain if len(plain) == 1 and plain.isprintable() else "?"


def box_fallback(name: str) -> str:
    """ASCII for a box-drawing character, from its Unicode name."""
    horizontal = "HORIZONTAL" in name or "LEFT" in name or "RIGHT" in name
    vertical = "VERTICAL" in name or "UP" in name or "DOWN" in name
    if horizontal and vertical:
        return "+"
    if vertical:
        return "|"
    return "=" if "DOUBLE" in name else "-"


@functools.lru_cache(maxsize=4096)
def cell_text(codepoint: int, unicode: bool) -> str:
    """The text to write for one console cell holding ``codepoint``."""
    if codepoint < 0x20 or 0x7F <= codepoint < 0xA0 or codepoint > 0x10FFFF:
        return " "
    char = chr(codepoint)
    if codepoint < 0x7F:
        return char
    if unicode and takes_one_cell(char):
        return char
    return ascii_fallback(char)
