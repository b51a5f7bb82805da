"""Save-format versions and the steps that bring an old save up to the current format.

Bump :data:`FORMAT_VERSION` whenever the plain snapshot changes shape (a key of
``to_plain``, a component's fields, a renamed component, the map size) and add the step
from the previous version to :data:`UPGRADES`, then commit a save written by the new
version to the repository's ``saves/`` folder. Saves of a newer format are refused.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from roguelike.core.chart import Chart
from roguelike.storage.errors import Damaged

FORMAT_VERSION = 15
SLOTTED_SINCE = 6  # the first format whose file holds two slots (slots.py) rather than one envelope
OLDEST_VERSION = 1

Upgrade = Callable[[dict[str, Any]], dict[str, Any]]


def own_game(plain: dict[str, Any]) -> dict[str, Any]:
    """1 to 2: format 2 may mark a game made from a replay or played in wizard mode (keys
    ``origin``, ``monsters_still``, present only when set); a format 1 game is the character's own."""
    return plain


def kinds_of_floor_and_mind(plain: dict[str, Any]) -> dict[str, Any]:
    """2 to 3: floors name their kind (all were rooms); the record counts Perfect
    Highs and doses by kind (old doses are not counted: their kinds were never kept); the
    player's sight radius is kept (before format 3 it was always 8)."""
    for floor in plain["floors"]:
        floor["kind"] = "rooms"
    for entity, packed in plain["entities"]:
        for name, fields in packed:
            if name == "record":
                fields.extend([0, False, {}])
        if entity == plain["player"]:  # sight as it always was before format 3
            packed.append(["sight", [8]])
    return plain


def give_score(plain: dict[str, Any]) -> dict[str, Any]:
    """4 to 5: the player starts keeping a score; what they did so far counts on this floor."""
    for entity, packed in plain["entities"]:
        if entity == plain["player"]:
            packed.append(["score", [0, 0]])
            packed.sort(key=lambda pair: pair[0])
    return plain


def add_chart(plain: dict[str, Any]) -> dict[str, Any]:
    """3 to 4: format 4 keeps the State of Mind of every turn; older games start their chart now."""
    player = dict((entity, packed) for entity, packed in plain["entities"])[plain["player"]]
    chart = Chart(start=plain["turn"], floors=[(plain["turn"], plain["depth"])])
    chart.add(dict((name, fields) for name, fields in player)["state_of_mind"][0])
    return {**plain, "chart": chart.to_plain()}


def two_slots(plain: dict[str, Any]) -> dict[str, Any]:
    """5 to 6: the file became two slots overwritten in turn (slots.py); the game in it is unchanged."""
    return plain


def carry_replay_tail(plain: dict[str, Any]) -> dict[str, Any]:
    """6 to 7: a save's header may carry its replay's records since the replay's last sync
    (the autosave, recorder.py); the game in it is unchanged."""
    return plain


def record_epoch(plain: dict[str, Any]) -> dict[str, Any]:
    """7 to 8: a save's header names the rules epoch its game is played under (older saves
    were all made under the first); the game in it is unchanged."""
    return plain


def more_origins(plain: dict[str, Any]) -> dict[str, Any]:
    """8 to 9: a game's ``origin`` may also be ``bot``, ``daily`` or ``practice`` (a daily
    game's later attempts); older games keep theirs."""
    return plain


# The panel's sentence each condition was saved under before format 10, as the game said it
# then (one was said two ways): kept here, whatever the conditions table says today.
TAKEOVER_SENTENCES: dict[str, str] = {
    "Stunned: you cannot move.": "stunned",
    "Desperate: the craving drags you to a dose.": "desperate",
    "Desperate: the craving drags you to the nearest dose.": "desperate",
    "Your Will gives way: you cannot resist the dose.": "weak_will",
    "Panic: you run and cannot stop.": "panicked",
    "Your nerve fails: you flee the monsters.": "nerve_panic",
    "Confused: your moves go the wrong way.": "confused",
}


def condition_keys(plain: dict[str, Any]) -> dict[str, Any]:
    """9 to 10: a takeover is saved as its condition's key (``stunned``), not the panel's sentence."""
    for packed in entities_of(plain):
        for pair in packed:
            if pair[0] == "taken_over":
                sentence = pair[1][0]
                if sentence not in TAKEOVER_SENTENCES:
                    raise Damaged(f"its takeover {str(sentence)[:60]!r} is not one this game ever said")
                pair[1][0] = TAKEOVER_SENTENCES[sentence]
    return plain


def entities_of(plain: dict[str, Any]) -> list[Any]:
    """The packed components of every entity, live or asleep on another floor."""
    return [packed for _, packed in plain["entities"]] + [
        packed for floor in plain["floors"] for packed in floor["dormant"]
    ]


def highs_and_finds(plain: dict[str, Any]) -> dict[str, Any]:
    """10 to 11: the player keeps a High streak (``high_streak``: turns, best, points paid) and
    counts the finds taken (``finds_taken``); an older game starts both at nothing now. Its
    floors hold no finds: those already generated stay as they were."""
    for entity, packed in plain["entities"]:
        if entity == plain["player"]:
            packed.extend([["high_streak", [0, 0, 0]], ["finds_taken", [{}]]])
            packed.sort(key=lambda pair: pair[0])
    return plain


