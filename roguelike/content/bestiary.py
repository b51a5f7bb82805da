"""The bestiary: a typed table of monster kinds and of what their hits do.

Behaviour varies by the data here (action points, hit effect, vanishing, pack calls),
never by ``if kind == ...``; every number comes from :mod:`roguelike.content.formulas`.
"""

from __future__ import annotations

from dataclasses import dataclass

from roguelike.content import formulas
from roguelike.content.conditions import CONDITIONS
from roguelike.content.wording import with_article


@dataclass(frozen=True)
class HitEffect:
    """What a monster's hit does to the player; ``key`` names it in summaries."""

    key: str
    kills: bool = False
    state_of_mind: int = 0  # drained from the State of Mind
    will: int = 0  # drained from Will
    nerve: int = 0  # drained from Nerve (courage)
    confidence: int = 0  # drained from Confidence
    status: str | None = None  # the key of the timed condition it leaves (roguelike.content.conditions)
    turns: int = 0  # the status's length before Confidence shortens it
    colour: tuple[int, int, int] = (255, 255, 255)  # its flash, when it leaves no status
    danger: int = 1  # how much the bots fear it, when it leaves no status
    drops: bool = False  # it shakes the newest carried dose loose (roguelike.core.carrying)

    @property
    def flash(self) -> tuple[int, int, int]:
        """The colour the hit flashes: its status's, or its own."""
        timed = CONDITIONS[self.status].timed if self.status is not None else None
        return timed.flash if timed is not None else self.colour

    @property
    def bot_danger(self) -> int:
        """How much the bots fear the hit: its status's danger, or its own."""
        timed = CONDITIONS[self.status].timed if self.status is not None else None
        return timed.danger if timed is not None else self.danger


DEATH = HitEffect("killed", kills=True, colour=(255, 30, 30), danger=5)
STATE_OF_MIND_DRAIN = HitEffect("drained", state_of_mind=formulas.HUNGER_DRAIN, colour=(190, 60, 255))
WILL_DRAIN = HitEffect("weakened", will=formulas.ANXIETY_WILL_DRAIN, colour=(255, 220, 60), drops=True)
STUN = HitEffect("stunned", status="stunned", turns=formulas.STUN_TURNS, confidence=formulas.VOICES_CONFIDENCE_DRAIN)
PANIC = HitEffect("panicked", status="panicked", turns=formulas.PANIC_TURNS, nerve=formulas.SHADOWS_NERVE_DRAIN)
CONFUSION = HitEffect(
    "confused", status="confused", turns=formulas.CONFUSION_TURNS, confidence=formulas.REGRET_CONFIDENCE_DRAIN
)

DOUBT = HitEffect("doubting", status="doubting", turns=formulas.DOUBT_TURNS, confidence=formulas.DOUBT_CONFIDENCE_DRAIN)
SHAME = HitEffect("ashamed", status="ashamed", turns=formulas.SHAME_TURNS)
SORROW_DRAIN = HitEffect(
    "saddened",
    state_of_mind=formulas.SORROW_DRAIN,
    will=formulas.SORROW_WILL_DRAIN,
    colour=(120, 150, 220),
    danger=2,
)

HIT_EFFECTS: dict[str, HitEffect] = {
    hit.key: hit for hit in (DEATH, STATE_OF_MIND_DRAIN, WILL_DRAIN, STUN, PANIC, CONFUSION, DOUBT, SHAME, SORROW_DRAIN)
}


