"""Every tunable number of the game and the formulas that combine them.

Designers change balance here and nowhere else (the design document's "The Formulae").
"""

from __future__ import annotations

import functools
from enum import IntEnum
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
DOSES_PER_FLOOR: Final = (8, 12)
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
# From floor 16 down a dose adds one more Tolerance: the race with Tolerance, not the luck of an
# encounter, ends a long life. With a point a dose, a careful life that lasted past floor 20 ran on
# for 3,000-6,000 turns until a Depression caught it, and one extra wait at the start changed how
# long a game lasted more than twofold in 11.3% of seeds; with the deep extra, in 7.8% (600 seeds no
# tuning saw). From floor 21 instead: 9-10%; the earlier the start, the shorter the stay below floor
# 20 and the higher its death rate against floors 16-20 (docs/balance.md, "Rules epoch 16").
TOLERANCE_DEEP_EXTRA: Final = 1
TOLERANCE_DEEP_FROM_FLOOR: Final = 16
WILL_FOR_EXTRA_ACTION: Final = 10
IRRESISTIBLE_RANGE_BASE: Final = 3

# Colour shifting: how grey and how bright the world is drawn.
GREY_SATURATION: Final = 0.0
SOBER_SATURATION: Final = 0.85
HIGH_SATURATION: Final = (1.25, 1.8)  # from the first point of High to 100: past natural
SOBER_BRIGHTNESS: Final = 0.85
HIGH_BRIGHTNESS: Final = 1.05
HUE_SWING_START: Final = 0.35  # share of the full swirl at the first point of High


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


@functools.cache  # asked every action, of a State of Mind that takes few values
def palette_for(state_of_mind: int) -> tuple[float, float]:
    """Saturation and brightness of the world: one continuous ramp, grey and dark at 0.

    Up to the last point of Sober the colours fill in steadily; from the first point of
    High they go past natural (saturation above 1) and keep rising to 100.
    """
    som = clamp(state_of_mind, 0, STATE_OF_MIND_MAX)
    if som <= HIGH_ABOVE:
        t = som / HIGH_ABOVE
        saturation = GREY_SATURATION + (SOBER_SATURATION - GREY_SATURATION) * t
        brightness = GREY_BRIGHTNESS + (SOBER_BRIGHTNESS - GREY_BRIGHTNESS) * t
    else:
        t = (som - HIGH_ABOVE) / (STATE_OF_MIND_MAX - HIGH_ABOVE)
        saturation = HIGH_SATURATION[0] + (HIGH_SATURATION[1] - HIGH_SATURATION[0]) * t
        brightness = SOBER_BRIGHTNESS + (HIGH_BRIGHTNESS - SOBER_BRIGHTNESS) * t
    return round(saturation, 3), round(brightness, 3)


def hue_swing(state_of_mind: int) -> float:
    """How far (radians) the High swirl turns hues: from the first point of High, growing."""
    if state_of_mind <= HIGH_ABOVE:
        return 0.0
    t = (clamp(state_of_mind, 0, STATE_OF_MIND_MAX) - HIGH_ABOVE) / (STATE_OF_MIND_MAX - HIGH_ABOVE)
    return round(HIGH_HUE_SWING * (HUE_SWING_START + (1 - HUE_SWING_START) * t), 3)


def is_psychedelic(state_of_mind: int) -> bool:
    """Whether the world swirls (cosmetic only): all of High."""
    return state_of_mind > HIGH_ABOVE


def vignette(state_of_mind: int) -> float:
    """How much light the walls closing in take at the edge of sight (0: none)."""
    if state_of_mind >= VIGNETTE_FROM:
        return 0.0
    return round(VIGNETTE_DARKEST * (VIGNETTE_FROM - max(0, state_of_mind)) / VIGNETTE_FROM, 3)


def sight_radius(state_of_mind: int, will: int) -> int:
    """How far the player sees: narrow when Desperate, widening with the State of Mind."""
    if is_desperate(state_of_mind, will):
        return SIGHT_DESPERATE
    if state_of_mind < WITHDRAWAL_BELOW:
        low = desperation_threshold(will)
        t = max(0, state_of_mind - low) / max(1, WITHDRAWAL_BELOW - low)
        return SIGHT_WITHDRAWAL[0] + round((SIGHT_WITHDRAWAL[1] - SIGHT_WITHDRAWAL[0]) * t)
    if state_of_mind <= HIGH_ABOVE:
        return SIGHT_SOBER
    t = (clamp(state_of_mind, 0, STATE_OF_MIND_MAX) - HIGH_ABOVE) / (STATE_OF_MIND_MAX - HIGH_ABOVE)
    return SIGHT_HIGH[0] + round((SIGHT_HIGH[1] - SIGHT_HIGH[0]) * t)


