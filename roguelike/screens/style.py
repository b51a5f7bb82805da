"""The colours every screen's text shares, so menus and lists look like one game."""

from __future__ import annotations

HEADING = (255, 230, 120)
SELECTED = (255, 230, 120)
NORMAL = (170, 170, 185)
TEXT = (190, 190, 200)
HINT = (130, 130, 150)
