"""Screen-reader mode of the terminal: plain lines to announce, the cursor on ``@``.

After each frame, the new lines a :class:`~roguelike.screens.speech.Narrator` hands out
are written as plain text (no colours, whole lines at once), so a screen reader
announces them as it would a shell's output. With rows to spare under the 80x25 game
they scroll in a region of their own, a log to review; in a terminal of exactly 25 rows
the newest lines cover the panel's rows until the next frame draws them again. Then the
cursor is left, visible, on the cell the screen names (the player, a menu's entry), so
a screen reader's review cursor starts there.
"""

from __future__ import annotations

import tcod.console

from roguelike.core.names import printable
from roguelike.frontend.ansi import AnsiRenderer
from roguelike.frontend.termsession import Capabilities
from roguelike.render.text import wrap
from roguelike.screens.base import App
from roguelike.screens.speech import Narrator

ROWS = 25
PLAIN = "\x1b[0m"
CLEAR_LINE = "\x1b[2K"
WHOLE_SCREEN_REGION = "\x1b[r"
FALLBACK_ROWS = 4  # with no rows to spare, the newest lines cover the panel until the next frame


class ReaderOutput:
    """What the terminal writes for a screen reader after each frame."""

    def __init__(self, capabilities: Capabilities) -> None:
        self.capabilities = capabilities
        self.narrator = Narrator()

    def after_frame(
        self, app: App, console: tcod.console.Console, renderer: AnsiRenderer, size: tuple[int, int]
    ) -> bytes:
        """The new lines, then the cursor moved onto the screen's cell and shown."""
        lines = self.narrator.lines(app, console)
        parts = [self.lines_text(lines, renderer, size)] if lines else []
        at = self.narrator.cursor(app)
        if at is not None:
            parts.append(f"\x1b[{at[1] + renderer.origin[0] + 1};{at[0] + renderer.origin[1] + 1}H")
            parts.append(self.capabilities.show_cursor)
        else:
            parts.append(self.capabilities.hide_cursor)
        return "".join(parts).encode(renderer.encoding, errors="replace")

    def lines_text(self, lines: list[str], renderer: AnsiRenderer, size: tuple[int, int]) -> str:
        """Lines scrolled into the rows under the game, or the newest over its last row."""
        columns, rows = size
        # Text from a save or a file name must never reach the terminal as escape sequences.
        wrapped = [part for line in lines for part in wrap(printable(line), max(columns - 1, 1))]
        if rows > ROWS:
            region = f"\x1b[{ROWS + 1};{rows}r\x1b[{rows};1H{PLAIN}"
            return region + "".join(f"\r\n{line}" for line in wrapped) + WHOLE_SCREEN_REGION
        shown = wrapped[-FALLBACK_ROWS:]
        first = ROWS - len(shown)
        renderer.forget_rows(first)
        return PLAIN + "".join(f"\x1b[{first + row + 1};1H{CLEAR_LINE}{line}" for row, line in enumerate(shown))