@dataclass(frozen=True)
class MonsterKind:
    """A kind of monster: its look, its hit, how it acts and how often it turns up.

    ``hit_text`` is formatted with ``amount`` (what was drained), ``turns`` (how long
    a status lasts), ``nerve`` and ``confidence`` (what those lost); ``will_reward_every``
    slain ones give the player a point of Will, ``nerve_reward_every`` one of Nerve.
    """

    key: str
    name: str
    plural: str
    glyph: str
    colour: tuple[int, int, int]
    hit: HitEffect
    hit_text: str
    action_points: int = formulas.MONSTER_ACTION_POINTS
    vanishes_on_hit: bool = False
    pack: bool = False
    group: tuple[int, int] = (1, 1)
    weight: int = 1
    will_reward_every: int = 0
    sighting: str = ""  # said the first time a game shows this kind
    hit_summary: str = ""  # what its hit does, a verb phrase agreeing with the name (help, look)
    moves: str = ""  # how it moves and acts, in a few words (help)
    nerve_reward_every: int = 0
    from_floor: int = 1  # the shallowest floor where this kind turns up
    deeper_every: int = 0  # its weight grows by one every this many floors below its first (0: never)
    acts_every: int = 1  # it acts (steps, strikes, wanders) one turn in this many, on turns this divides
    notice_reach: int = 0  # how near it notices the player, whatever the mind (0: as the mind makes it)
    memory: int = formulas.HUNT_MEMORY  # turns it keeps the trail out of the player's sight
    wanders: bool = True  # False: it lies in wait where it is until it notices the player

    def notices_at(self, mind_notice: int) -> int:
        """How near it notices the player, given how near the mind makes monsters notice."""
        return self.notice_reach or mind_notice

    def weight_at(self, depth: int) -> int:
        """How often this kind is drawn on floor ``depth``, against the others' weights."""
        growth = (formulas.grown_depth(depth) - self.from_floor) // self.deeper_every if self.deeper_every else 0
        return self.weight + max(0, growth)

    @property
    def rewards(self) -> tuple[tuple[str, int], ...]:
        """(attribute, every how many slain) for each attribute slaying this kind builds."""
        return tuple(
            (name, every)
            for name, every in (("will", self.will_reward_every), ("nerve", self.nerve_reward_every))
            if every
        )

    @property
    def plural_only(self) -> bool:
        """Voices and Shadows are only ever plural: no article, a plural verb."""
        return self.name == self.plural

    def one(self, capital: bool = False) -> str:
        """The kind as a message names one of them: "an Anxiety", "a Hunger", "Voices"."""
        return self.name if self.plural_only else with_article(self.name, capital)


# The parity rule: at two steps it steps beside you and strikes with its second action; at three its
# second step only stops beside you, and you strike first. Help, look, the death tip and the README say it.
DEPRESSION_COUNSEL = "it holds still the turn it notices you: step back then, and never end a turn two steps from it"

DEPRESSION = MonsterKind(
    key="depression",
    name="Depression",
    plural="Depressions",
    glyph="D",
    colour=(90, 90, 200),
    hit=DEATH,
    hit_text="Depression swallows you whole.",
    action_points=formulas.DEPRESSION_ACTION_POINTS,
    weight=formulas.DEPRESSION_WEIGHT,
    sighting="A Depression (D) looms: it moves twice a turn, and its touch kills.",
    hit_summary="kills you",
    moves=f"two steps a turn; {DEPRESSION_COUNSEL}",
    from_floor=formulas.DEPRESSION_FROM_FLOOR,
    deeper_every=formulas.DEPRESSION_DEEPER_EVERY,
)
HUNGER = MonsterKind(
    key="hunger",
    name="Hunger",
    plural="Hungers",
    glyph="h",
    colour=(220, 150, 60),
    hit=STATE_OF_MIND_DRAIN,
    hit_text="A Hunger gnaws at you: -{amount} State of Mind.",
    pack=True,
    group=formulas.HUNGER_PACK,
    weight=formulas.HUNGER_WEIGHT,
    from_floor=formulas.HUNGER_FROM_FLOOR,
    sighting=f"A Hunger (h) prowls: it hunts in packs, and each bite drains {formulas.HUNGER_DRAIN} State of Mind.",
    hit_summary=f"drains {formulas.HUNGER_DRAIN} State of Mind",
    moves="hunts in packs that surround you",
)
ANXIETY = MonsterKind(
    key="anxiety",
    name="Anxiety",
    plural="Anxieties",
    glyph="a",
    colour=(230, 220, 90),
    hit=WILL_DRAIN,
    hit_text="An Anxiety grips you: -{amount} Will.",
    weight=formulas.ANXIETY_WEIGHT,
    will_reward_every=formulas.ANXIETIES_PER_WILL,
    sighting=(
        f"An Anxiety (a) twitches: its touch drains Will and shakes a carried dose loose;"
        f" slay {formulas.ANXIETIES_PER_WILL} to win a point back."
    ),
    hit_summary=f"drains {formulas.ANXIETY_WILL_DRAIN} Will, drops a carried dose",
    moves=f"every {formulas.ANXIETIES_PER_WILL} slain give back a Will",
)
VOICES = MonsterKind(
    key="voices",
    name="Voices",
    plural="Voices",
    glyph="v",
    colour=(200, 120, 220),
    hit=STUN,
    hit_text="Voices scream: -{confidence} Confidence, stunned for {turns}.",
    vanishes_on_hit=True,
    weight=formulas.VOICES_WEIGHT,
    sighting=f"Voices (v) whisper: their scream stuns you for up to {formulas.STUN_TURNS} turns, then they fade.",
    hit_summary=f"stun up to {formulas.STUN_TURNS} turns, -{formulas.VOICES_CONFIDENCE_DRAIN} Confidence",
    moves="fades after hitting",
)
SHADOWS = MonsterKind(
    key="shadows",
    name="Shadows",
    plural="Shadows",
    glyph="S",
    colour=(130, 130, 150),
    hit=PANIC,
    hit_text="Shadows engulf you: -{nerve} Nerve, panic for {turns}.",
    vanishes_on_hit=True,
    weight=formulas.SHADOWS_WEIGHT,
    nerve_reward_every=formulas.SHADOWS_PER_NERVE,
    sighting=f"Shadows (S) gather: their touch panics you for up to {formulas.PANIC_TURNS} turns, then they lift.",
    hit_summary=f"panic up to {formulas.PANIC_TURNS} turns, -{formulas.SHADOWS_NERVE_DRAIN} Nerve",
    moves=f"lifts after hitting; every {formulas.SHADOWS_PER_NERVE} slain give 1 Nerve",
)
REGRET = MonsterKind(
    key="regret",
    name="Regret",
    plural="Regrets",
    glyph="r",
    colour=(90, 200, 170),
    hit=CONFUSION,
    hit_text="Regret turns you around. Confused for {turns}.",
    weight=formulas.REGRET_WEIGHT,
    sighting=f"A Regret (r) follows you: its touch inverts your moves for up to {formulas.CONFUSION_TURNS} turns.",
    hit_summary=f"confuses up to {formulas.CONFUSION_TURNS} turns",
    moves="one step a turn, like you",
)

