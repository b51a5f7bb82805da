"""Monsters, the hunt, the timed statuses their hits leave, and the player's bestiary."""

from __future__ import annotations

from dataclasses import dataclass, field

NO_TARGET = 0  # esper never gives out entity id 0


@dataclass(slots=True)
class Monster:
    """A monster of a kind from the bestiary table, and its hunt.

    ``notice`` is its keenness when the floor was generated (how near the player had to
    come to be noticed then); the range it notices at follows the player's State of Mind
    live (:func:`roguelike.content.formulas.live_notice`); ``met`` is whether the player has seen it. While it
    hunts, ``target`` is the hunted entity and ``lost_for`` the turns it has been out of
    sight, and ``acts_from`` the turn from which it acts on that hunt (it holds still the turn it
    notices the player: the notice is the player's warning). (The hunt lives here rather than in a component of its own because adding and
    removing components clears esper's query cache, which forty monsters feel every turn.)
    """

    kind: str
    notice: int
    met: bool = False
    target: int = NO_TARGET
    lost_for: int = 0
    acts_from: int = 0


@dataclass(slots=True)
class Status:
    """A timed status on the player, ``turns`` more turns to go (its rules: roguelike.content.conditions)."""

    turns: int


@dataclass(slots=True)
class Stunned(Status):
    """The player cannot act."""


@dataclass(slots=True)
class Panicked(Status):
    """The player runs from monsters (or at random)."""


@dataclass(slots=True)
class Confused(Status):
    """The player's controls are inverted."""


@dataclass(slots=True)
class Doubting(Status):
    """A share of the player's steps become hesitations."""


@dataclass(slots=True)
class Ashamed(Status):
    """The player cannot face a dose: none is taken."""


@dataclass(slots=True)
class Bestiary:
    """What the player went through, by monster kind and by hit effect."""

    met: dict[str, int] = field(default_factory=dict)
    slain: dict[str, int] = field(default_factory=dict)
    suffered: dict[str, int] = field(default_factory=dict)
