"""What the browser sends, turned into the ``tcod.event`` events the window sends.

Keys come as the browser's physical key codes (``KeyboardEvent.code``: ``KeyH``,
``Numpad8``, ``Period``), which name the key where it sits on a US keyboard whatever the
layout; they map to the ``KeySym`` names ``keys.toml`` uses, so a binding means the same
key in the browser as in the terminal. Typed characters come separately, as text, for
name entry. A client message is one of (the first byte says which):

- ``0x10`` key down, ``0x14`` key up: modifier bits (1 Shift, 2 Ctrl, 4 Alt, 8 a repeat),
  then the code in ASCII;
- ``0x11`` text: UTF-8;
- ``0x12`` the pointer moved to a cell, ``0x13`` a button pressed on a cell: column, row
  (and the button: 1 left, 2 middle, 3 right).

Anything else, or anything malformed, is :class:`BadMessage`.
"""

from __future__ import annotations

import string

import tcod.event
from tcod.event import KeySym, Modifier, MouseButton, Scancode

from roguelike.content import formulas

KEY_DOWN, TEXT, MOUSE_MOVE, MOUSE_CLICK, KEY_UP = 0x10, 0x11, 0x12, 0x13, 0x14
MAX_CODE = 32
MAX_TEXT = 16
SHIFT_BIT, CTRL_BIT, ALT_BIT, REPEAT_BIT = 1, 2, 4, 8
MODIFIER_BITS = ((SHIFT_BIT, Modifier.SHIFT), (CTRL_BIT, Modifier.CTRL), (ALT_BIT, Modifier.ALT))
BUTTONS = {1: MouseButton.LEFT, 2: MouseButton.MIDDLE, 3: MouseButton.RIGHT}

NAMED_CODES: dict[str, KeySym] = {
    "ArrowUp": KeySym.UP,
    "ArrowDown": KeySym.DOWN,
    "ArrowLeft": KeySym.LEFT,
    "ArrowRight": KeySym.RIGHT,
    "Home": KeySym.HOME,
    "End": KeySym.END,
    "PageUp": KeySym.PAGEUP,
    "PageDown": KeySym.PAGEDOWN,
    "Insert": KeySym.INSERT,
    "Delete": KeySym.DELETE,
    "Escape": KeySym.ESCAPE,
    "Enter": KeySym.RETURN,
    "Tab": KeySym.TAB,
    "Backspace": KeySym.BACKSPACE,
    "Space": KeySym.SPACE,
    "Minus": KeySym.MINUS,
    "Equal": KeySym.EQUALS,
    "BracketLeft": KeySym.LEFTBRACKET,
    "BracketRight": KeySym.RIGHTBRACKET,
    "Backslash": KeySym.BACKSLASH,
    "Semicolon": KeySym.SEMICOLON,
    "Quote": KeySym.APOSTROPHE,
    "Backquote": KeySym.GRAVE,
    "Comma": KeySym.COMMA,
    "Period": KeySym.PERIOD,
    "Slash": KeySym.SLASH,
    "IntlBackslash": KeySym.LESS,
    "NumpadDecimal": KeySym.KP_PERIOD,
    "NumpadEnter": KeySym.KP_ENTER,
    "NumpadAdd": KeySym.KP_PLUS,
    "NumpadSubtract": KeySym.KP_MINUS,
    "NumpadMultiply": KeySym.KP_MULTIPLY,
    "NumpadDivide": KeySym.KP_DIVIDE,
    "NumpadEqual": KeySym.KP_EQUALS,
    "NumpadComma": KeySym.KP_COMMA,
    "NumpadClear": KeySym.CLEAR,
    "ShiftLeft": KeySym.LSHIFT,
    "ShiftRight": KeySym.RSHIFT,
    "ControlLeft": KeySym.LCTRL,
    "ControlRight": KeySym.RCTRL,
    "AltLeft": KeySym.LALT,
    "AltRight": KeySym.RALT,
    "MetaLeft": KeySym.LGUI,
    "MetaRight": KeySym.RGUI,
    "CapsLock": KeySym.CAPSLOCK,
    "NumLock": KeySym.NUMLOCKCLEAR,
}

BROWSER_CODES: dict[str, KeySym] = {
    **{f"Key{letter}": KeySym[letter] for letter in string.ascii_uppercase},
    **{f"Digit{digit}": KeySym[f"N{digit}"] for digit in range(10)},
    **{f"Numpad{digit}": KeySym[f"KP_{digit}"] for digit in range(10)},
    **{f"F{number}": KeySym[f"F{number}"] for number in range(1, 13)},
    **NAMED_CODES,
}


class BadMessage(ValueError):
    """A client message that is not one of the protocol's."""


def modifiers(bits: int) -> Modifier:
    """The ``Modifier`` flags of a key message's modifier bits."""
    mod = Modifier.NONE
    for bit, flag in MODIFIER_BITS:
        if bits & bit:
            mod |= flag
    return mod


def key_event(code: str, bits: int, down: bool = True) -> tcod.event.KeyDown | tcod.event.KeyUp | None:
    """The key event of a browser key code (None for a key the game has no name for)."""
    sym = BROWSER_CODES.get(code)
    if sym is None:
        return None
    scancode = Scancode.__members__.get(sym.name, Scancode.UNKNOWN)
    kind = tcod.event.KeyDown if down else tcod.event.KeyUp
    event = kind(scancode=scancode, sym=sym, mod=modifiers(bits), pressed=down)
    event.repeat = bool(bits & REPEAT_BIT)
    return event


def decode(message: bytes) -> tcod.event.Event | None:
    """The event a client message stands for (None: a key the game does not know)."""
    if not message:
        raise BadMessage("an empty message")
    kind, body = message[0], message[1:]
    if kind in (KEY_DOWN, KEY_UP):
        return decode_key(body, kind == KEY_DOWN)
    if kind == TEXT:
        return decode_text(body)
    if kind in (MOUSE_MOVE, MOUSE_CLICK):
        return decode_mouse(body, kind == MOUSE_CLICK)
    raise BadMessage(f"unknown message kind {kind}")


def decode_key(body: bytes, down: bool) -> tcod.event.Event | None:
    """A key message's event."""
    if not 2 <= len(body) <= MAX_CODE + 1:
        raise BadMessage("a key message of the wrong length")
    code = body[1:].decode("ascii", errors="replace")
    if not code.isalnum():
        raise BadMessage("a key code that is not a code")
    return key_event(code, body[0], down)


def decode_text(body: bytes) -> tcod.event.TextInput:
    """A text message's event: printable characters only."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise BadMessage("text that is not UTF-8") from None
    if not text or len(text) > MAX_TEXT or not text.isprintable():
        raise BadMessage("text that is empty, too long or not printable")
    return tcod.event.TextInput(text=text)


def decode_mouse(body: bytes, click: bool) -> tcod.event.Event:
    """A pointer message's event, positioned on console cells as the window converts them."""
    if len(body) != (3 if click else 2):
        raise BadMessage("a pointer message of the wrong length")
    column, row = body[0], body[1]
    if column >= formulas.SCREEN_WIDTH or row >= formulas.SCREEN_HEIGHT:
        raise BadMessage("a pointer off the screen")
    position, tile = tcod.event.Point(float(column), float(row)), tcod.event.Point(column, row)
    if not click:
        return tcod.event.MouseMotion(position=position, tile=tile)
    if body[2] not in BUTTONS:
        raise BadMessage("an unknown mouse button")
    return tcod.event.MouseButtonDown(position=position, tile=tile, button=BUTTONS[body[2]])