def is_perfect_high(state_of_mind: int) -> bool:
    """Whether every dose and monster of the floor shows (the design's 98-99)."""
    return PERFECT_HIGH[0] <= state_of_mind <= PERFECT_HIGH[1]


def is_high(state_of_mind: int) -> bool:
    """Whether the player is High (visions show, monsters blur)."""
    return state_of_mind > HIGH_ABOVE


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
ANXIETIES_PER_WILL: Final = 3
WILL_REWARD: Final = 1

# Panic comes on its own at this Nerve or lower while a monster is in sight.
NERVE_PANIC_AT: Final = 2

# Sight and hunting. A monster notices the player within its notice range when they see
# each other (symmetric field of view), then hunts until it has not seen the player for
# HUNT_MEMORY turns. A Hunger that notices the player calls the pack within PACK_CALL_RADIUS.
NOTICE_RANGE_MIN: Final = 3
SOM_PER_NOTICE_TILE: Final = 10  # a tile more of notice range per 10 points below High
HUNT_MEMORY: Final = 6
# A monster holds still this many turns after it notices the player (a pack called by a howl
# too): a Depression met around a corner is seen, and noticed, before it can strike.
NOTICE_HOLD: Final = 1
PACK_CALL_RADIUS: Final = 12
FLANK_RANGE: Final = 3  # pack hunters this near go round their kin to surround the player
WANDER_CHANCE: Final = (1, 2)  # a monster that is not hunting steps at random this often

# Spawning: how many monsters a floor gets, in which proportions, from the State of Mind
# the player has when the floor is first generated.
MONSTERS_BASE: Final = 2
MONSTERS_SPREAD: Final = 2  # up to this many more, at random
FLOORS_PER_EXTRA_MONSTER: Final = 3
SOM_PER_EXTRA_MONSTER: Final = 20  # one more monster per 20 points below High
MONSTERS_MAX: Final = 30
# Down to this floor each floor is stronger than the last: its doses' Strength, its monster count and
# Depression's weight. Below it nothing grows with depth but your Tolerance, dose by dose, so the
# deep is a slow race with Tolerance. Before (rules epoch 14),
# Strength ran ahead of Tolerance without end (3 a floor against about 2 doses a floor): by floor
# 21 a Desperate grab at State of Mind 10 gave +95 to +139, and deaths per 1,000 turns on floors
# 21+ ran 2.8x those of floors 16-20 (docs/balance.md, "Rules epoch 15").
DEPTH_GROWS_TO_FLOOR: Final = 20
HUNGER_PACK: Final = (2, 4)
DEPRESSION_WEIGHT: Final = 1
HUNGER_WEIGHT: Final = 2
ANXIETY_WEIGHT: Final = 3
VOICES_WEIGHT: Final = 2
SHADOWS_WEIGHT: Final = 2
REGRET_WEIGHT: Final = 2
# The three later fears take a share of a floor's monsters (the count stays the same), from the
# shallow-middle floors on.
DOUBT_WEIGHT: Final = 2
SHAME_WEIGHT: Final = 2
SORROW_WEIGHT: Final = 2
DOUBT_FROM_FLOOR: Final = 3
SHAME_FROM_FLOOR: Final = 4
SORROW_FROM_FLOOR: Final = 5
# Doubt: for DOUBT_TURNS a walking step falters this often (a strike never does), and it costs Confidence.
DOUBT_TURNS: Final = 6
DOUBT_HESITATES: Final = (1, 2)
DOUBT_CONFIDENCE_DRAIN: Final = 1
# Shame: no dose can be faced for SHAME_TURNS. It lurks where it lies and notices only this near.
SHAME_TURNS: Final = 8
SHAME_NOTICE: Final = 2
# Sorrow: it acts one turn in SORROW_ACTS_EVERY, notices from far and keeps the trail out of
# sight for SORROW_MEMORY turns; each touch drains a little Will and State of Mind, and it stays.
SORROW_ACTS_EVERY: Final = 2
SORROW_NOTICE: Final = 8
SORROW_MEMORY: Final = 40
SORROW_DRAIN: Final = 3
SORROW_WILL_DRAIN: Final = 1


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


