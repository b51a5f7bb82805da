"""Drawing the session's notices (a failing autosave) over the notification area."""

from __future__ import annotations

import tcod.console

from roguelike.names import fit
from roguelike.notices import Notices
from roguelike.panel import MESSAGE_WIDTH, MESSAGES_X, PANEL_TOP

WARNING = (255, 170, 60)
WARNING_BG = (60, 20, 10)


def draw_notices(console: tcod.console.Console, notices: Notices) -> None:
    """The active warnings on the first rows of the notification area, over the messages."""
    for row, text in enumerate(notices.lines()[: console.height - PANEL_TOP]):
        console.draw_rect(MESSAGES_X, PANEL_TOP + row, MESSAGE_WIDTH, 1, ch=ord(" "), bg=WARNING_BG)
        console.print(MESSAGES_X, PANEL_TOP + row, fit(text, MESSAGE_WIDTH), fg=WARNING, bg=WARNING_BG)
