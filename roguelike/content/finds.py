"""Typed content table: the finds, things on a floor that only the High can see or take.

Design ("Additional ideas"): "Items/abilities you can see and pick up only when you're
high". A find is placed by map generation like a dose, but it is a vision: while the
player is not High it is not there at all (not drawn, not described, not stepped on).
Walking onto it while High takes it. What it does is data here, applied by
:func:`systems.finds.take_find` without branching on kinds. Keys are saved.
"""

from __future__ import annotations

from dataclasses import dataclass

from roguelike.content import formulas


@dataclass(frozen=True)
class FindKind:
    """A kind of find: its look, what taking it does, how often it turns up."""

    key: str
    name: str
    glyph: str
    colour: tuple[int, int, int]
    description: str  # what looking at it says
    taken: str  # the message when taken
    tolerance: int = 0  # added to Tolerance (never below its start)
    nerve: int = 0  # added to Nerve (within its bounds)
    will: int = 0  # added to Will (within its bounds)
    reveals: bool = False  # the floor's whole layout and its stairs become known
    weight: int = 1
    from_floor: int = formulas.FINDS_FROM_FLOOR

    def effect(self) -> str:
        """What taking it does, in a few words (look, Help, readouts)."""
        parts = [
            f"Tolerance {self.tolerance:+d}" if self.tolerance else "",
            f"Nerve {self.nerve:+d}" if self.nerve else "",
            f"Will {self.will:+d}" if self.will else "",
            "shows the floor and its stairs" if self.reveals else "",
        ]
        return ", ".join(part for part in parts if part)


CLARITY = FindKind(
    key="clarity",
    name="Clarity",
    glyph="=",
    colour=(255, 255, 255),
    description="A Clarity: your next doses will hit harder.",
    taken="A moment of Clarity: your Tolerance falls to {tolerance}.",
    tolerance=formulas.CLARITY_TOLERANCE,
    weight=formulas.CLARITY_WEIGHT,
)

CALM = FindKind(
    key="calm",
    name="Calm",
    glyph="~",
    colour=(110, 200, 255),
    description="A Calm: it steadies your Nerve and your Will.",
    taken="A Calm settles on you: Nerve {nerve}, Will {will}.",
    nerve=formulas.CALM_NERVE,
    will=formulas.CALM_WILL,
    weight=formulas.CALM_WEIGHT,
)

INSIGHT = FindKind(
    key="insight",
    name="Insight",
    glyph="?",
    colour=(255, 215, 0),
    description="An Insight: it shows this floor and its stairs.",
    taken="Insight: the whole floor opens up in your mind, stairs and all.",
    reveals=True,
    weight=formulas.INSIGHT_WEIGHT,
)

FIND_KINDS: dict[str, FindKind] = {kind.key: kind for kind in (CLARITY, CALM, INSIGHT)}


def finds_on_floor(depth: int) -> list[FindKind]:
    """The kinds of find that can turn up on floor ``depth``, in table order."""
    return [kind for kind in FIND_KINDS.values() if depth >= kind.from_floor]


def finds_words(taken: dict[str, int]) -> str:
    """The finds taken, in words: ``2 Clarity, 1 Insight`` (table order), or ``none``."""
    words = [f"{taken[key]} {kind.name}" for key, kind in FIND_KINDS.items() if taken.get(key)]
    return ", ".join(words) or "none"