DOUBT_KIND = MonsterKind(
    key="doubt",
    name="Doubt",
    plural="Doubts",
    glyph="d",
    colour=(170, 160, 230),
    hit=DOUBT,
    hit_text="Doubt creeps in: -{confidence} Confidence, doubting for {turns}.",
    weight=formulas.DOUBT_WEIGHT,
    from_floor=formulas.DOUBT_FROM_FLOOR,
    sighting=(
        f"A Doubt (d) hovers: its touch makes some of your steps falter for up to {formulas.DOUBT_TURNS} turns;"
        " a strike never does."
    ),
    hit_summary=f"steps falter up to {formulas.DOUBT_TURNS} turns, -{formulas.DOUBT_CONFIDENCE_DRAIN} Confidence",
    moves="one step a turn; doubting, stand and strike: running falters, striking never does",
)
SHAME_KIND = MonsterKind(
    key="shame",
    name="Shame",
    plural="Shames",
    glyph="m",
    colour=(230, 90, 120),
    hit=SHAME,
    hit_text="Shame: you cannot face a dose for {turns}.",
    weight=formulas.SHAME_WEIGHT,
    from_floor=formulas.SHAME_FROM_FLOOR,
    notice_reach=formulas.SHAME_NOTICE,
    wanders=False,
    sighting=(
        f"A Shame (m) lurks: it waits where it is, and its touch keeps you from any dose for up to"
        f" {formulas.SHAME_TURNS} turns."
    ),
    hit_summary=f"no dose for up to {formulas.SHAME_TURNS} turns",
    moves=(
        f"lies in wait, noticing you only {formulas.SHAME_NOTICE} steps off: go round it,"
        " or pass with your State of Mind well up"
    ),
)
SORROW_KIND = MonsterKind(
    key="sorrow",
    name="Sorrow",
    plural="Sorrows",
    glyph="w",
    colour=(110, 140, 190),
    hit=SORROW_DRAIN,
    hit_text=f"Sorrow weighs: -{{amount}} State of Mind, -{formulas.SORROW_WILL_DRAIN} Will.",
    weight=formulas.SORROW_WEIGHT,
    from_floor=formulas.SORROW_FROM_FLOOR,
    acts_every=formulas.SORROW_ACTS_EVERY,
    notice_reach=formulas.SORROW_NOTICE,
    memory=formulas.SORROW_MEMORY,
    sighting=(
        f"A Sorrow (w) trails you: slow, but it notices you {formulas.SORROW_NOTICE} steps off and does not"
        " give up; its touch drains State of Mind and Will."
    ),
    hit_summary=f"drains {formulas.SORROW_DRAIN} State of Mind and {formulas.SORROW_WILL_DRAIN} Will",
    moves=(
        f"acts one turn in {formulas.SORROW_ACTS_EVERY} and follows from afar: outrun it; step beside it"
        " just after it moves and strike first; never let it corner you"
    ),
)

MONSTER_KINDS: dict[str, MonsterKind] = {
    kind.key: kind
    for kind in (DEPRESSION, HUNGER, ANXIETY, VOICES, SHADOWS, REGRET, DOUBT_KIND, SHAME_KIND, SORROW_KIND)
}
