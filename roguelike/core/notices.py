"""Warnings for the player that are not part of the game: never saved, never checksummed.

A failed autosave (disk full, read-only folder) must be shown without touching the
game state, or the save and the replay would disagree about what happened in a turn.
The in-game screen draws the active notices in the notification area.
"""

from __future__ import annotations


class Notices:
    """Current warnings by topic; a topic's warning stays until it is cleared."""

    def __init__(self) -> None:
        self._active: dict[str, str] = {}

    def warn(self, topic: str, text: str) -> None:
        """Show (or replace) the warning about a topic."""
        self._active[topic] = text

    def clear(self, topic: str) -> None:
        """The trouble about a topic is over."""
        self._active.pop(topic, None)

    def lines(self) -> list[str]:
        """The active warnings, oldest topic first."""
        return list(self._active.values())
