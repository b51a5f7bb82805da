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
