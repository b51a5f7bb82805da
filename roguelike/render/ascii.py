"""ASCII stand-ins for the glyphs the game draws: box lines as ``-|+``, blocks as ``#``, ...

Used where only ASCII may be shown: the terminal frontend outside a UTF-8 locale, and
both frontends when the Glyphs setting is ASCII.
"""

from __future__ import annotations

import unicodedata

FALLBACK: dict[str, str] = {
    "█": "#",
    "▓": "#",
    "▒": "%",
    "░": ":",
    "▀": "#",
    "▄": "#",
    "▌": "#",
    "▐": "#",
    "■": "#",
    "▪": "#",
    "□": "#",
    "·": ".",
    "∙": ".",
    "•": "*",
    "◦": "o",
    "°": "o",
    "○": "o",
    "●": "o",
    "◘": "o",
    "◙": "o",
    "≈": "~",
    "∼": "~",
    "≡": "=",
    "±": "+",
    "÷": "/",
    "×": "x",
    "♠": "T",
    "♣": "T",
    "♥": "v",
    "♦": "*",
    "♪": "d",
    "♫": "d",
    "☺": "@",
    "☻": "@",
    "☼": "*",
    "★": "*",
    "☆": "*",
    "♂": "m",
    "♀": "f",
    "↑": "^",
    "↓": "v",
    "←": "<",
    "→": ">",
    "↔": "-",
    "↕": "|",
    "▲": "^",
    "▼": "v",
    "►": ">",
    "◄": "<",
    "▶": ">",
    "◀": "<",
    "∞": "8",
    "√": "v",
    "Ω": "O",
    "π": "n",
    "…": ".",
    "–": "-",
    "—": "-",
    "‘": "'",
    "’": "'",
    "“": '"',
    "”": '"',
    "«": "<",
    "»": ">",
    "¡": "!",
    "¿": "?",
    "¢": "c",
    "£": "L",
    "¥": "Y",
    "§": "S",
    "¶": "P",
    "♯": "#",
    "⌂": "^",
    "†": "+",
    "‡": "+",
    "Φ": "0",
    "Θ": "0",
    "α": "a",
    "β": "b",
}


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


# Corners as slashes, so a menu's frame never shows a door ('+') at its corners.
CORNERS = {"DOWN AND RIGHT": "/", "DOWN AND LEFT": "\\", "UP AND RIGHT": "\\", "UP AND LEFT": "/"}


def box_fallback(name: str) -> str:
    """ASCII for a box-drawing character, from its Unicode name (corners as slashes)."""
    corner = next((text for arms, text in CORNERS.items() if name.endswith(arms)), None)
    if corner is not None:
        return corner
    horizontal = "HORIZONTAL" in name or "LEFT" in name or "RIGHT" in name
    vertical = "VERTICAL" in name or "UP" in name or "DOWN" in name
    if horizontal and vertical:
        return "+"
    if vertical:
        return "|"
    return "=" if "DOUBLE" in name else "-"
