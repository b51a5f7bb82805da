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


# ---------------------------------------------------------------------------------------
# Monsters, one-hit combat and losing control (issue 6). The bestiary table in
# roguelike/content/bestiary.py takes its numbers from here.

# Action points per turn: every monster has one, Depression two.
MONSTER_ACTION_POINTS: Final = 1
DEPRESSION_ACTION_POINTS: Final = 2

# What hits drain, and how long statuses last before Confidence shortens them.
HUNGER_DRAIN: Final = 5
ANXIETY_WILL_DRAIN: Final = 1
STUN_TURNS: Final = 3
PANIC_TURNS: Final = 5
CONFUSION_TURNS: Final = 8  # longer: the player can adapt to inverted controls
CONFIDENCE_PER_TURN_SHORTER: Final = 4  # every 4 points of Confidence shorten a status by a turn
STATUS_MIN_TURNS: Final = 1

# Slaying this many Anxieties gives back a point of Will.
ANXIETIES_PER_WILL: Final = 5
WILL_REWARD: Final = 1

# Panic comes on its own at this Nerve or lower while a monster is in sight.
NERVE_PANIC_AT: Final = 2

# Sight and hunting. A monster notices the player within its notice range when they see
# each other (symmetric field of view), then hunts until it has not seen the player for
# HUNT_MEMORY turns. A Hunger that notices the player calls the pack within PACK_CALL_RADIUS.
NOTICE_RANGE_MIN: Final = 3
SOM_PER_NOTICE_TILE: Final = 10  # a tile more of notice range per 10 points below High
HUNT_MEMORY: Final = 6
PACK_CALL_RADIUS: Final = 12
FLANK_RANGE: Final = 3  # pack hunters this near go round their kin to surround the player
WANDER_CHANCE: Final = (1, 2)  # a monster that is not hunting steps at random this often

# Spawning: how many monsters a floor gets, in which proportions, from the State of Mind
# the player has when the floor is first generated.
MONSTERS_BASE: Final = 2
MONSTERS_SPREAD: Final = 2  # up to this many more, at random
FLOORS_PER_EXTRA_MONSTER: Final = 2
SOM_PER_EXTRA_MONSTER: Final = 20  # one more monster per 20 points below High
MONSTERS_MAX: Final = 30
HUNGER_PACK: Final = (2, 4)
DEPRESSION_WEIGHT: Final = 1
HUNGER_WEIGHT: Final = 2
ANXIETY_WEIGHT: Final = 3
VOICES_WEIGHT: Final = 2
SHADOWS_WEIGHT: Final = 2
REGRET_WEIGHT: Final = 2


def status_turns(base: int, confidence: int) -> int:
    """How long a stun, panic or confusion lasts: Confidence shortens it."""
    return max(STATUS_MIN_TURNS, base - confidence // CONFIDENCE_PER_TURN_SHORTER)


def panics(nerve: int) -> bool:
    """Whether the sight of a monster makes the player panic."""
    return nerve <= NERVE_PANIC_AT


def notice_range(state_of_mind: int) -> int:
    """How near a monster notices the player (aggressiveness): nearer when High."""
    misery = max(0, HIGH_ABOVE - state_of_mind) // SOM_PER_NOTICE_TILE
    return clamp(NOTICE_RANGE_MIN + misery, NOTICE_RANGE_MIN, FOV_RADIUS)


def monster_count(state_of_mind: int, depth: int) -> tuple[int, int]:
    """The range a floor's monster count is drawn from: more deeper and when low."""
    misery = max(0, HIGH_ABOVE - state_of_mind) // SOM_PER_EXTRA_MONSTER
    low = min(MONSTERS_MAX, MONSTERS_BASE + (depth - 1) // FLOORS_PER_EXTRA_MONSTER + misery)
    return low, min(MONSTERS_MAX, low + MONSTERS_SPREAD)


def will_reward(slain: int, every: int) -> int:
    """Will given back for the ``slain``-th monster of a kind that rewards every ``every``."""
    return WILL_REWARD if every and slain % every == 0 else 0