def grown_depth(depth: int) -> int:
    """How deep floor ``depth`` counts for what grows with depth: no deeper than DEPTH_GROWS_TO_FLOOR."""
    return min(depth, DEPTH_GROWS_TO_FLOOR)


def monster_count(state_of_mind: int, depth: int) -> tuple[int, int]:
    """The range a floor's monster count is drawn from: more deeper and when low."""
    misery = max(0, HIGH_ABOVE - state_of_mind) // SOM_PER_EXTRA_MONSTER
    low = min(MONSTERS_MAX, MONSTERS_BASE + (grown_depth(depth) - 1) // FLOORS_PER_EXTRA_MONSTER + misery)
    return low, min(MONSTERS_MAX, low + MONSTERS_SPREAD)


def will_reward(slain: int, every: int) -> int:
    """Will given back for the ``slain``-th monster of a kind that rewards every ``every``."""
    return WILL_REWARD if every and slain % every == 0 else 0


# ---------------------------------------------------------------------------------------
# The world follows the mind (issue 12): dose kinds, kinds of floor, sight, Perfect High,
# visions and live monsters. Tables in roguelike/content/doses.py take their numbers here.

# Dose kinds: Strength ranges (the purity is drawn within them), weights and the floor
# each kind first turns up on. Extra-large doses are the overdose trap.
SMALL_DOSE_STRENGTH: Final = (22, 38)
NORMAL_DOSE_STRENGTH: Final = (36, 56)
LARGE_DOSE_STRENGTH: Final = (55, 75)
EXTRA_LARGE_DOSE_STRENGTH: Final = (72, 96)
BLAST_DOSE_STRENGTH: Final = (28, 44)
SMALL_DOSE_WEIGHT: Final = 3
NORMAL_DOSE_WEIGHT: Final = 5
LARGE_DOSE_WEIGHT: Final = 2
EXTRA_LARGE_DOSE_WEIGHT: Final = 1
BLAST_DOSE_WEIGHT: Final = 1
LARGE_DOSE_FROM_FLOOR: Final = 2
EXTRA_LARGE_DOSE_FROM_FLOOR: Final = 4
CARDINAL_DOSE_FROM_FLOOR: Final = 2
DIAGONAL_DOSE_FROM_FLOOR: Final = 3
BLAST_REACH: Final = 7  # tiles along each line of an explosive dose's pattern (walls stop it)

# Kinds of floor: every floor is one kind, drawn by weight from those allowed at its depth.
ROOMS_WEIGHT: Final = 3
CAVES_WEIGHT: Final = 2
HALLS_WEIGHT: Final = 2
CAVES_FROM_FLOOR: Final = 2
HALLS_FROM_FLOOR: Final = 3
CAVE_FILL: Final = (45, 100)  # chance a tile starts as rock
CAVE_STEPS: Final = 4  # smoothing passes of the cellular automaton
CAVE_ROCK_FROM: Final = 5  # a tile becomes rock with this many rock neighbours (of 8)
CAVE_ROCK_STAYS: Final = 4  # and rock stays rock with this many
CAVE_MIN_OPEN: Final = 400  # a cave with fewer open tiles is grown again
CAVE_TRIES: Final = 8
CAVE_AREA: Final = 8  # caves are cut into areas this many tiles across to place things
CAVE_TUNNEL_STRAY: Final = (1, 3)  # a tunnel to the arrival point strays this often
CAVE_TUNNEL_STEPS: Final = 300
HALL_ATTEMPTS: Final = 40
MAX_HALLS: Final = 5
HALL_MIN_WIDTH: Final = 10
HALL_MAX_WIDTH: Final = 24
HALL_MIN_HEIGHT: Final = 6
HALL_MAX_HEIGHT: Final = 12
HALL_PILLAR_CHANCE: Final = (1, 2)  # a hall has a grid of pillars, else islands of rock
HALL_PILLAR_SPACING: Final = 3
HALL_ISLANDS: Final = (1, 3)
ARRIVAL_CLEARING: Final = 1  # open tiles kept around a cave's or hall's arrival point

# The climates past the first three: each a layout, a noise heightmap whose bands are
# terrains, and features whose count grows with depth (intercept plus slope by depth, as
# Brogue's do). Heights run 0..255; a band takes the tiles below its threshold.
DESERT_WEIGHT: Final = 1
WATERY_WEIGHT: Final = 1
ISLANDS_WEIGHT: Final = 1
TUNDRA_WEIGHT: Final = 1
DESERT_FROM_FLOOR: Final = 2
WATERY_FROM_FLOOR: Final = 2
ISLANDS_FROM_FLOOR: Final = 3
TUNDRA_FROM_FLOOR: Final = 3
NOISE: Final = (8, 2)  # the heightmap's coarsest lattice in tiles, and its octaves (each halves the lattice)
DESERT_NOISE: Final = (10, 1)  # smooth, so the dunes along its contours run as ridges
OPEN_MARGIN: Final = 1  # rock kept inside the map's border on an open floor
OPEN_AREA: Final = 9  # open floors are cut into areas this many tiles across to place things
# Hard ground low down, open sand above it, and dune ridges along two contour lines of the sand.
DESERT_BANDS: Final = ((80, "FLOOR"), (128, "SAND"), (136, "DUNE"), (175, "SAND"), (183, "DUNE"), (256, "SAND"))
DESERT_OUTCROPS: Final = (2, 1, 2)  # rock outcrops: intercept, per floor, radius
WATERY_BANDS: Final = ((85, "DEEP_WATER"), (120, "SHALLOW_WATER"), (256, "FLOOR"))
WATERY_POOLS: Final = (1, 1, 2)  # pools of shallow water
ISLANDS_BANDS: Final = ((128, "DEEP_WATER"), (256, "FLOOR"))
ISLANDS_SHOALS: Final = (0, 1, 1)  # shallows on the islands
TUNDRA_BANDS: Final = ((88, "ICE"), (256, "FLOOR"))
TUNDRA_DRIFTS: Final = (3, 1, 2)  # snow drifts
TUNDRA_ROCKS: Final = (1, 1, 1)  # rocks standing out of the snow
# Monster weights by climate, in percent of the bestiary's (a kind not named keeps 100).
DESERT_MONSTERS: Final = (("anxiety", 150), ("depression", 70))
WATERY_MONSTERS: Final = (("regret", 150), ("hunger", 80))
ISLANDS_MONSTERS: Final = (("voices", 150),)
TUNDRA_MONSTERS: Final = (("shadows", 150), ("anxiety", 70))
# The terrains' rules.
SAND_EXPOSES: Final = 2  # monsters notice a player on open sand this many tiles farther
WATER_WADE: Final = 1  # a step into shallow water costs this many turns more
WATER_COVER: Final = 2  # a player in shallow water is noticed from no farther than this
ICE_TRAVEL: Final = 3  # what a step onto ice costs the path-finding: automation, bots and hunters keep off it


def feature_count(intercept: int, per_floor: int, depth: int) -> int:
    """How many of a climate's features a floor holds: more the deeper (Brogue's intercept and slope)."""
    return max(0, intercept + per_floor * (depth - 1))


def notice_reach(reach: int, exposes: int, cover: int) -> int:
    """How near a monster notices the player, given what the player stands on (sand exposes, water covers)."""
    reach += exposes
    return min(reach, cover) if cover else reach


# Sight by State of Mind (Dose Response): narrower in Withdrawal and Desperation, wider
# when High; tiles in a ring this much wider than sight are explored (drawn dim) unseen.
SIGHT_DESPERATE: Final = 6
SIGHT_WITHDRAWAL: Final = (7, 8)  # from the Desperation line up to Sober
SIGHT_SOBER: Final = 8
SIGHT_HIGH: Final = (9, 11)  # from the first point of High to 100
EXPLORED_RING: Final = 3

# Perfect High: at these State of Mind values every dose and monster of the floor shows.
# Exactly the design's 98-99, not a wider band: the State of Mind falls a point a turn, so
# every peak at 98 or more that does not kill passes through the window on the way down
# (two turns of it); 100 Perfect Highs in 100 careful-bot games would mean a band too wide.
# Measured: 10 Perfect Highs in 100 bot games (seeds 0-99), about the share whose peak
# reached 98 without an overdose.
PERFECT_HIGH: Final = (98, 99)

# Visions: a share of a floor's doses can be seen, and taken, only while High.
VISION_DOSE_CHANCE: Final = (1, 6)
VISIONS_FROM_FLOOR: Final = 2
SHORTCUT_CHANCE: Final = (1, 3)  # a floor has a shortcut down that only the High can see

# Monsters follow the mind live: while the State of Mind is below High, a floor holding
# fewer monsters than the mind calls for grows one out of sight every few turns.
REINFORCE_EVERY: Final = 25
REINFORCE_MIN_DISTANCE: Final = 10
WANDER_CHANCE_HIGH: Final = (1, 3)  # monsters amble less when the player is High

# Colour: a continuous ramp from grey and dark at 0 to saturated and moving at 100.
GREY_BRIGHTNESS: Final = 0.45
HIGH_HUE_SWING: Final = 1.4  # radians of hue swirl at 100 (it starts at the first point of High)
REMEMBERED_BRIGHTNESS: Final = 0.45  # remembered tiles keep the mood, this much dimmer
VIGNETTE_FROM: Final = 50  # walls close in below this State of Mind
VIGNETTE_DARKEST: Final = 0.75  # share of light lost at the edge at State of Mind 0
MAX_FLASHES_PER_SECOND: Final = 3  # by default; photosensitivity guideline for large-area flashing


def live_notice(notice: int, state_of_mind: int) -> int:
    """A monster's notice range now: half its keenness when the floor was made, half the mind now."""
    return (notice + notice_range(state_of_mind) + 1) // 2


def wander_chance(state_of_mind: int) -> tuple[int, int]:
    """How often a monster that is not hunting ambles: less when the player is High."""
    return WANDER_CHANCE_HIGH if is_high(state_of_mind) else WANDER_CHANCE


def reinforcement(live: int, state_of_mind: int, depth: int) -> int:
    """+1 if a floor with ``live`` monsters should grow one, -1 if one should fade, else 0.

    Below High a floor holding fewer than the mind calls for grows one; High, a floor
    holding more than the mind would allow loses one.
    """
    low, high = monster_count(state_of_mind, depth)
    if not is_high(state_of_mind) and live < low:
        return 1
    if is_high(state_of_mind) and live > high:
        return -1
    return 0


# ---------------------------------------------------------------------------------------
# The player's automation (issue 15): no rule, only how far and how fast it goes.
REST_TURNS: Final = 30  # `Z` waits at most this many turns unless disturbed first
AUTOMATION_STEP_LIMIT: Final = 2000  # one activity never issues more commands than this
AUTOMATION_STEP_SECONDS: Final = 0.02  # frontends show one automated step at most this often
# Automation stops (or will not start) once the nearest safe dose needs all but this many of the
# actions left before Desperation.
AUTOMATION_RESERVE_ACTIONS: Final = 10
# The panel names the dose Desperation would take, and warns if it could kill, from this many
# State of Mind above the Desperation line.
CRAVING_WARNING_MARGIN: Final = 10
# A monster out of sight this many turns is news again when it comes back; a shorter blink is not.
MONSTER_FORGOTTEN_TURNS: Final = 20
# Automation starts with a monster in view only if it has not noticed you and is farther than this.
AUTOMATION_MONSTER_NEAR: Final = 6


# The score, living attributes, and depth as the way on (issue 10). docs/balance.md says
# why each number is what it is, with the balance report's figures.

# The score (design: "Score"): what a floor's doses, close calls and kills are worth is
# banked, times the share of the floor explored, when the player leaves it.
POINTS_PER_DOSE: Final = 10
POINTS_PER_CLOSE_CALL: Final = 25
POINTS_PER_KILL: Final = 5
# Going deeper pays: reaching floor d for the first time is worth d times this, banked with
# that floor's other points (so by its explored share).
POINTS_PER_DEPTH: Final = 10
# ... down to this floor; each floor below it is worth as much as this one. Reaching floor d was
# worth 10 x (2+...+d): growing as the square of the depth, it made the score follow the turns
# lived (Spearman 0.77 at rules epoch 15's first draft, against the 0.75 issue 41 allows), not
# how well they were played (docs/balance.md, "Rules epoch 15").
FLOOR_WORTH_GROWS_TO_FLOOR: Final = 12
# A close call at the low edge: a dose taken at this State of Mind or lower.
CLOSE_CALL_LOW: Final = 5

# Doses grow stronger with depth (and so do the floors' dangers): Tolerance never falls,
# so going deeper is the way on.
DOSE_STRENGTH_PER_FLOOR: Final = 3
# ... down to this floor (the floors' dangers grow to DEPTH_GROWS_TO_FLOOR, above).
DOSE_STRENGTH_GROWS_TO_FLOOR: Final = 20
# The stairs down lie in any area that reaches at least this many steps from the arrival
# (the farthest area if none does): sometimes near, sometimes across the floor.
STAIRS_MIN_WALK: Final = 20
# Floor 1 holds this many more doses, never in sight of the start, so a careful player
# finds a second one in time; the start stays an empty room with one dose in sight. Each
# floor below holds this many fewer extras, so doses grow scarce step by step: 6, 4, 2 on
# floors 1-3, none from floor 4. Six, not four: a first floor lost without the stairs in
# sight, or a first Regret's confusion, ended a careful life in exhaustion there, the most
# chaotic of endings (one extra wait parted those lives by more than 2x most often).
FIRST_FLOOR_EXTRA_DOSES: Final = 6
EXTRA_DOSES_FEWER_PER_FLOOR: Final = 2

# Purity is never certain (design: "they could risk overdose at any point"): now and then
# a dose is a far purer batch than its kind's usual range. PURE_BATCH_CHANCE is the odds
# once they are at their full, from PURE_BATCH_RAMP_FLOORS floors below the first with any.
PURE_BATCH_CHANCE: Final = (1, 150)
PURE_BATCH_EXTRA: Final = 20
# The first floors are what their doses' ranges say: a newcomer learns the usual ranges
# before the rare purer batch can end a life, and the danger climbs with depth.
PURE_BATCH_FROM_FLOOR: Final = 3
# The odds climb a step a floor to their full (1 in 1,050 on floor 3, ... 1 in 150 from
# floor 9). A purer batch was a careful player's main killer on floors 3-10 (65 of their 76
# overdoses there in 600 games, epoch 11) at the same rate on every floor, which flattened
# the danger across the middle floors (docs/balance.md, "Rules epoch 12").
PURE_BATCH_RAMP_FLOORS: Final = 7
# Depression, the one monster that kills, lurks only from this floor down; so do the
# Hunger packs, whose bites drained a newcomer to exhaustion on floor 1.
DEPRESSION_FROM_FLOOR: Final = 2
HUNGER_FROM_FLOOR: Final = 2
# Danger climbs with depth in kind as well as number: Depression is drawn one weight more
# often every this many floors below its first.
DEPRESSION_DEEPER_EVERY: Final = 5

# Hits that drain courage: Nerve and Confidence fall as well as rise.
SHADOWS_NERVE_DRAIN: Final = 1
VOICES_CONFIDENCE_DRAIN: Final = 1
REGRET_CONFIDENCE_DRAIN: Final = 0
# Slaying Shadows builds Nerve back, every this many.
SHADOWS_PER_NERVE: Final = 3
# At the panic line Nerve steadies out of every monster's sight: a point every
# NERVE_STEADY_TURNS-th turn of the game's clock that ends with no monster in sight, up to
# NERVE_STEADY_UP_TO. The way back from a panic spiral the player controls (at the panic line a
# fleeing player cannot strike Shadows): break the line of sight and wait, while the State of
# Mind drains. Only one point above the line, so Nerve still falls to it and Panic stays real
# (up to 4, Nerve 3 steadied before it fell and Panic came in 1% of careful games, not 16%).
NERVE_STEADY_TURNS: Final = 12
NERVE_STEADY_UP_TO: Final = NERVE_PANIC_AT + 1


def nerve_steadies(turn: int, nerve: int) -> bool:
    """Whether a turn ending with no monster in sight gives a point of Nerve back."""
    return turn % NERVE_STEADY_TURNS == 0 and nerve < NERVE_STEADY_UP_TO


def turns_until_nerve_steadies(turn: int) -> int:
    """Turns from ``turn`` until the next turn that steadies Nerve (1 to NERVE_STEADY_TURNS)."""
    return NERVE_STEADY_TURNS - turn % NERVE_STEADY_TURNS


def raw_points(doses: int, close_calls: int, kills: int, deepest: int = 1) -> int:
    """What doses, close calls, kills and the floors reached are worth before exploration counts."""
    return (
        doses * POINTS_PER_DOSE + close_calls * POINTS_PER_CLOSE_CALL + kills * POINTS_PER_KILL + depth_points(deepest)
    )


def floor_worth_depth(depth: int) -> int:
    """How deep floor ``depth`` counts for what reaching it is worth: no deeper than FLOOR_WORTH_GROWS_TO_FLOOR."""
    return min(depth, FLOOR_WORTH_GROWS_TO_FLOOR)


def depth_points(deepest: int, grows_to: int = FLOOR_WORTH_GROWS_TO_FLOOR) -> int:
    """What reaching floors 2 to ``deepest`` is worth: each floor POINTS_PER_DEPTH times its worth's depth
    (``grows_to``: the last floor whose worth grows; records of older rules pass their own)."""
    grown = min(deepest, grows_to)
    return POINTS_PER_DEPTH * (grown * (grown + 1) // 2 - 1 + grown * (deepest - grown))


def explored_percent(explored_tiles: int, open_tiles: int) -> int:
    """The whole percentage of a floor's open tiles the player has seen."""
    return explored_tiles * 100 // open_tiles if open_tiles else 0


def banked_points(points: int, percent: int) -> int:
    """A floor's points kept on leaving it: its explored percentage of them."""
    return points * percent // 100


def is_low_close_call(state_of_mind_before: int) -> bool:
    """A dose that came at the last moment before exhaustion."""
    return 0 < state_of_mind_before <= CLOSE_CALL_LOW


def extra_doses(depth: int) -> int:
    """Doses a floor holds beyond its usual draw, near the arrival: the shallow floors' head start."""
    return max(0, FIRST_FLOOR_EXTRA_DOSES - EXTRA_DOSES_FEWER_PER_FLOOR * (depth - 1))


def tolerance_per_dose(depth: int) -> int:
    """How much Tolerance a dose taken on floor ``depth`` adds."""
    return TOLERANCE_PER_DOSE + (TOLERANCE_DEEP_EXTRA if depth >= TOLERANCE_DEEP_FROM_FLOOR else 0)


def dose_strength_bonus(depth: int) -> int:
    """How much stronger a dose is for lying deeper."""
    return DOSE_STRENGTH_PER_FLOOR * (min(depth, DOSE_STRENGTH_GROWS_TO_FLOOR) - 1)


def purer_batch_chance(depth: int) -> tuple[int, int]:
    """The odds that a dose on floor ``depth`` is a purer batch, as (chances, in): none on the first floors."""
    floors = clamp(depth - PURE_BATCH_FROM_FLOOR + 1, 0, PURE_BATCH_RAMP_FLOORS)
    chances, every = PURE_BATCH_CHANCE
    return floors * chances, PURE_BATCH_RAMP_FLOORS * every


def purer_batch_odds(depth: int) -> int:
    """The purer batch's odds on floor ``depth`` as "1 in N" (0: none lie there)."""
    chances, every = purer_batch_chance(depth)
    return round(every / chances) if chances else 0


def purer_batch_extra(depth: int) -> int:
    """The extra Strength a purer batch found on floor ``depth`` has (0: none lie there)."""
    return PURE_BATCH_EXTRA if depth >= PURE_BATCH_FROM_FLOOR else 0


# ---------------------------------------------------------------------------------------
# Highs that pay (issue 22, design: "Additional ideas"). docs/balance.md says why.

# A High streak counts the turns that end High since the last Withdrawal: a turn Sober
# pauses it, a turn ending in Withdrawal ends it. The longest streak of the game pays: every
# HIGH_STREAK_STEP turns of it is a milestone, and the n-th pays n x HIGH_STREAK_POINTS (up
# to HIGH_STREAK_TOP_LEVEL x), paid as a streak first goes past the longest before it. One
# long High is worth far more than the same turns in short ones, and the score is not a
# turn counter: the longest High is the part of it that play, not time, decides.
HIGH_STREAK_STEP: Final = 25
HIGH_STREAK_POINTS: Final = 60
HIGH_STREAK_TOP_LEVEL: Final = 12

# Finds: things lying on a floor that only the High can see or take (roguelike/content/finds.py).
FINDS_PER_FLOOR: Final = (0, 2)  # drawn per floor, like its doses
FINDS_FROM_FLOOR: Final = 2  # the first floor the player is likely to reach High on
CLARITY_TOLERANCE: Final = -3  # a Clarity takes this much Tolerance away (never below 0)
CALM_NERVE: Final = 2
CALM_WILL: Final = 1
CLARITY_WEIGHT: Final = 2
CALM_WEIGHT: Final = 2
INSIGHT_WEIGHT: Final = 1


def high_streak_points(streak: int) -> int:
    """Points paid as a High streak reaches ``streak`` turns: a milestone's worth, else 0."""
    if streak <= 0 or streak % HIGH_STREAK_STEP:
        return 0
    return min(streak // HIGH_STREAK_STEP, HIGH_STREAK_TOP_LEVEL) * HIGH_STREAK_POINTS


def high_streak_bonus(streak: int) -> int:
    """What a longest High streak of ``streak`` turns is worth."""
    return sum(high_streak_points(turn) for turn in range(HIGH_STREAK_STEP, streak + 1, HIGH_STREAK_STEP))


def streak_goes_on(state_of_mind: int) -> bool | None:
    """What a turn ending at ``state_of_mind`` does to a High streak: True adds a turn,
    False ends it (Withdrawal), None leaves it as it is (Sober, or past the maximum)."""
    if state_of_mind < WITHDRAWAL_BELOW:
        return False
    if is_high(state_of_mind) and not is_overdose(state_of_mind):
        return True
    return None


# Carried doses (issue 22; docs/balance.md says why these numbers). A dose picked up (g)
# rather than walked into is carried, at most CARRY_LIMIT at once, and taken later (q).
CARRY_LIMIT: Final = 3
# At this Will or lower, in Withdrawal, a carried dose cannot be resisted: the weak Will
# takes the weakest one carried.
POCKET_PULL_WILL: Final = 1


def pocket_pulls(will: int, state_of_mind: int) -> bool:
    """Whether a weak Will in Withdrawal gives way to a dose it carries."""
    return will <= POCKET_PULL_WILL and state_of_mind < WITHDRAWAL_BELOW


# Walls closing in (issue 41): the bands of the State of Mind the map follows, and how many
# shifting walls a floor holds (roguelike/core/mapgen_walls.py lays them, roguelike/content/
# terrain.py says in which band each stands shut). Counts grow with depth as Brogue's
# features do: an intercept plus a slope by depth, capped.


class Band(IntEnum):
    """The bands of the State of Mind the map follows: it narrows in Withdrawal, opens when High."""

    WITHDRAWAL = 0  # Desperation included
    SOBER = 1
    HIGH = 2


def mood_band(state_of_mind: int) -> Band:
    """The band a State of Mind lies in (the panel's Desperate is part of Withdrawal)."""
    if state_of_mind < WITHDRAWAL_BELOW:
        return Band.WITHDRAWAL
    return Band.HIGH if is_high(state_of_mind) else Band.SOBER


CREEPING_STRETCHES: Final = (2.0, 0.75, 11)  # stretches of creeping wall: intercept, slope by depth, most
CREEPING_LENGTH: Final = (3, 6)  # tiles of wall one stretch creeps along
VEILS: Final = (1.0, 0.25, 4)  # veils: intercept, slope by depth, most
VEIL_SAVES_AT_LEAST: Final = 16  # steps on foot a veil must cut off the way between its two sides
VEIL_THICKEST: Final = 2  # tiles of wall a veil may take (caves seldom have walls one tile thick)
VEILS_APART: Final = 6  # no veil starts this near (a king's move count) another
VEIL_LANDMARKS: Final = 4  # distance maps that bound how far apart a veil's sides are on foot
SHIFTING_KEEP_CLEAR: Final = 2  # no creeping wall this near (a king's move count) the arrival or the stairs down


def by_depth(feature: tuple[float, float, int], depth: int) -> int:
    """How many of a feature floor ``depth`` holds: intercept plus slope by depth, at most the cap."""
    intercept, slope, most = feature
    return min(most, int(intercept + slope * depth))
