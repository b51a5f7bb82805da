"""One rule for every automated or repeated action: what disturbs the player.

Auto-explore, travel, rest, held keys and the hand-back after a takeover all stop
through :func:`disturbances`: it compares what the player perceived before an action
(an :class:`Outlook`) with what they perceive after it and names each change that
matters, as an :class:`Interrupt` of a :class:`Disturbance` kind with the words to show.
The kinds form a typed set the player may narrow in the settings. Read-only over the
game: nothing here changes state, so automation never changes a replay.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from components import Attributes, Bestiary, Position, StateOfMind, Tolerance
from roguelike.content import formulas
from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.content.doses import DOSE_KINDS
from roguelike.content.finds import FIND_KINDS
from roguelike.content.interrupts import ALL_DISTURBANCES, Disturbance
from roguelike.content.terrain import TERRAIN
from roguelike.content.wording import with_article
from roguelike.core.game import Game
from roguelike.core.state import Message
from roguelike.core.steering import STATUSES

# Routine: exploring opens doors all the time; the walls shift as the State of Mind crosses a
# band, which disturbs (or not) as that crossing itself.
QUIET_MESSAGES = frozenset({"You open the door.", *(row.turned for row in TERRAIN.values() if row.turned)})
ATTRIBUTE_NAMES = ("Confidence", "Nerve", "Will", "Tolerance")
BACK_IN_CONTROL = "You are in control again."
# "You are ... now." for each band the State of Mind can enter.
BAND_WORDS = {
    "near overdose": "close to an overdose",
    "Withdrawal": "in Withdrawal",
    "High": "High",
    "Sober": "Sober",
    "Desperate": "Desperate",
}


@dataclass(frozen=True)
class Interrupt:
    """One reason to stop, in the player's words."""

    kind: Disturbance
    text: str


@dataclass(frozen=True)
class Outlook:
    """What the player perceives at one moment, as far as disturbing goes."""

    depth: int
    turn: int
    position: tuple[int, int]
    monsters: dict[int, str]  # entity -> kind, for monsters in sight
    hunting: frozenset[int]  # the monsters in sight that have noticed the player
    kinds_met: frozenset[str]
    doses: dict[int, tuple[str, int, int]]  # entity -> name and place, for doses and (while High) finds in sight
    drawn: frozenset[tuple[int, int]]  # where the map draws a dose (seen, in the remembered ring, or a High showed it)
    band: str
    attributes: tuple[int, int, int, int]
    effects: frozenset[str]
    control: str | None
    last_message: Message | None


def observe(game: Game) -> Outlook:
    """The player's outlook now."""
    state, player, world = game.state, game.state.player, game.world
    visible, drawn = game.view.visible, game.state.floor.dose_known()
    attrs = game.player_component(Attributes)
    som = game.player_component(StateOfMind).value
    bestiary = world.try_component(player, Bestiary)
    pos = game.player_component(Position)
    in_sight = [(e, m) for e, m, p in game.monsters() if visible[p.y, p.x]]
    return Outlook(
        depth=state.depth,
        turn=state.turn,
        position=(pos.x, pos.y),
        monsters={e: m.kind for e, m in in_sight},
        hunting=frozenset(e for e, m in in_sight if m.target == player),
        kinds_met=frozenset(bestiary.met) if bestiary is not None else frozenset(),
        doses={
            **{e: (DOSE_KINDS[d.kind].name, p.x, p.y) for e, p, d in game.doses() if visible[p.y, p.x]},
            **{e: (FIND_KINDS[f.kind].name, p.x, p.y) for e, p, f in game.finds() if visible[p.y, p.x]},
        },
        drawn=frozenset((p.x, p.y) for _, p, _ in game.doses() if drawn[p.y, p.x]),
        band=band(som, attrs.will),
        attributes=(attrs.confidence, attrs.nerve, attrs.will, game.player_component(Tolerance).value),
        effects=frozenset(timed.noun for _, timed, status in STATUSES if world.has(player, status)),
        control=game.control_reason(),
        last_message=state.messages[-1] if state.messages else None,
    )


@dataclass
class Sightings:
    """What automation and held keys have already stopped for (never saved: a loaded game starts afresh).

    A dose is news once: when it comes into sight not yet drawn on the map. One drawn
    already (seen before, drawn in the remembered ring beyond sight, or shown by a Perfect
    High) is never news: the floor remembers that, saved and all, so a resumed game knows
    it too; the memory here keeps finds (seen only while High) from being news twice. A monster is news when it
    comes into view after being out of sight for ``MONSTER_FORGOTTEN_TURNS``, so one
    blinking at the edge of sight (or in and out of a High's haze) does not stop
    automation again and again.
    """

    doses: set[tuple[int, str, int, int]] = field(default_factory=set)  # depth, name, x, y
    monsters: dict[tuple[int, int], int] = field(default_factory=dict)  # (depth, entity) -> last turn in view

    def note(self, outlook: Outlook) -> None:
        """Remember what is in view now."""
        self.doses.update((outlook.depth, *place) for place in outlook.doses.values())
        for entity in outlook.monsters:
            self.monsters[outlook.depth, entity] = outlook.turn

    def knows_dose(self, outlook: Outlook, entity: int) -> bool:
        """Whether this dose or find was on the player's mind before."""
        name, x, y = outlook.doses[entity]
        return (outlook.depth, name, x, y) in self.doses

    def knows_monster(self, outlook: Outlook, entity: int) -> bool:
        """Whether this monster in view was in view lately."""
        last = self.monsters.get((outlook.depth, entity))
        return last is not None and outlook.turn - last < formulas.MONSTER_FORGOTTEN_TURNS


