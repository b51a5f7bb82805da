"""Drawing the session's notices (a failing autosave) over the notification area."""

from __future__ import annotations

import tcod.console

from roguelike.core.names import fit, printable
from roguelike.core.session import Session
from roguelike.render.panel import MESSAGE_WIDTH, MESSAGES_X, PANEL_TOP
from roguelike.render.text import wrap

WARNING = (255, 170, 60)
WARNING_BG = (60, 20, 10)


def draw_notices(console: tcod.console.Console, session: Session) -> None:
    """The active warnings over the message rows, wrapped (as the last finished save left them)."""
    rows = notice_rows(session.notices.lines(), console.height - PANEL_TOP)
    for row, text in enumerate(rows):
        console.draw_rect(MESSAGES_X, PANEL_TOP + row, MESSAGE_WIDTH, 1, ch=ord(" "), bg=WARNING_BG)
        console.print(MESSAGES_X, PANEL_TOP + row, text, fg=WARNING, bg=WARNING_BG)


def notice_rows(notices: list[str], height: int) -> list[str]:
    """The notices wrapped to the message width; what does not fit ends in an ellipsis."""
    rows = [line for text in notices for line in wrap(printable(text), MESSAGE_WIDTH) or [""]]
    if len(rows) > height:
        rows = rows[:height]
        rows[-1] = fit(rows[-1] + " …", MESSAGE_WIDTH)
    return rows
