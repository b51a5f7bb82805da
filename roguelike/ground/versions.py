"""Version numbers of the game put in order, for what tells versions apart: kept runtimes, old records."""

from __future__ import annotations


def version_key(version: str) -> tuple[tuple[int, int, str], ...]:
    """A version ordered by its numbers (``0.10.0`` after ``0.9.1``)."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in version.split("."))
