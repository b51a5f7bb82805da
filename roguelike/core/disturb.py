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
from dataclasses import dataclass

from components import Attributes, Bestiary, Position, StateOfMind, Tolerance
from roguelike.content import formulas
from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.content.doses import DOSE_KINDS
from roguelike.content.interrupts import ALL_DISTURBANCES, Disturbance
from roguelike.core.game import Game
from roguelike.core.state import Message
from roguelike.core.steering import STATUSES

QUIET_MESSAGES = frozenset({"You open the door."})  # routine: exploring opens doors all the time
ATTRIBUTE_NAMES = ("Confidence", "Nerve", "Will", "Tolerance")
BACK_IN_CONTROL = "You are in control again."


@dataclass(frozen=True)
class Interrupt:
    """One reason to stop, in the player's words."""

    kind: Disturbance
    text: str


@dataclass(frozen=True)
class Outlook:
    """What the player perceives at one moment, as far as disturbing goes."""

    depth: int
    position: tuple[int, int]
    monsters: dict[int, str]  # entity -> kind, for monsters in sight
    kinds_met: frozenset[str]
    doses: dict[int, str]  # entity -> dose name, for doses in sight
    band: str
    attributes: tuple[int, int, int, int]
    effects: frozenset[str]
    control: str | None
    last_message: Message | None


def observe(game: Game) -> Outlook:
    """The player's outlook now."""
    state, player, world = game.state, game.state.player, game.world
    visible = state.visible
    attrs = game.player_component(Attributes)
    som = game.player_component(StateOfMind).value
    bestiary = world.try_component(player, Bestiary)
    pos = game.player_component(Position)
    return Outlook(
        depth=state.depth,
        position=(pos.x, pos.y),
        monsters={e: m.kind for e, m, p in game.monsters() if visible[p.y, p.x]},
        kinds_met=frozenset(bestiary.met) if bestiary is not None else frozenset(),
        doses={e: DOSE_KINDS[d.kind].name for e, p, d in game.doses() if visible[p.y, p.x]},
        band=band(som, attrs.will),
        attributes=(attrs.confidence, attrs.nerve, attrs.will, game.player_component(Tolerance).value),
        effects=frozenset(timed.noun for _, timed, status in STATUSES if world.has(player, status)),
        control=game.control_reason(),
        last_message=state.messages[-1] if state.messages else None,
    )


def band(state_of_mind: int, will: int) -> str:
    """The band of a State of Mind: the panel's word, or near overdose at the top."""
    if state_of_mind >= formulas.STATE_OF_MIND_MAX - formulas.CLOSE_CALL_MARGIN:
        return "near overdose"
    return formulas.mood_word(state_of_mind, will)


def disturbances(before: Outlook, after: Outlook, game: Game,
                 enabled: Iterable[Disturbance] = ALL_DISTURBANCES) -> list[Interrupt]:
    """Every enabled change from ``before`` to ``after``, most urgent first."""
    wanted = frozenset(enabled)
    found = [
        *control_changes(before, after), *monster_changes(before, after), *mood_changes(before, after),
        *effect_changes(before, after), *attribute_changes(before, after), *dose_changes(before, after),
        *new_messages(before, game), *floor_changes(before, after),
    ]
    return [interrupt for interrupt in found if interrupt.kind in wanted]


def monster_changes(before: Outlook, after: Outlook) -> list[Interrupt]:
    """Monsters that came into view (on the same floor: a new floor is its own change)."""
    if after.depth != before.depth:
        return []
    found = []
    for entity, kind in sorted(after.monsters.items()):
        if entity in before.monsters:
            continue
        if kind not in before.kinds_met:
            found.append(Interrupt(Disturbance.NEW_KIND, f"You see {monster_noun(kind)} for the first time."))
        else:
            found.append(Interrupt(Disturbance.MONSTER, f"You see {monster_noun(kind)}."))
    return found


def monster_noun(kind: str) -> str:
    """"a Hunger (h)", "an Anxiety (a)", "Shadows (S)": a monster as a sentence names it."""
    monster = MONSTER_KINDS[kind]
    article = "" if monster.name == monster.plural else "an " if monster.name[0] in "AEIOU" else "a "
    return f"{article}{monster.name} ({monster.glyph})"


def mood_changes(before: Outlook, after: Outlook) -> list[Interrupt]:
    """The State of Mind entering another band."""
    if after.band == before.band:
        return []
    words = "close to an overdose" if after.band == "near overdose" else after.band
    return [Interrupt(Disturbance.MOOD, f"You are {words} now.")]


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


def dose_changes(before: Outlook, after: Outlook) -> list[Interrupt]:
    """Doses that came into view."""
    if after.depth != before.depth:
        return []
    fresh = [name for entity, name in sorted(after.doses.items()) if entity not in before.doses]
    return [Interrupt(Disturbance.DOSE, f"You see a {name}.") for name in fresh[:1]]


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
