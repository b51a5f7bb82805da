"""The player character's body and mind."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Player:
    """Tag and identity of the player character."""

    name: str


@dataclass(slots=True)
class StateOfMind:
    """How high the player is: 0 is exhaustion, above 100 an overdose."""

    value: int


@dataclass(slots=True)
class Attributes:
    """Confidence, Nerve and Will, each within 1..10."""

    confidence: int
    nerve: int
    will: int


@dataclass(slots=True)
class Tolerance:
    """Rises with every dose and never falls; weakens every dose."""

    value: int


@dataclass(slots=True)
class Record:
    """What the score is made of: doses, close calls, kills, depth reached."""

    doses_used: int = 0
    close_calls: int = 0
    kills: int = 0
    deepest_floor: int = 1
    perfect_highs: int = 0  # times the State of Mind entered the Perfect High window
    in_perfect_high: bool = False  # whether it is in the window now
    dose_kinds: dict[str, int] = field(default_factory=dict)  # doses taken, by kind


@dataclass(slots=True)
class Sight:
    """How far the player saw when sight was last cast (it follows the State of Mind)."""

    radius: int


@dataclass(slots=True)
class Score:
    """The score banked from floors left behind, and the floor's raw points on arrival."""

    banked: int = 0
    floor_start: int = 0


@dataclass(slots=True)
class HighStreak:
    """Turns ending High since the last Withdrawal, the longest such streak, and the points the longest paid."""

    turns: int = 0
    best: int = 0
    bonus: int = 0


@dataclass(slots=True)
class FindsTaken:
    """The finds the player has taken, by kind."""

    kinds: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class Palette:
    """World colours derived from the State of Mind by the colour-shift system."""

    saturation: float
    brightness: float
    psychedelic: bool
