"""The mouse, for both frontends: menu entries are pointed at and clicked (the map's own
mouse, hover and click-to-travel, is in :mod:`roguelike.screens.hover`).

Frontends hand the screens mouse events whose ``position`` is a cell of the 80x25
console (the window converts pixels, the terminal decodes its mouse reports). Menus
need no code of their own: pointing at an entry selects it and clicking it is Enter.
The game stays fully playable without a mouse.
"""

from __future__ import annotations

import tcod.event
from tcod.event import KeySym, MouseButton

from roguelike.content import formulas
from roguelike.screens.menu import Menu

MOUSE_EVENTS = (tcod.event.MouseMotion, tcod.event.MouseButtonDown)
Pointer = tcod.event.MouseMotion | tcod.event.MouseButtonDown


def cell_of(event: Pointer) -> tuple[int, int]:
    """The console cell under the pointer."""
    return int(event.position.x), int(event.position.y)


def on_map(cell: tuple[int, int]) -> bool:
    """Whether a cell is on the map (not the panel)."""
    x, y = cell
    return 0 <= x < formulas.MAP_WIDTH and 0 <= y < formulas.MAP_HEIGHT


def point_at_menu(screen: object, event: tcod.event.Event) -> tcod.event.Event | None:
    """A pointer over a screen's menu: hovering selects the entry, a click is Enter on it.

    Returns the event the screen should get instead (None: nothing), or the event itself
    when it is no business of a menu.
    """
    menu = getattr(screen, "menu", None)
    if not isinstance(event, MOUSE_EVENTS) or not isinstance(menu, Menu):
        return event
    index = entry_at(menu, cell_of(event))
    if index is None:
        return None
    menu.cursor = index
    if isinstance(event, tcod.event.MouseButtonDown) and event.button == MouseButton.LEFT:
        return tcod.event.KeyDown(scancode=tcod.event.Scancode.RETURN, sym=KeySym.RETURN, mod=tcod.event.Modifier.NONE)
    return None


def entry_at(menu: Menu, cell: tuple[int, int]) -> int | None:
    """The menu entry drawn under a cell, if any."""
    if menu.drawn_at is None:
        return None
    left, top = menu.drawn_at
    x, y = cell
    index = y - top
    if not 0 <= index < len(menu.labels):
        return None
    width = len(f"> {index + 1}. {menu.labels[index]}")
    return index if left <= x < left + width else None
