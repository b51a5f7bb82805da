"""The conditions: every timed status and every takeover of the controls, in one table.

A condition is anything that can make the player's next action not their own: a stun,
Desperation, a weak Will pulled to a dose, panic, a failing Nerve, confusion, doubt, shame. Each row
says, under a stable key, what makes it hold (:class:`Trigger`), what it does with the
player's step (:class:`Steer`), what the panel, the log, the help and the bots call it,
and, for a timed status, its component and how it looks and ends (:class:`Timed`).
The order of :data:`CONDITIONS` is the order of strength: the first that holds steers.

Behaviour is named, not written, here (content imports no game code): the rules core
maps each :class:`Trigger` and :class:`Steer` to its function (:mod:`roguelike.core.steering`).
Adding a condition that behaves like one before it is one row here plus, for a timed
one, its component (``docs/architecture.md``, "How to add a condition").
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

RGB = tuple[int, int, int]


class Trigger(Enum):
    """What makes a condition hold."""

    TIMED = "timed"  # its component is on the player, counting its turns down
    DESPERATION = "desperation"  # the State of Mind at or below the Desperation line
    DESPERATION_CARRYING = "desperation_carrying"  # Desperate with a dose carried
    PULL = "pull"  # a dose in sight within reach of a weak Will
    FEAR = "fear"  # Nerve at the panic level with a monster in sight
    POCKET = "pocket"  # a dose carried by a Will at its weakest, in Withdrawal


class Steer(Enum):
    """What a condition does with the player's step."""

    STAY = "stay"  # no step at all
    TO_DOSE = "to_dose"  # toward the nearest known dose, else the unexplored
    PULLED = "pulled"  # into the dose that pulls
    TAKE_CARRIED = "take_carried"  # no step: the weakest carried dose is taken
    FLEE = "flee"  # away from the monsters in sight (at random with none)
    TURN_AROUND = "turn_around"  # the player's own step, reversed: the controls stay the player's
    HESITATE = "hesitate"  # the player's own step, a share of walking steps held back (strikes never)
    SHY = "shy"  # the player's own step, but no dose is taken, picked up or taken from the pocket


# The steers that leave the controls with the player and only change the step they chose.
OWN_STEPS = frozenset({Steer.TURN_AROUND, Steer.HESITATE, Steer.SHY})


@dataclass(frozen=True)
class Timed:
    """A status with its own component that counts down a turn each turn.

    ``component`` is its name in :mod:`components.registry`; ``name`` and ``short`` are
    the panel's (the short one when several show); ``noun`` is what automation says
    ("The stun starts."); ``flash`` the colour a hit that leaves it flashes; ``danger``
    how much the bots fear a monster whose hit leaves it.
    """

    component: str
    name: str
    short: str
    ends: str
    noun: str
    flash: RGB
    danger: int


@dataclass(frozen=True)
class Condition:
    """One condition: its key, when it holds, what it steers, and its words.

    ``reason`` is the panel's line while it holds; ``notice`` is said once when it takes
    the controls (``{reach}`` is the weak Will's reach in words), or, for one that leaves them
    to the player, when it holds back the player's own step; ``called`` is how the help's note
    on takeovers names the player in it; ``title`` and ``rules`` (a few words on what it does)
    are its part of the Rules page's "Taken over"; ``kept`` is what the Controls page says of
    the player's steps while one that leaves the controls holds ("move the wrong way").
    """

    key: str
    trigger: Trigger
    steer: Steer
    title: str
    reason: str
    called: str
    rules: str
    notice: str = ""
    timed: Timed | None = None
    kept: str = ""

    @property
    def takes_controls(self) -> bool:
        """Whether the game holds the controls while it steers (confusion, doubt and shame only change the step)."""
        return self.steer not in OWN_STEPS

    @property
    def refuses_doses(self) -> bool:
        """Whether no dose is taken while it holds (shame)."""
        return self.steer is Steer.SHY


