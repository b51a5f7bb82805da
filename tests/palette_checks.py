"""Which colours must stay apart in a palette, measured with coloraide's CVD simulation.

The colour difference is CIEDE2000 between the colours as seen with normal vision and
as simulated for protanopia, deuteranopia and tritanopia (full severity, coloraide's
default method for each). Each group of pairs has its own least difference: large areas
side by side (the mood bands) and a glyph against what surrounds it need more than two
small glyphs, which also differ by letter. Two monster kinds the greyscale palette gives one
grey (past the greys it can tell apart) are told apart by their letters alone.
:func:`free_colours` proposes colours for a new monster kind that keep every pair apart.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterable, Iterator

from coloraide import Color

from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.content.doses import DOSE_KINDS
from roguelike.content.finds import FIND_KINDS
from roguelike.render.colours import MOOD_SLOTS, RGB, Scheme, Slot

VISIONS = ("normal", "protan", "deutan", "tritan")
# Least CIEDE2000 difference for each group of pairs.
MOOD_BANDS = 15.0
DOSE_SURROUNDINGS = 25.0
MONSTER_KINDS_APART = 10.0
PULL_ZONE = 6.0
LEGIBLE_ON_FLOOR = 20.0

Pair = tuple[str, RGB, str, RGB, float]


@functools.lru_cache(maxsize=4096)
def seen(rgb: RGB, vision: str) -> Color:
    """A colour as a viewer with this vision sees it."""
    colour = Color("srgb", [channel / 255 for channel in rgb])
    return colour if vision == "normal" else colour.filter(vision)


def difference(a: RGB, b: RGB, vision: str) -> float:
    """CIEDE2000 between two colours as seen with a vision."""
    return float(seen(a, vision).delta_e(seen(b, vision), method="2000"))


def kind_colours(scheme: Scheme) -> dict[str, RGB]:
    """The colour each monster kind is drawn in."""
    return {key: scheme.kind_colour(key, kind.colour) for key, kind in MONSTER_KINDS.items()}


def dose_colours(scheme: Scheme) -> dict[str, RGB]:
    """The colour each dose kind is drawn in."""
    return {key: scheme.kind_colour(key, kind.colour) for key, kind in DOSE_KINDS.items()}


def find_colours(scheme: Scheme) -> dict[str, RGB]:
    """The colour each kind of find is drawn in (while High)."""
    return {key: scheme.kind_colour(key, kind.colour) for key, kind in FIND_KINDS.items()}


def pairs_that_matter(scheme: Scheme) -> Iterator[Pair]:
    """Every pair of colours a player must tell apart, with its least difference."""
    for slot_a, slot_b in itertools.combinations(MOOD_SLOTS + (Slot.BAR_EMPTY,), 2):
        yield slot_a.value, scheme[slot_a], slot_b.value, scheme[slot_b], MOOD_BANDS
    surroundings = (Slot.FLOOR_FG, Slot.FLOOR_BG, Slot.WALL_FG, Slot.WALL_BG, Slot.PULL_ZONE)
    for key, colour in {**dose_colours(scheme), **find_colours(scheme)}.items():
        for slot in surroundings:
            yield key, colour, slot.value, scheme[slot], DOSE_SURROUNDINGS
    for (a, colour_a), (b, colour_b) in itertools.combinations(kind_colours(scheme).items(), 2):
        if scheme.grey_screen and colour_a == colour_b:
            continue  # a grey shared by design (render/greys.py): the letters tell them apart
        yield a, colour_a, b, colour_b, MONSTER_KINDS_APART
    for key, colour in kind_colours(scheme).items():
        yield key, colour, Slot.FLOOR_BG.value, scheme[Slot.FLOOR_BG], LEGIBLE_ON_FLOOR
    for slot in (Slot.FLOOR_BG, Slot.WALL_BG):
        yield Slot.PULL_ZONE.value, scheme[Slot.PULL_ZONE], slot.value, scheme[slot], PULL_ZONE
        # The walls that shift are drawn open on the floor's ground and shut on the wall's.
        for shifting in (Slot.CREEPING_FG, Slot.VEIL_FG):
            yield shifting.value, scheme[shifting], slot.value, scheme[slot], LEGIBLE_ON_FLOOR


def too_close(scheme: Scheme, visions: tuple[str, ...] = VISIONS) -> list[str]:
    """Every pair that matters and falls under its least difference, described."""
    found = []
    for name_a, a, name_b, b, least in pairs_that_matter(scheme):
        for vision in visions:
            measured = difference(a, b, vision)
            if measured < least:
                found.append(f"{scheme.name.value}: {name_a} {a} vs {name_b} {b} ({vision}): {measured:.1f} < {least}")
    return found


CUBE_LEVELS = (0, 95, 135, 175, 215, 255)  # xterm's colour cube: shown exactly in a 256-colour terminal


def free_colours(scheme: Scheme, count: int, visions: tuple[str, ...] = VISIONS) -> list[RGB]:
    """Up to ``count`` colours of the xterm cube for new monster kinds of a palette, each readable
    on its floor and as far as can be from the colour of the player, of every kind of monster,
    dose and find, and from each other (for every vision), none nearer than two monster kinds keep."""
    floor = scheme[Slot.FLOOR_BG]
    candidates = [
        rgb
        for rgb in itertools.product(CUBE_LEVELS, CUBE_LEVELS, CUBE_LEVELS)
        if all(difference(rgb, floor, vision) >= LEGIBLE_ON_FLOOR for vision in visions)
    ]
    taken = [scheme.kind_colour("player", (255, 255, 255))]
    taken += [*kind_colours(scheme).values(), *dose_colours(scheme).values(), *find_colours(scheme).values()]
    nearest = {rgb: nearest_difference(rgb, taken, visions) for rgb in candidates}
    found: list[RGB] = []
    while len(found) < count and nearest:
        best = max(nearest, key=lambda rgb: nearest[rgb])
        if nearest[best] < MONSTER_KINDS_APART:
            break
        found.append(best)
        del nearest[best]
        for rgb in nearest:
            nearest[rgb] = min(nearest[rgb], nearest_difference(rgb, [best], visions))
    return found


def nearest_difference(rgb: RGB, others: Iterable[RGB], visions: tuple[str, ...]) -> float:
    """The least difference between a colour and any of ``others``, for any vision."""
    return min((difference(rgb, other, vision) for other in others for vision in visions), default=math.inf)
