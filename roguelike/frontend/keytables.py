"""Tables from terminal keys to the ``KeySym``/``Modifier`` pairs the window produces.

The window (SDL 3) reports the unshifted key and the modifiers: ``>`` is Shift+Period,
``H`` is Shift+H. A terminal only sends the character, so characters are mapped back to
keys as on a US layout; the character itself also goes out as ``TextInput``.
"""

from __future__ import annotations

import string

from tcod.event import KeySym, Modifier

Key = tuple[KeySym, Modifier]
NONE = Modifier.NONE
SHIFT = Modifier.SHIFT

# Control characters. Ctrl+H and Ctrl+I, Ctrl+M, Ctrl+[ are indistinguishable from
# Backspace, Tab, Enter and Esc in a terminal; they mean the latter.
CONTROL_KEYS: dict[str, Key] = {
    "\r": (KeySym.RETURN, NONE),
    "\n": (KeySym.RETURN, NONE),
    "\t": (KeySym.TAB, NONE),
    "\x7f": (KeySym.BACKSPACE, NONE),
    "\x08": (KeySym.BACKSPACE, NONE),
    "\x00": (KeySym.SPACE, Modifier.CTRL),
    **{
        chr(code): (KeySym[letter], Modifier.CTRL)
        for code, letter in enumerate(string.ascii_uppercase, start=1)
        if chr(code) not in "\r\n\t\x08"
    },
}

# Sequences checked after the terminal's own terminfo entry but before blessed's tables, because its tables for some TERM values lack them or
# name them in a way that loses the keypad: arrows, Home and End in application-cursor
# mode (sent whatever TERM says once we ask for keypad mode), numpad 5 without NumLock
# (ESC [G on the Linux console), keypad Enter, the Linux console's F1-F5, rxvt's
# Shift and Ctrl arrows.
EXTRA_SEQUENCES: dict[str, Key] = {
    "\x1bOA": (KeySym.UP, NONE),
    "\x1bOB": (KeySym.DOWN, NONE),
    "\x1bOC": (KeySym.RIGHT, NONE),
    "\x1bOD": (KeySym.LEFT, NONE),
    "\x1bOH": (KeySym.HOME, NONE),
    "\x1bOF": (KeySym.END, NONE),
    "\x1b[G": (KeySym.KP_5, NONE),
    "\x1b[E": (KeySym.KP_5, NONE),
    "\x1bOE": (KeySym.KP_5, NONE),
    "\x1bOM": (KeySym.KP_ENTER, NONE),
    "\x1b[[A": (KeySym.F1, NONE),
    "\x1b[[B": (KeySym.F2, NONE),
    "\x1b[[C": (KeySym.F3, NONE),
    "\x1b[[D": (KeySym.F4, NONE),
    "\x1b[[E": (KeySym.F5, NONE),
    "\x1b[a": (KeySym.UP, SHIFT),
    "\x1b[b": (KeySym.DOWN, SHIFT),
    "\x1b[c": (KeySym.RIGHT, SHIFT),
    "\x1b[d": (KeySym.LEFT, SHIFT),
    "\x1bOa": (KeySym.UP, Modifier.CTRL),
    "\x1bOb": (KeySym.DOWN, Modifier.CTRL),
    "\x1bOc": (KeySym.RIGHT, Modifier.CTRL),
    "\x1bOd": (KeySym.LEFT, Modifier.CTRL),
}

