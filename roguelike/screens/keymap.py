"""Keys as data: which key means which direction, for every frontend (the default
bindings of :mod:`roguelike.screens.bindings` are made from these tables).

The design's controls: arrows for cardinal steps; numpad, Home/End/PgUp/PgDn, Shift+Left
and Shift+Right (up-left, up-right) and Ctrl+Left and Ctrl+Right (down-left, down-right)
for diagonals; vi-keys hjklyubn; ``.``, numpad 5 or Clear to wait. Digits count as the
numpad, since that is what terminals send with NumLock on.
"""

from __future__ import annotations

import tcod.event
from tcod.event import KeySym, Modifier

MOVE_KEYS: dict[KeySym, tuple[int, int]] = {
    KeySym.LEFT: (-1, 0),
    KeySym.RIGHT: (1, 0),
    KeySym.UP: (0, -1),
    KeySym.DOWN: (0, 1),
    KeySym.HOME: (-1, -1),
    KeySym.PAGEUP: (1, -1),
    KeySym.END: (-1, 1),
    KeySym.PAGEDOWN: (1, 1),
    KeySym.KP_1: (-1, 1),
    KeySym.KP_2: (0, 1),
    KeySym.KP_3: (1, 1),
    KeySym.KP_4: (-1, 0),
    KeySym.KP_6: (1, 0),
    KeySym.KP_7: (-1, -1),
    KeySym.KP_8: (0, -1),
    KeySym.KP_9: (1, -1),
    # Terminals with NumLock on send the numpad as plain digits.
    KeySym.N1: (-1, 1),
    KeySym.N2: (0, 1),
    KeySym.N3: (1, 1),
    KeySym.N4: (-1, 0),
    KeySym.N6: (1, 0),
    KeySym.N7: (-1, -1),
    KeySym.N8: (0, -1),
    KeySym.N9: (1, -1),
    KeySym.H: (-1, 0),
    KeySym.J: (0, 1),
    KeySym.K: (0, -1),
    KeySym.L: (1, 0),
    KeySym.Y: (-1, -1),
    KeySym.U: (1, -1),
    KeySym.B: (-1, 1),
    KeySym.N: (1, 1),
}

# Shift or Ctrl with Left/Right turns a sideways step into a diagonal.
MODIFIED_MOVES: dict[tuple[Modifier, KeySym], tuple[int, int]] = {
    (Modifier.SHIFT, KeySym.LEFT): (-1, -1),
    (Modifier.SHIFT, KeySym.RIGHT): (1, -1),
    (Modifier.CTRL, KeySym.LEFT): (-1, 1),
    (Modifier.CTRL, KeySym.RIGHT): (1, 1),
}

WAIT_KEYS = frozenset({KeySym.PERIOD, KeySym.KP_5, KeySym.N5, KeySym.KP_PERIOD, KeySym.CLEAR, KeySym.S})

CONFIRM_KEYS = frozenset({KeySym.RETURN, KeySym.KP_ENTER, KeySym.SPACE})
MENU_UP = frozenset({KeySym.UP, KeySym.KP_8, KeySym.K})
MENU_DOWN = frozenset({KeySym.DOWN, KeySym.KP_2, KeySym.J})


def is_fullscreen_toggle(event: tcod.event.KeyDown) -> bool:
    """Alt+Enter switches the window between windowed and fullscreen."""
    return event.sym in (KeySym.RETURN, KeySym.KP_ENTER) and bool(event.mod & Modifier.ALT)
