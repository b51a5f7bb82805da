"""Drawing the session's notices (a failing autosave) over the notification area."""

from __future__ import annotations

import tcod.console

from roguelike.core.names import fit
from roguelike.render.panel import MESSAGE_WIDTH, MESSAGES_X, PANEL_TOP
from roguelike.core.session import Session

WARNING = (255, 170, 60)
WARNING_BG = (60, 20, 10)


def draw_notices(console: tcod.console.Console, session: Session) -> None:
    """The active warnings over the first message rows (as the last finished save left them)."""
    for row, text in enumerate(session.notices.lines()[: console.height - PANEL_TOP]):
        console.draw_rect(MESSAGES_X, PANEL_TOP + row, MESSAGE_WIDTH, 1, ch=ord(" "), bg=WARNING_BG)
        console.print(MESSAGES_X, PANEL_TOP + row, fit(text, MESSAGE_WIDTH), fg=WARNING, bg=WARNING_BG)