# blessed key names (from the terminal's terminfo and its own tables) to keys.
NAMED_KEYS: dict[str, Key] = {
    "KEY_UP": (KeySym.UP, NONE),
    "KEY_DOWN": (KeySym.DOWN, NONE),
    "KEY_LEFT": (KeySym.LEFT, NONE),
    "KEY_RIGHT": (KeySym.RIGHT, NONE),
    "KEY_SUP": (KeySym.UP, SHIFT),
    "KEY_SDOWN": (KeySym.DOWN, SHIFT),
    "KEY_SLEFT": (KeySym.LEFT, SHIFT),
    "KEY_SRIGHT": (KeySym.RIGHT, SHIFT),
    "KEY_HOME": (KeySym.HOME, NONE),
    "KEY_END": (KeySym.END, NONE),
    "KEY_SHOME": (KeySym.HOME, SHIFT),
    "KEY_SEND": (KeySym.END, SHIFT),
    "KEY_PGUP": (KeySym.PAGEUP, NONE),
    "KEY_PGDOWN": (KeySym.PAGEDOWN, NONE),
    "KEY_INSERT": (KeySym.INSERT, NONE),
    "KEY_DELETE": (KeySym.DELETE, NONE),
    "KEY_UP_LEFT": (KeySym.KP_7, NONE),
    "KEY_UP_RIGHT": (KeySym.KP_9, NONE),
    "KEY_CENTER": (KeySym.KP_5, NONE),
    "KEY_BEGIN": (KeySym.KP_5, NONE),
    "KEY_DOWN_LEFT": (KeySym.KP_1, NONE),
    "KEY_DOWN_RIGHT": (KeySym.KP_3, NONE),
    "KEY_ENTER": (KeySym.RETURN, NONE),
    "KEY_BTAB": (KeySym.TAB, SHIFT),
    "KEY_KP_MULTIPLY": (KeySym.KP_MULTIPLY, NONE),
    "KEY_KP_ADD": (KeySym.KP_PLUS, NONE),
    "KEY_KP_SEPARATOR": (KeySym.KP_COMMA, NONE),
    "KEY_KP_SUBTRACT": (KeySym.KP_MINUS, NONE),
    "KEY_KP_DECIMAL": (KeySym.KP_PERIOD, NONE),
    "KEY_KP_DIVIDE": (KeySym.KP_DIVIDE, NONE),
    "KEY_KP_EQUAL": (KeySym.KP_EQUALS, NONE),
    **{f"KEY_KP_{digit}": (KeySym[f"KP_{digit}"], NONE) for digit in range(10)},
    **{f"KEY_F{number}": (KeySym[f"F{number}"], NONE) for number in range(1, 13)},
}

UNSHIFTED_SYMBOLS: dict[str, KeySym] = {
    " ": KeySym.SPACE,
    "-": KeySym.MINUS,
    "=": KeySym.EQUALS,
    "[": KeySym.LEFTBRACKET,
    "]": KeySym.RIGHTBRACKET,
    "\\": KeySym.BACKSLASH,
    ";": KeySym.SEMICOLON,
    "'": KeySym.APOSTROPHE,
    ",": KeySym.COMMA,
    ".": KeySym.PERIOD,
    "/": KeySym.SLASH,
    "`": KeySym.GRAVE,
}
# What Shift turns each key into on a US layout.
SHIFTED_SYMBOLS: dict[str, KeySym] = {
    "!": KeySym.N1,
    "@": KeySym.N2,
    "#": KeySym.N3,
    "$": KeySym.N4,
    "%": KeySym.N5,
    "^": KeySym.N6,
    "&": KeySym.N7,
    "*": KeySym.N8,
    "(": KeySym.N9,
    ")": KeySym.N0,
    "_": KeySym.MINUS,
    "+": KeySym.EQUALS,
    "{": KeySym.LEFTBRACKET,
    "}": KeySym.RIGHTBRACKET,
    "|": KeySym.BACKSLASH,
    ":": KeySym.SEMICOLON,
    '"': KeySym.APOSTROPHE,
    "<": KeySym.COMMA,
    ">": KeySym.PERIOD,
    "?": KeySym.SLASH,
    "~": KeySym.GRAVE,
}


def char_key(char: str) -> Key | None:
    """The key and modifier that type ``char`` on a US layout (None outside ASCII)."""
    if char in string.ascii_lowercase:
        return KeySym[char.upper()], NONE
    if char in string.ascii_uppercase:
        return KeySym[char], SHIFT
    if char in string.digits:
        return KeySym[f"N{char}"], NONE
    if char in UNSHIFTED_SYMBOLS:
        return UNSHIFTED_SYMBOLS[char], NONE
    if char in SHIFTED_SYMBOLS:
        return SHIFTED_SYMBOLS[char], SHIFT
    return None
