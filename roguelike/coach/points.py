"""Where a review looks: points along a game, read from its replay's step records.

A point is a place in the replay (how many commands were applied) with what had just
happened there, in the game's own words. The points are every ``every`` turns and, right
after it happened, every close call, dose taken at risk (while High), start of
Desperation, floor change, first sight of a kind of monster and the death. Nothing is
simulated: the step records' witness (:mod:`roguelike.replay.chronicle`) says it all.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from roguelike.coach.figures import EVERY, MAX_POINTS
from roguelike.content import formulas
from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.content.doses import DOSE_KINDS
from roguelike.replay.chronicle import component, reason_of
from roguelike.replay.fileformat import Replay, Witness
from roguelike.replay.witness import apply_changes

DESPERATE = ("desperate", "desperate_carrying")  # the conditions that are Desperation taking over
RANKING = ("death", "end", "desperation", "close call", "risky dose", "first sight", "floor", "every")


@dataclass(frozen=True)
class Point:
    """A place in the game a review looks from: ``position`` commands applied, the last of them
    played in ``turn`` (an event's turn, as the chronicle tells it) or, for a regular point, reaching it."""

    position: int
    turn: int
    kind: str  # one of RANKING
    words: str  # what happened there, in the game's words ("took the large dose at 71")


@dataclass(frozen=True)
class Player:
    """What the witness says of the player after one command, as far as a review cares."""

    turn: int
    depth: int
    state_of_mind: int
    doses: int
    close_calls: int
    dose_kinds: dict[str, int]
    condition: str | None
    met: frozenset[str]
    will: int = formulas.ATTRIBUTE_START

    def standing(self) -> str:
        """Where the player stood: ``on floor 2, State of Mind 23 (Withdrawal)``."""
        mood = formulas.mood_word(self.state_of_mind, self.will)
        return f"on floor {self.depth}, State of Mind {self.state_of_mind} ({mood})"


Told = list[tuple[int, Player]]  # the player after each command, with the command's position


def players(replay: Replay) -> Told:
    """The player after each command of the replay, with the command's position (1 for the first)."""
    facts: Witness = {}
    told: Told = []
    for record in replay.steps:
        facts = apply_changes(facts, record.changes)
        told.append((record.index, player_of(record.turn, facts)))
    return told


def player_of(turn: int, facts: Witness) -> Player:
    """The player as one witness tells it."""
    record: dict[str, Any] = component(facts, "record") or {}
    taken = component(facts, "taken_over")
    som = int((component(facts, "state_of_mind") or {}).get("value", formulas.STATE_OF_MIND_START))
    return Player(
        turn=turn,
        depth=int(facts.get("depth", 1)),
        state_of_mind=som,
        doses=int(record.get("doses_used", 0)),
        close_calls=int(record.get("close_calls", 0)),
        dose_kinds=dict(record.get("dose_kinds", {})),
        condition=None if taken is None else str(taken.get("condition")),
        met=frozenset((component(facts, "bestiary") or {}).get("met", {})),
        will=int((component(facts, "attributes") or {}).get("will", formulas.ATTRIBUTE_START)),
    )


def start() -> Player:
    """The player of every new game, before the first command."""
    return Player(0, 1, formulas.STATE_OF_MIND_START, 0, 0, {}, None, frozenset())


def events(told: Told) -> list[Point]:
    """What happened in the game that a review looks right after, in order."""
    found: list[Point] = []
    before = start()
    for position, after in told:
        found += [Point(position, before.turn, kind, words) for kind, words in happened(before, after)]
        before = after
    return found


def happened(before: Player, after: Player) -> list[tuple[str, str]]:
    """What one command did that a review names, as (kind, words), the most telling first."""
    found: list[tuple[str, str]] = []
    dose = dose_words(before, after)
    if after.close_calls > before.close_calls:
        found.append(("close call", f"{dose or 'took a dose'}: a close call (State of Mind {after.state_of_mind})"))
    elif dose and before.state_of_mind > formulas.HIGH_ABOVE:
        found.append(("risky dose", f"{dose}, already High (State of Mind {after.state_of_mind})"))
    if after.condition in DESPERATE and before.condition not in DESPERATE:
        found.append(
            (
                "desperation",
                (f"Desperation took over ({reason_of(after.condition)}) at State of Mind {after.state_of_mind}"),
            )
        )
    if after.depth != before.depth:
        found.append(("floor", f"went from floor {before.depth} to floor {after.depth}"))
    for kind in sorted(after.met - before.met):
        if kind in MONSTER_KINDS:
            found.append(("first sight", f"first saw {MONSTER_KINDS[kind].one()}"))
    return found


def dose_words(before: Player, after: Player) -> str:
    """``took the large dose at 71`` when the command took a dose, else empty."""
    if after.doses <= before.doses:
        return ""
    kinds = [key for key, count in after.dose_kinds.items() if count > before.dose_kinds.get(key, 0)]
    name = DOSE_KINDS[kinds[0]].name if kinds and kinds[0] in DOSE_KINDS else "dose"
    return f"took the {name} at {before.state_of_mind}"


def death_words(dose: str, cause: str) -> str:
    """How the game ended, with the dose that did it."""
    if cause == "overdose":
        return f"{dose} and overdosed" if dose else "overdosed"
    if cause == "exhaustion":
        return "died of exhaustion"
    kind = MONSTER_KINDS.get(cause)
    return f"killed by {kind.one()}" if kind else f"died ({cause})"


def choose(replay: Replay, cause: str | None, every: int = EVERY, most: int = MAX_POINTS) -> list[Point]:
    """The points a review looks from: the start, every ``every`` turns, right after each
    event and the end (the death, when ``cause`` says how the character died), at most
    ``most`` (the least telling events left out first), in the game's order."""
    told = players(replay)
    regular = [Point(0, 0, "every", f"the start, {start().standing()}"), *regular_points(told, every)]
    chosen = sorted(ending(told, cause) + events(told) + regular, key=lambda point: RANKING.index(point.kind))
    by_position: dict[int, Point] = {}
    for point in chosen:
        kept = by_position.get(point.position)
        if kept is None and len(by_position) < most:
            by_position[point.position] = point
        elif kept is not None and told_apart(kept, point):  # two events of one command: both told
            by_position[point.position] = replace(kept, words=f"{kept.words}; {point.words}")
    return [by_position[position] for position in sorted(by_position)]


def told_apart(kept: Point, other: Point) -> bool:
    """Whether another event of the same command adds to what the kept one says (a death names its dose)."""
    return other.kind != "every" and not (kept.kind == "death" and other.kind in ("close call", "risky dose"))


def ending(told: Told, cause: str | None) -> list[Point]:
    """The last command as a point: the death, told with the dose that did it, or where the replay stops."""
    if not told:
        return []
    position, last = told[-1]
    if cause is None:
        return [Point(position, last.turn, "end", f"{last.standing()}, where the replay ends")]
    before = told[-2][1] if len(told) > 1 else start()
    return [Point(position, before.turn, "death", death_words(dose_words(before, last), cause))]


def regular_points(told: Told, every: int) -> Iterator[Point]:
    """The first position reaching each multiple of ``every`` turns."""
    mark = every
    for position, player in told:
        if player.turn >= mark:
            yield Point(position, player.turn, "every", player.standing())
            mark = (player.turn // every + 1) * every
