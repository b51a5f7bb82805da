"""The character history: one durable record per dead character, for the stats screen.

Each record is its own small file (same envelope as saves), written atomically once,
so a damaged record costs only itself and the list never has to be rewritten.
"""

from __future__ import annotations

import time
import typing
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from components import Attributes, Bestiary, FindsTaken, HighStreak, Record, TakenOver
from roguelike import __version__
from roguelike.content import formulas
from roguelike.core.chart import Chart
from roguelike.core.commands import RANKED_ORIGINS
from roguelike.core.plain import Origin, PlainChart, encode
from roguelike.ground.versions import version_key
from roguelike.saves.container import RECORD_MAGIC, seal, unseal
from roguelike.saves.savefile import checked, decode, read_file
from roguelike.storage.atomic import write_atomic
from roguelike.storage.datadir import DataDir
from roguelike.storage.errors import Damaged, SaveError, describe_os_error

if TYPE_CHECKING:
    from roguelike.core.game import Game

# 2 adds the monsters met and slain and the State-of-Mind chart; 3 the score; 4 High streaks and finds;
# 5 the takeover steering at the end and the Nerve then (the death tip names them); 6 what the floors
# reached paid (their worth changed in 1.4.0, so it cannot be worked out again from the deepest floor)
RECORD_VERSION = 6

# The versions whose rules first counted a part of the score, for records from before version 6:
# the floors reached paid from 0.3.0 (rules epoch 6), each floor 10 x its number until 1.4.0 capped it.
FLOORS_PAID_FROM = version_key("0.3.0")
FLOOR_WORTH_CAPPED_FROM = version_key("1.4.0")


@dataclass(frozen=True)
class CharacterRecord:
    """How one character lived and died (stored as a map of these fields, checked by their types;
    ``origin`` only when set)."""

    name: str
    turns: int
    depth: int
    deepest: int
    cause: str
    doses: int
    close_calls: int
    kills: int
    seed: int
    died_at: int
    game: str = __version__
    origin: Origin | None = None  # a replay-made or wizard game: listed, but never ranked or counted
    met: dict[str, int] = field(default_factory=dict)
    slain: dict[str, int] = field(default_factory=dict)
    chart: PlainChart = field(default_factory=lambda: typing.cast(PlainChart, Chart().to_plain()))
    score: int | None = None  # None: died before the game kept a score
    best_streak: int | None = None  # the longest High streak in turns (None: from before streaks counted)
    streak_points: int | None = None  # what High streaks added to the score
    finds: dict[str, int] = field(default_factory=dict)  # finds taken, by kind
    takeover: str | None = None  # the condition that steered the last action (None: the player, or before 5)
    nerve: int | None = None  # the Nerve at the end (None: from before 5)
    floor_points: int | None = None  # what the floors reached paid (None: no score, or no version to tell by)

    @property
    def life(self) -> Chart:
        """The State of Mind of every turn of this life (empty for records older than charts)."""
        return Chart.from_plain(dict(self.chart))


@dataclass(frozen=True)
class History:
    """Every readable record, longest-lived first, and the files that could not be read."""

    records: list[CharacterRecord] = field(default_factory=list)
    problems: list[SaveError] = field(default_factory=list)


def record_of(game: Game, died_at: float | None = None) -> CharacterRecord:
    """The record of a game's character as it stands."""
    state, record, streak = game.state, game.player_component(Record), game.player_component(HighStreak)
    bestiary = game.player_component_or_none(Bestiary) or Bestiary()
    taken = game.player_component_or_none(TakenOver)
    score = game.score()
    return CharacterRecord(
        name=state.name,
        turns=state.turn,
        depth=state.depth,
        deepest=record.deepest_floor,
        cause=state.cause_of_death or "unknown",
        doses=record.doses_used,
        close_calls=record.close_calls,
        kills=record.kills,
        seed=state.seed,
        died_at=int(time.time() if died_at is None else died_at),
        origin=typing.cast(Origin | None, state.origin),
        met=dict(bestiary.met),
        slain=dict(bestiary.slain),
        chart=typing.cast(PlainChart, state.chart.to_plain()),
        score=score.total,
        best_streak=streak.best,
        streak_points=streak.bonus,
        finds=dict(game.player_component(FindsTaken).kinds),
        takeover=taken.condition if taken is not None else None,
        nerve=game.player_component(Attributes).nerve,
        floor_points=score.floors,
    )


def write_record(path: Path, record: CharacterRecord) -> None:
    """Write a record durably; SaveError if it cannot be written."""
    plain = {key: value for key, value in asdict(record).items() if key != "origin" or value is not None}
    data = seal(RECORD_MAGIC, RECORD_VERSION, encode({}), encode(plain))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, data)
    except OSError as error:
        raise SaveError(path, describe_os_error(error), doing="record") from error


def read_record(path: Path) -> CharacterRecord:
    """A record read and checked; SaveError for anything wrong."""
    data = read_file(path, "record")
    try:
        sealed = unseal(data, RECORD_MAGIC, "character record", RECORD_VERSION)
        plain = checked(upgraded(decode(sealed.payload), sealed.version), CharacterRecord)
    except Damaged as error:
        raise SaveError(path, error.reason) from error
    return CharacterRecord(**plain)


def upgraded(plain: Any, version: int) -> Any:
    """A record of an older format given what its format lacked (met, slain, an empty chart; no score;
    no High streaks, no finds; no takeover or Nerve at the end; the floors' points as its version counted them)."""
    if version < 2 and isinstance(plain, dict):
        plain = {"met": {}, "slain": {}, "chart": Chart().to_plain(), **plain}
    if version < 3 and isinstance(plain, dict):
        plain = {"score": None, **plain}
    if version < 4 and isinstance(plain, dict):
        plain = {"best_streak": None, "streak_points": None, "finds": {}, **plain}
    if version < 5 and isinstance(plain, dict):
        plain = {"takeover": None, "nerve": None, **plain}
    if version < 6 and isinstance(plain, dict):
        plain = {"floor_points": floors_paid_then(plain), **plain}
    return plain


def floors_paid_then(plain: dict[str, Any]) -> int | None:
    """What the floors reached paid under the rules of the version that wrote an old record (None: no
    score, or a record too damaged to tell; ``checked`` then names what is wrong)."""
    deepest, made_by = plain.get("deepest"), plain.get("game")
    if plain.get("score") is None or not isinstance(deepest, int) or not isinstance(made_by, str):
        return None
    if version_key(made_by) < FLOORS_PAID_FROM:
        return 0
    if version_key(made_by) < FLOOR_WORTH_CAPPED_FROM:
        return formulas.depth_points(deepest, grows_to=deepest)
    return formulas.depth_points(deepest)


def read_history(root: Path) -> History:
    """All records of a data directory, sorted by turns survived (most first)."""
    history = History()
    for path in DataDir(root).record_files():
        try:
            history.records.append(read_record(path))
        except SaveError as error:
            history.problems.append(error)
    history.records.sort(key=by_turns)
    return history


def by_turns(record: CharacterRecord) -> tuple[bool, int, int, str]:
    """Sort key: longest-lived first (marked games last)."""
    return (record.origin not in RANKED_ORIGINS, -record.turns, record.died_at, record.name)


def by_score(record: CharacterRecord) -> tuple[bool, bool, int, int, str]:
    """Sort key: highest score first; marked games, then records from before the score, last."""
    return (
        record.origin not in RANKED_ORIGINS,
        record.score is None,
        -(record.score or 0),
        record.died_at,
        record.name,
    )
