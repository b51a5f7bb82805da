"""Typed content tables: the kinds of dose (monsters have their own table).

Four sizes (small, normal, large, extra-large) whose purity is drawn within their
Strength range, and two explosive kinds that clear monsters along lines when taken
(Dose Response's cardinal and diagonal doses). Every number comes from
:mod:`roguelike.content.formulas`; ``description`` is what looking at a dose says.
Keys are saved: ``dose`` and ``strong_dose`` keep their names from format 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from roguelike.content import formulas

CARDINAL_LINES: tuple[tuple[int, int], ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
DIAGONAL_LINES: tuple[tuple[int, int], ...] = ((1, -1), (1, 1), (-1, 1), (-1, -1))


@dataclass(frozen=True)
class DoseKind:
    """A kind of dose: its look, the ranges its attributes are drawn from, where it turns up."""

    key: str
    name: str
    glyph: str
    colour: tuple[int, int, int]
    strength: tuple[int, int]
    confidence: tuple[int, int]
    nerve: tuple[int, int]
    will: tuple[int, int]
    description: str
    weight: int = 1
    from_floor: int = 1
    blast: tuple[tuple[int, int], ...] = ()  # lines along which taking it clears monsters


SMALL_DOSE = DoseKind(
    key="small_dose",
    name="small dose",
    glyph="i",
    colour=(255, 170, 255),
    strength=formulas.SMALL_DOSE_STRENGTH,
    confidence=(0, 1),
    nerve=(-1, 1),
    will=(0, 1),
    description="A small dose: a little lift, and little risk.",
    weight=formulas.SMALL_DOSE_WEIGHT,
)

NORMAL_DOSE = DoseKind(
    key="dose",
    name="dose",
    glyph="!",
    colour=(255, 60, 220),
    strength=formulas.NORMAL_DOSE_STRENGTH,
    confidence=(-1, 2),
    nerve=(-1, 2),
    will=(-1, 2),
    description="A dose of the usual size; its purity is anyone's guess.",
    weight=formulas.NORMAL_DOSE_WEIGHT,
)

LARGE_DOSE = DoseKind(
    key="strong_dose",
    name="large dose",
    glyph="I",
    colour=(80, 255, 255),
    strength=formulas.LARGE_DOSE_STRENGTH,
    confidence=(-1, 3),
    nerve=(-3, 1),
    will=(-2, 2),
    description="A large dose: a long high, if your Tolerance allows.",
    weight=formulas.LARGE_DOSE_WEIGHT,
    from_floor=formulas.LARGE_DOSE_FROM_FLOOR,
)

EXTRA_LARGE_DOSE = DoseKind(
    key="extra_large_dose",
    name="extra-large dose",
    glyph="&",
    colour=(255, 250, 90),
    strength=formulas.EXTRA_LARGE_DOSE_STRENGTH,
    confidence=(1, 3),
    nerve=(1, 2),
    will=(-3, 0),
    description="An extra-large dose: enough to overdose on when you are already up.",
    weight=formulas.EXTRA_LARGE_DOSE_WEIGHT,
    from_floor=formulas.EXTRA_LARGE_DOSE_FROM_FLOOR,
)

CARDINAL_DOSE = DoseKind(
    key="cardinal_dose",
    name="cardinal dose",
    glyph="*",
    colour=(255, 190, 80),
    strength=formulas.BLAST_DOSE_STRENGTH,
    confidence=(0, 2),
    nerve=(0, 1),
    will=(-1, 1),
    description="A cardinal dose: taking it blasts the monsters in line north, south, east and west.",
    weight=formulas.BLAST_DOSE_WEIGHT,
    from_floor=formulas.CARDINAL_DOSE_FROM_FLOOR,
    blast=CARDINAL_LINES,
)

DIAGONAL_DOSE = DoseKind(
    key="diagonal_dose",
    name="diagonal dose",
    glyph="x",
    colour=(120, 255, 90),
    strength=formulas.BLAST_DOSE_STRENGTH,
    confidence=(0, 2),
    nerve=(0, 1),
    will=(-1, 1),
    description="A diagonal dose: taking it blasts the monsters along the four diagonals.",
    weight=formulas.BLAST_DOSE_WEIGHT,
    from_floor=formulas.DIAGONAL_DOSE_FROM_FLOOR,
    blast=DIAGONAL_LINES,
)

DOSE_KINDS: dict[str, DoseKind] = {
    kind.key: kind for kind in (SMALL_DOSE, NORMAL_DOSE, LARGE_DOSE, EXTRA_LARGE_DOSE, CARDINAL_DOSE, DIAGONAL_DOSE)
}

# A vision of a way down: seen and taken only while High (placed from VISIONS_FROM_FLOOR on).
SHORTCUT_GLYPH = ">"
SHORTCUT_COLOUR = (190, 120, 255)
SHORTCUT_TEXT = "A way down, shimmering: only the High can see it, or take it."

# The dose every game starts beside on floor 1.
START_DOSE = NORMAL_DOSE
# What a vision (a dose seen only while High) adds to a dose's description.
VISION_TEXT = "It shimmers: only the High can see it, or take it."


def kinds_on_floor(depth: int) -> list[DoseKind]:
    """The kinds of dose that can turn up on floor ``depth``, in table order."""
    return [kind for kind in DOSE_KINDS.values() if depth >= kind.from_floor]


class Risk(Enum):
    """How a dose could end a life now, in the words the look panel and the confirmation use."""

    NONE = "no risk of overdose"
    PURER = "a purer batch COULD kill"
    COULD = "it COULD overdose you"
    WILL = "it WILL overdose you"


@dataclass(frozen=True)
class DoseOdds:
    """What a dose lying on a floor could give now: the usual gains, the purest, the risk."""

    low: int
    high: int
    purest: int  # a rare purer batch
    risk: Risk

    @property
    def could_kill(self) -> bool:
        """Whether any draw of it, the purer batch included, would be an overdose."""
        return self.risk is not Risk.NONE

    def if_purer(self, words: str) -> str:
        """``words`` (about the purer batch) if one of these can lie here, else nothing."""
        return words if self.purest > self.high else ""


def strength_bounds(kind: DoseKind, depth: int) -> tuple[int, int]:
    """The usual Strength of a dose of ``kind`` found on floor ``depth`` (as map generation draws it)."""
    bonus = formulas.dose_strength_bonus(depth)
    return kind.strength[0] + bonus, kind.strength[1] + bonus


def dose_odds(kind: DoseKind, depth: int, state_of_mind: int, tolerance: int) -> DoseOdds:
    """The true figures of a dose of ``kind`` on floor ``depth``: the look panel's and the confirmation's."""
    weakest, strongest = strength_bounds(kind, depth)
    low, high = formulas.dose_gain(weakest, tolerance), formulas.dose_gain(strongest, tolerance)
    purest = formulas.dose_gain(strongest + formulas.purer_batch_extra(depth), tolerance)
    return DoseOdds(low, high, purest, overdose_risk(state_of_mind, low, high, purest))


def overdose_risk(state_of_mind: int, low: int, high: int, purest: int) -> Risk:
    """The worst a dose's gains could do at a State of Mind."""
    if formulas.is_overdose(state_of_mind + low):
        return Risk.WILL
    if formulas.is_overdose(state_of_mind + high):
        return Risk.COULD
    return Risk.PURER if formulas.is_overdose(state_of_mind + purest) else Risk.NONE