STUNNED = Condition(
    key="stunned",
    title="Stunned",
    trigger=Trigger.TIMED,
    steer=Steer.STAY,
    reason="Stunned: you cannot move.",
    called="stunned",
    rules="no moving",
    timed=Timed(
        component="stunned",
        name="Stunned",
        short="Stun",
        ends="You can move again.",
        noun="stun",
        flash=(200, 220, 255),
        danger=4,
    ),
)
DESPERATE_CARRYING = Condition(
    key="desperate_carrying",
    title="Desperate carrying",
    trigger=Trigger.DESPERATION_CARRYING,
    steer=Steer.TAKE_CARRIED,
    reason="Desperate: the craving takes a carried dose.",
    called="Desperate with a dose carried",
    rules="the weakest carried dose",
)
DESPERATE = Condition(
    key="desperate",
    title="Desperate",
    trigger=Trigger.DESPERATION,
    steer=Steer.TO_DOSE,
    reason="Desperate: the craving hunts for a dose.",
    called="Desperate",
    rules="to the nearest known dose, even lethal",
)
WEAK_WILL = Condition(
    key="weak_will",
    title="Pulled",
    trigger=Trigger.PULL,
    steer=Steer.PULLED,
    reason="Your Will gives way: you cannot resist the dose.",
    called="pulled to a dose",
    rules="into a dose",
    notice="A dose within {reach} of you pulls at your weak Will: you go to it.",
)
POCKET_PULL = Condition(
    key="pocket_pull",
    title="Pocket",
    trigger=Trigger.POCKET,
    steer=Steer.TAKE_CARRIED,
    reason="Your Will gives way: you take a dose you carry.",
    called="pulled by a dose you carry",
    rules="Will 1 in Withdrawal, the weakest carried",
    notice="Your Will is too weak to keep a dose in your pocket: you take one.",
)
PANICKED = Condition(
    key="panicked",
    title="Panic",
    trigger=Trigger.TIMED,
    steer=Steer.FLEE,
    reason="Panic: you run and cannot stop.",
    called="panicking",
    rules="flee",
    timed=Timed(
        component="panicked",
        name="Panic",
        short="Pan",
        ends="The panic passes.",
        noun="panic",
        flash=(255, 140, 40),
        danger=3,
    ),
)
NERVE_FAILS = Condition(
    key="nerve_panic",
    title="Nerve fails",
    trigger=Trigger.FEAR,
    steer=Steer.FLEE,
    reason="Your nerve fails: you flee the monsters.",
    called="losing your nerve",
    rules="flee",
    notice="Your nerve breaks. You run.",
)
CONFUSED = Condition(
    key="confused",
    title="Confused",
    trigger=Trigger.TIMED,
    steer=Steer.TURN_AROUND,
    reason="Confused: your moves go the wrong way.",
    called="confused",
    rules="moves inverted",
    kept="move the wrong way",
    timed=Timed(
        component="confused",
        name="Confused",
        short="Conf",
        ends="Your head clears.",
        noun="confusion",
        flash=(80, 255, 140),
        danger=2,
    ),
)

DOUBTING = Condition(
    key="doubting",
    title="Doubt",
    trigger=Trigger.TIMED,
    steer=Steer.HESITATE,
    reason="Doubt: some of your steps falter.",
    called="doubting",
    rules="some steps falter, never a strike",
    notice="You hesitate.",
    kept="some of your steps falter",
    timed=Timed(
        component="doubting",
        name="Doubt",
        short="Dbt",
        ends="Your doubt lifts.",
        noun="doubt",
        flash=(170, 160, 230),
        danger=2,
    ),
)
ASHAMED = Condition(
    key="ashamed",
    title="Shame",
    trigger=Trigger.TIMED,
    steer=Steer.SHY,
    reason="Shame: you cannot face a dose.",
    called="ashamed",
    rules="no dose taken, picked up or taken from the pocket",
    notice="Ashamed, you cannot face the dose.",
    kept="cannot take a dose",
    timed=Timed(
        component="ashamed",
        name="Shame",
        short="Shm",
        ends="You can face a dose again.",
        noun="shame",
        flash=(230, 90, 120),
        danger=3,
    ),
)

# In order of strength: a stun beats everything, Desperation beats a weak Will, both beat
# panic (and the craving beats shame), and confusion only turns the player's own step around,
# before doubt and shame change it. Desperation takes a carried dose before it walks to one;
# a dose in reach pulls a weak Will before one carried does.
CONDITIONS: dict[str, Condition] = {
    condition.key: condition
    for condition in (
        STUNNED,
        DESPERATE_CARRYING,
        DESPERATE,
        WEAK_WILL,
        POCKET_PULL,
        PANICKED,
        NERVE_FAILS,
        CONFUSED,
        DOUBTING,
        ASHAMED,
    )
}
TIMED_CONDITIONS: tuple[tuple[Condition, Timed], ...] = tuple(
    (condition, condition.timed) for condition in CONDITIONS.values() if condition.timed is not None
)
BY_REASON: dict[str, Condition] = {condition.reason: condition for condition in CONDITIONS.values()}
