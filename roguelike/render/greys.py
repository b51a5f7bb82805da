"""The greys a greyscale palette tells monster kinds apart by, derived by rule.

Greys differ in lightness alone, so only so many fit between the darkest one still
readable on the floor and white while each stays far enough from the next
(:func:`distinct_greys`: 6 on today's floor). Up to that many kinds, each gets a grey of
its own, spread evenly over that ladder in the order of its own colour's lightness. Past
it the ladder keeps its spacing and neighbouring kinds share its greys, as few to a grey
as can be: their letters tell them apart, as in a 16-colour terminal, and no two greys
shown are ever closer than :data:`GREY_KINDS_APART`. So the bestiary may grow without limit.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from roguelike.content.bestiary import MonsterKind

RGB = tuple[int, int, int]
GREY_KINDS_APART = 10.0  # CIEDE2000 between two monster kinds' greys
GREY_ON_FLOOR = 20.0  # CIEDE2000 between a monster's grey and the floor it stands on
LUMA = (0.299, 0.587, 0.114)


def lightness(level: int) -> float:
    """CIE L* of the sRGB grey ``(level, level, level)``."""
    value = level / 255
    linear = value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4
    return 116 * linear ** (1 / 3) - 16 if linear > 216 / 24389 else 24389 / 27 * linear


def grey_difference(a: int, b: int) -> float:
    """CIEDE2000 between two greys (for neutral colours only its lightness term is left)."""
    light_a, light_b = lightness(a), lightness(b)
    off_middle = (light_a + light_b) / 2 - 50
    return abs(light_a - light_b) / (1 + 0.015 * off_middle**2 / math.sqrt(20 + off_middle**2))


def grey_steps(ground: int, apart: float) -> list[int]:
    """Greys from the darkest readable on ``ground`` towards white, each ``apart`` from the one before."""
    steps = [next(level for level in range(ground, 256) if grey_difference(ground, level) >= GREY_ON_FLOOR)]
    for level in range(steps[0] + 1, 256):
        if grey_difference(steps[-1], level) >= apart:
            steps.append(level)
    return steps


def grey_ladder(count: int, ground: int) -> list[int]:
    """``count`` greys readable on ``ground``, spread as widely as they fit below white."""
    narrow, wide = 0.0, 100.0
    for _ in range(24):  # halve the gap between a spacing that fits and one that does not
        middle = (narrow + wide) / 2
        narrow, wide = (middle, wide) if len(grey_steps(ground, middle)) >= count else (narrow, middle)
    return grey_steps(ground, narrow)[:count]


def distinct_greys(ground: int) -> int:
    """How many greys readable on ``ground`` stay :data:`GREY_KINDS_APART` from each other."""
    return len(grey_steps(ground, GREY_KINDS_APART))


def monster_greys(kinds: Iterable[MonsterKind], ground: int) -> dict[str, RGB]:
    """Each monster kind a grey of the ladder, darkest for the kind whose own colour is darkest;
    past :func:`distinct_greys` kinds, neighbours on the ladder share a grey (their letters differ)."""
    ordered = sorted(kinds, key=lambda kind: sum(weight * channel for weight, channel in zip(LUMA, kind.colour)))
    ladder = grey_ladder(min(len(ordered), distinct_greys(ground)), ground)
    shared = [ladder[index * len(ladder) // len(ordered)] for index in range(len(ordered))]
    return {kind.key: (level, level, level) for kind, level in zip(ordered, shared)}