def carry_doses(plain: dict[str, Any]) -> dict[str, Any]:
    """11 to 12: the player may carry doses (an empty ``carried``); every dose names the floor it was
    found on (the one it lies on: no dose moved between floors before format 12); the player's
    intent may pick up or take a carried dose (neither, in an older game)."""
    for entity, packed in plain["entities"]:
        found_on(packed, plain["depth"])
        if entity == plain["player"]:
            packed.append(["carried", [[], [], [], [], [], []]])
            packed.sort(key=lambda pair: pair[0])
    for floor in plain["floors"]:
        for packed in floor["dormant"]:
            found_on(packed, floor["depth"])
    return plain


def found_on(packed: list[Any], depth: int) -> None:
    """A packed entity's dose (if any) found on ``depth``; its move intent (if any) a plain step."""
    for name, fields in packed:
        if name == "dose":
            fields.append(depth)
        elif name == "move_intent":
            fields.extend([False, -1])


def remember_revealed(plain: dict[str, Any]) -> dict[str, Any]:
    """12 to 13: each floor remembers where a Perfect High showed doses (``revealed``, packed bits
    like ``explored``); an older game's floors have had nothing revealed yet."""
    floors = []
    for floor in plain["floors"]:  # the key goes after ``explored``, where format 13 writes it
        keys = list(floor)
        at = keys.index("explored") + 1
        pairs = [(key, floor[key]) for key in keys]
        floors.append(dict(pairs[:at] + [("revealed", bytes(len(floor["explored"])))] + pairs[at:]))
    return {**plain, "floors": floors}


def monsters_hold(plain: dict[str, Any]) -> dict[str, Any]:
    """13 to 14: a monster keeps the turn from which it acts on its hunt (``acts_from``); in an
    older game every hunt began long enough ago (0). Only the longest High streak pays now: the
    points streaks paid become what the longest is worth. (New lists: the old snapshot is left as read.)"""
    entities = [[entity, held(packed)] for entity, packed in plain["entities"]]
    floors = [{**floor, "dormant": [held(packed) for packed in floor["dormant"]]} for floor in plain["floors"]]
    return {**plain, "entities": entities, "floors": floors}


def held(packed: list[Any]) -> list[Any]:
    """One packed entity in format 14: a monster's ``acts_from``, the longest High's worth."""
    fields_of = {
        "monster": lambda fields: [*fields, 0],
        "high_streak": lambda fields: [*fields[:2], longest_high_worth(int(fields[1])), *fields[3:]],
    }
    return [[name, fields_of.get(name, list)(fields)] for name, fields in packed]


def longest_high_worth(best: int) -> int:
    """What a longest High of ``best`` turns is worth by format 14's rules (frozen here: later
    rules may pay otherwise): every 25 turns a milestone, the n-th paying n x 40, at most 480."""
    return sum(min(n, 12) * 40 for n in range(1, best // 25 + 1))


def streak_kept(plain: dict[str, Any]) -> dict[str, Any]:
    """14 to 15: the longest High's points are floor points, kept by the explored share like the
    rest. What an older game's longest High paid so far counts as banked whole (the score it
    shows does not change), and the floor it stands on starts counting after it."""
    return {**plain, "entities": [[entity, streak_banked(packed)] for entity, packed in plain["entities"]]}


def streak_banked(packed: list[Any]) -> list[Any]:
    """One packed entity in format 15: a player's banked score and floor start past its streak's points."""
    bonus = next((int(fields[2]) for name, fields in packed if name == "high_streak"), 0)
    return [
        [name, [int(fields[0]) + bonus, int(fields[1]) + bonus, *fields[2:]] if name == "score" else list(fields)]
        for name, fields in packed
    ]


# UPGRADES[v] turns a version-v snapshot into a version-(v + 1) one.
UPGRADES: dict[int, Upgrade] = {
    1: own_game,
    2: kinds_of_floor_and_mind,
    3: add_chart,
    4: give_score,
    5: two_slots,
    6: carry_replay_tail,
    7: record_epoch,
    8: more_origins,
    9: condition_keys,
    10: highs_and_finds,
    11: carry_doses,
    12: remember_revealed,
    13: monsters_hold,
    14: streak_kept,
}


def upgrade(plain: Any, version: int, newest: int = FORMAT_VERSION) -> Any:
    """The snapshot brought from ``version`` to ``newest``, one step at a time."""
    if version < OLDEST_VERSION:
        raise Damaged(f"its format ({version}) is not one this game knows")
    for step in range(version, newest):
        if step not in UPGRADES:
            raise Damaged(f"format {step} saves can no longer be upgraded")
        plain = run_step(UPGRADES[step], plain, step)
    return plain


def run_step(step: Upgrade, plain: Any, version: int) -> Any:
    """One upgrade step; an old file too broken to upgrade is damaged, not a crash."""
    if type(plain) is not dict:
        raise Damaged("the saved game is malformed: expected a map")
    try:
        return step(plain)
    except (KeyError, IndexError, TypeError, ValueError) as error:
        raise Damaged(f"it could not be upgraded from format {version} ({type(error).__name__})") from error
