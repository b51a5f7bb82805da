"""Things lying on the floor."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Dose:
    """A dose: Strength goes to the State of Mind, the boosts to the attributes.

    ``floor`` is the floor it was found on: its Strength is that floor's (carried or
    dropped elsewhere, a dose keeps it), and the panel's figures are worked out there."""

    kind: str
    strength: int
    confidence: int
    nerve: int
    will: int
    floor: int = 1


@dataclass(slots=True)
class Carried:
    """The doses the player carries, oldest first, each as it was found (one entry a dose in
    every list: its kind, Strength, boosts and the floor it was found on)."""

    kinds: list[str] = field(default_factory=list)
    strengths: list[int] = field(default_factory=list)
    confidence: list[int] = field(default_factory=list)
    nerve: list[int] = field(default_factory=list)
    will: list[int] = field(default_factory=list)
    floors: list[int] = field(default_factory=list)


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