def band(state_of_mind: int, will: int) -> str:
    """The band of a State of Mind: the panel's word, or near overdose at the top."""
    if state_of_mind >= formulas.STATE_OF_MIND_MAX - formulas.CLOSE_CALL_MARGIN:
        return "near overdose"
    return formulas.mood_word(state_of_mind, will)


def disturbances(
    before: Outlook,
    after: Outlook,
    game: Game,
    enabled: Iterable[Disturbance] = ALL_DISTURBANCES,
    seen: Sightings | None = None,
) -> list[Interrupt]:
    """Every enabled change from ``before`` to ``after``, most urgent first.

    With ``seen``, doses and monsters already seen are no news (and what is in view now is
    remembered for the next command)."""
    wanted, memory = frozenset(enabled), seen or Sightings()
    found = [
        *control_changes(before, after),
        *monster_changes(before, after, memory),
        *noticed(before, after),
        *mood_changes(before, after),
        *effect_changes(before, after),
        *attribute_changes(before, after),
        *dose_changes(before, after, memory),
        *new_messages(before, game),
        *floor_changes(before, after),
    ]
    if seen is not None:
        seen.note(after)
    return [interrupt for interrupt in found if interrupt.kind in wanted]


def monster_changes(before: Outlook, after: Outlook, seen: Sightings) -> list[Interrupt]:
    """Monsters that came into view and are news (on the same floor: a new floor is its own change)."""
    if after.depth != before.depth:
        return []
    found = []
    for entity, kind in sorted(after.monsters.items()):
        if entity in before.monsters or seen.knows_monster(after, entity):
            continue
        if kind not in before.kinds_met:
            found.append(Interrupt(Disturbance.NEW_KIND, f"You see {monster_noun(kind)} for the first time."))
        else:
            found.append(Interrupt(Disturbance.MONSTER, f"You see {monster_noun(kind)}."))
    return found


def noticed(before: Outlook, after: Outlook) -> list[Interrupt]:
    """Monsters in view that have just noticed the player (and will hunt)."""
    if after.depth != before.depth:
        return []
    fresh = sorted(entity for entity in after.hunting - before.hunting if entity in before.monsters)
    return [Interrupt(Disturbance.MONSTER, notice_words(after.monsters[entity])) for entity in fresh]


def notice_words(kind: str) -> str:
    """A monster noticing the player: "A Hunger (h) notices you.", "Shadows (S) notice you."."""
    monster = MONSTER_KINDS[kind]
    verb = "notice" if monster.name == monster.plural else "notices"
    noun = monster_noun(kind)
    return f"{noun[:1].upper()}{noun[1:]} {verb} you."


def monster_noun(kind: str) -> str:
    """ "a Hunger (h)", "an Anxiety (a)", "Shadows (S)": a monster as a sentence names it."""
    monster = MONSTER_KINDS[kind]
    article = "" if monster.name == monster.plural else "an " if monster.name[0] in "AEIOU" else "a "
    return f"{article}{monster.name} ({monster.glyph})"


def mood_changes(before: Outlook, after: Outlook) -> list[Interrupt]:
    """The State of Mind entering another band."""
    if after.band == before.band:
        return []
    return [Interrupt(Disturbance.MOOD, f"You are {BAND_WORDS.get(after.band, after.band)} now.")]


def effect_changes(before: Outlook, after: Outlook) -> list[Interrupt]:
    """Timed statuses (the conditions table's) starting or ending."""
    started = [Interrupt(Disturbance.EFFECT, f"The {name} starts.") for name in sorted(after.effects - before.effects)]
    ended = [Interrupt(Disturbance.EFFECT, f"The {name} ends.") for name in sorted(before.effects - after.effects)]
    return started + ended


def attribute_changes(before: Outlook, after: Outlook) -> list[Interrupt]:
    """Each attribute that changed, with its old and new value."""
    return [
        Interrupt(Disturbance.ATTRIBUTE, f"Your {name} goes from {old} to {new}.")
        for name, old, new in zip(ATTRIBUTE_NAMES, before.attributes, after.attributes)
        if old != new
    ]


def dose_changes(before: Outlook, after: Outlook, seen: Sightings) -> list[Interrupt]:
    """Doses and finds that came into view for the first time, a dose only if the map did not
    draw it already (one is enough to say)."""
    if after.depth != before.depth:
        return []
    fresh = [
        name
        for entity, (name, x, y) in sorted(after.doses.items())
        if entity not in before.doses and (x, y) not in before.drawn and not seen.knows_dose(after, entity)
    ]
    return [Interrupt(Disturbance.DOSE, f"You see {with_article(name)}.") for name in fresh[:1]]


def control_changes(before: Outlook, after: Outlook) -> list[Interrupt]:
    """A takeover starting (its reason) or ending (control is back)."""
    if after.control == before.control:
        return []
    return [Interrupt(Disturbance.CONTROL, after.control or BACK_IN_CONTROL)]


def floor_changes(before: Outlook, after: Outlook) -> list[Interrupt]:
    """Arriving on another floor."""
    if after.depth == before.depth:
        return []
    return [Interrupt(Disturbance.FLOOR, f"You are on floor {after.depth}.")]


def new_messages(before: Outlook, game: Game) -> list[Interrupt]:
    """Messages said since ``before`` that are not routine."""
    messages = game.state.messages
    fresh: list[Message] = []
    for message in reversed(messages):
        if message is before.last_message:
            break
        fresh.append(message)
    return [Interrupt(Disturbance.MESSAGE, m.text) for m in reversed(fresh) if m.text not in QUIET_MESSAGES]


def summary(interrupts: list[Interrupt]) -> str:
    """The reasons in one line, the most urgent first."""
    texts: list[str] = []
    for interrupt in interrupts:
        if interrupt.text not in texts:
            texts.append(interrupt.text)
    return " ".join(texts)
