"""Typed content tables: the kinds of dose (monsters join them in their own table)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DoseKind:
    """A kind of dose: its look and the ranges its attributes are drawn from."""

    key: str
    name: str
    glyph: str
    colour: tuple[int, int, int]
    strength: tuple[int, int]
    confidence: tuple[int, int]
    nerve: tuple[int, int]
    will: tuple[int, int]


SMALL_DOSE = DoseKind(
    key="dose",
    name="dose",
    glyph="i",
    colour=(255, 60, 220),
    strength=(36, 56),
    confidence=(0, 2),
    nerve=(0, 1),
    will=(-1, 1),
)

STRONG_DOSE = DoseKind(
    key="strong_dose",
    name="strong dose",
    glyph="I",
    colour=(80, 255, 255),
    strength=(55, 75),
    confidence=(1, 3),
    nerve=(0, 2),
    will=(-2, 1),
)

DOSE_KINDS: dict[str, DoseKind] = {kind.key: kind for kind in (SMALL_DOSE, STRONG_DOSE)}
