"""Every tunable number of the game and the formulas that combine them.

Designers change balance here and nowhere else (the design document's "The Formulae").
"""

from __future__ import annotations

from typing import Final

# Map geometry: the map fills the top of the 80x25 screen, the panel the rest.
SCREEN_WIDTH: Final = 80
SCREEN_HEIGHT: Final = 25
MAP_WIDTH: Final = 80
MAP_HEIGHT: Final = 21

# Floor generation.
ROOM_ATTEMPTS: Final = 60
MAX_ROOMS: Final = 11
ROOM_MIN_SIZE: Final = 4
ROOM_MAX_WIDTH: Final = 14
ROOM_MAX_HEIGHT: Final = 8
DOSES_PER_FLOOR: Final = (6, 10)
START_DOSE_MAX_DISTANCE: Final = 4
STRONG_DOSE_FROM_FLOOR: Final = 2
STRONG_DOSE_CHANCE: Final = (1, 4)

# Sight.
FOV_RADIUS: Final = 8

# State of Mind (design: "Starts at 20, minimum 1, maximum 100").
STATE_OF_MIND_START: Final = 20
STATE_OF_MIND_MAX: Final = 100
STATE_OF_MIND_DECAY: Final = 1
WITHDRAWAL_BELOW: Final = 50
HIGH_ABOVE: Final = 60
DESPERATION_BASE: Final = 20
CLOSE_CALL_MARGIN: Final = 5

# Attributes: Confidence, Nerve, Will.
ATTRIBUTE_START: Final = 5
ATTRIBUTE_MIN: Final = 1
ATTRIBUTE_MAX: Final = 10
TOLERANCE_START: Final = 0
TOLERANCE_PER_DOSE: Final = 1
WILL_FOR_EXTRA_ACTION: Final = 10
IRRESISTIBLE_RANGE_BASE: Final = 3

# Colour shifting: how grey and how bright the world is drawn.
GREY_SATURATION: Final = 0.0
SOBER_SATURATION: Final = 0.7
HIGH_SATURATION: Final = 1.0
DIM_BRIGHTNESS: Final = 0.45
HIGH_BRIGHTNESS: Final = 1.0
PSYCHEDELIC_FROM: Final = 75


def clamp(value: int, low: int, high: int) -> int:
    """``value`` limited to ``[low, high]``."""
    return max(low, min(high, value))


def clamp_attribute(value: int) -> int:
    """An attribute (Confidence, Nerve, Will) kept within its bounds."""
    return clamp(value, ATTRIBUTE_MIN, ATTRIBUTE_MAX)


def dose_gain(strength: int, tolerance: int) -> int:
    """State of Mind gained from a dose: its Strength less Tolerance, never negative."""
    return max(0, strength - tolerance)


def desperation_threshold(will: int) -> int:
    """State of Mind at or below which the player is Desperate (20% of max less Will)."""
    return DESPERATION_BASE - will


def is_desperate(state_of_mind: int, will: int) -> bool:
    """Whether Desperation takes the controls."""
    return state_of_mind <= desperation_threshold(will)


def is_overdose(state_of_mind: int) -> bool:
    """Whether the State of Mind has passed its maximum."""
    return state_of_mind > STATE_OF_MIND_MAX


def is_exhausted(state_of_mind: int) -> bool:
    """Whether the State of Mind has run out."""
    return state_of_mind <= 0


def mood_word(state_of_mind: int, will: int) -> str:
    """The word the panel shows for a State of Mind."""
    if is_desperate(state_of_mind, will):
        return "Desperate"
    if state_of_mind < WITHDRAWAL_BELOW:
        return "Withdrawal"
    if state_of_mind > HIGH_ABOVE:
        return "High"
    return "Sober"


def irresistible_range(will: int) -> int:
    """How near a dose must be for the player to be unable to resist it (0: never)."""
    return max(0, IRRESISTIBLE_RANGE_BASE - will)


def action_points(will: int) -> int:
    """Player actions per turn: two at the top of Will, one otherwise."""
    return 2 if will >= WILL_FOR_EXTRA_ACTION else 1


def is_close_call(state_of_mind: int) -> bool:
    """A dose that took the player within a few points of overdose."""
    return STATE_OF_MIND_MAX - CLOSE_CALL_MARGIN <= state_of_mind <= STATE_OF_MIND_MAX


def palette_for(state_of_mind: int) -> tuple[float, float]:
    """Saturation and brightness (0..1 each) of the world for a State of Mind."""
    som = clamp(state_of_mind, 0, STATE_OF_MIND_MAX)
    if som < WITHDRAWAL_BELOW:
        t = som / WITHDRAWAL_BELOW
        saturation = GREY_SATURATION + (SOBER_SATURATION - GREY_SATURATION) * t
        brightness = DIM_BRIGHTNESS + (0.85 - DIM_BRIGHTNESS) * t
    elif som <= HIGH_ABOVE:
        saturation, brightness = SOBER_SATURATION, 0.85
    else:
        t = (som - HIGH_ABOVE) / (STATE_OF_MIND_MAX - HIGH_ABOVE)
        saturation = SOBER_SATURATION + (HIGH_SATURATION - SOBER_SATURATION) * t
        brightness = 0.85 + (HIGH_BRIGHTNESS - 0.85) * t
    return round(saturation, 3), round(brightness, 3)


def is_psychedelic(state_of_mind: int) -> bool:
    """Whether the world flashes (cosmetic only)."""
    return state_of_mind >= PSYCHEDELIC_FROM
