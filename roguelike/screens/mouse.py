"""The mouse, for both frontends: menu entries are pointed at and clicked (the map's own
mouse, hover and click-to-travel, is in :mod:`roguelike.screens.hover`), and an entry of
the in-view list beside the map stands for its cell on the map (hovering it describes
the cell, clicking it travels there, as on the map itself).

Frontends hand the screens mouse events whose ``position`` is a cell of the 80x25
console (the window converts pixels, the terminal decodes its mouse reports). Menus
need no code of their own: pointing at an entry selects it and clicking it is Enter.
The game stays fully playable without a mouse.
"""

from __future__ import annotations

import copy
import typing
from dataclasses import dataclass

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


@dataclass(frozen=True)
class ListShown:
    """The in-view list as last drawn beside the game: its columns, and the map cell of the
    entry each of its rows belongs to (None: a title, a gap, the count of what did not fit)."""

    left: int
    right: int
    cells: tuple[tuple[int, int] | None, ...]


def over_list(shown: ListShown | None, event: tcod.event.Event) -> bool:
    """Whether a pointer is over the in-view list's columns."""
    return shown is not None and isinstance(event, MOUSE_EVENTS) and shown.left <= cell_of(event)[0] < shown.right


def entry_cell(shown: ListShown | None, event: tcod.event.Event) -> tuple[int, int] | None:
    """The map cell of the list's entry under a pointer (None: not over an entry)."""
    if shown is None or not over_list(shown, event):
        return None
    y = cell_of(typing.cast(Pointer, event))[1]
    return shown.cells[y] if 0 <= y < len(shown.cells) else None


def point_at_list(shown: ListShown | None, event: tcod.event.Event) -> tcod.event.Event | None:
    """A pointer over an entry of the in-view list, moved to the entry's cell on the map (so
    hover and click do what they do there); over the list's other rows, nothing."""
    if not over_list(shown, event):
        return event
    cell = entry_cell(shown, event)
    if cell is None:
        return None
    moved = copy.copy(typing.cast(Pointer, event))
    moved.position = tcod.event.Point(*cell)
    return moved


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
