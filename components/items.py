"""Things lying on the floor."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class Dose:
    """A dose: Strength goes to the State of Mind, the boosts to the attributes."""

    kind: str
    strength: int
    confidence: int
    nerve: int
    will: int


@dataclass(slots=True)
class Vision:
    """Tag: this thing exists for the player only while High (seen and used then only)."""


@dataclass(slots=True)
class Shortcut:
    """Tag: stepping here takes the player down a floor (a vision: only while High)."""


@dataclass(slots=True)
class Find:
    """A find of a kind (roguelike/content/finds.py): always a vision, taken by walking onto it while High."""

    kind: str
