"""Feats: cosmetic achievements, each a predicate over what a verified replay's game did.

A :class:`Trace` watches a re-simulation step by step (it is a session observer, so it
changes nothing the checksum sees) and keeps the few facts the feats read. Feats are
awarded only from a replay that verified, so each is as provable as the score, and a
feat added later is awarded to every old replay the next time it is verified. No feat
changes the rules.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field

from components import Attributes, Record, StateOfMind
from roguelike.content import formulas
from roguelike.content.doses import DOSE_KINDS
from roguelike.core.game import Game
from roguelike.core.score import floor_percent
from roguelike.core.session import Step


@dataclass
class FloorLeft:
    """A floor the character went down from, and what they did on it."""

    depth: int
    doses: int
    kills: int
    explored: int  # percent of its open tiles seen


@dataclass
class Trace:
    """What a game did, gathered while it is re-simulated: the facts feats are judged on."""

    turn: int = 0
    depth: int = 1
    high_streak: int = 0
    longest_high: int = 0
    last_dose_turn: int = 0
    doses_seen: int = 0
    longest_sober: int = 0
    desperate: bool = False
    doses_on_floor: int = 0
    kills_on_floor: int = 0
    explored: int = 0
    floors: list[FloorLeft] = field(default_factory=list)
    final: Record = field(default_factory=Record)
    score: int = 0
    dead: bool = False

    def after_step(self, game: Game, step: Step) -> None:
        """Note one re-simulated step."""
        record, state = game.player_component(Record), game.state
        if state.depth != self.depth:
            self.floors.append(
                FloorLeft(
                    self.depth,
                    record.doses_used - self.doses_on_floor,
                    record.kills - self.kills_on_floor,
                    self.explored,
                )
            )
            self.depth, self.doses_on_floor, self.kills_on_floor = state.depth, record.doses_used, record.kills
        self.explored = floor_percent(state.floor)
        self.note_turns(game, record)
        self.final, self.dead = record, state.game_over
        self.score = game.score().total

    def note_turns(self, game: Game, record: Record) -> None:
        """The streaks and lows a passing turn adds to (a command that took no time adds nothing)."""
        turn = game.state.turn
        if turn == self.turn:
            return
        passed, self.turn = turn - self.turn, turn
        self.high_streak = self.high_streak + passed if record.in_perfect_high else 0
        self.longest_high = max(self.longest_high, self.high_streak)
        if record.doses_used != self.doses_seen:
            self.last_dose_turn, self.doses_seen = turn, record.doses_used
        self.longest_sober = max(self.longest_sober, turn - self.last_dose_turn)
        mind = game.player_component(StateOfMind).value
        self.desperate |= formulas.is_desperate(mind, game.player_component(Attributes).will)

    def close(self, game: Game) -> None:
        """Nothing to let go of."""


@dataclass(frozen=True)
class Feat:
    """One feat: its key (stable, kept in caches and files), its title and how it is earned."""

    key: str
    title: str
    how: str
    holds: Callable[[Trace], bool]


FEATS: tuple[Feat, ...] = (
    Feat(
        "clean_floor",
        "Clean floor",
        "left a floor without taking a dose",
        lambda t: any(f.doses == 0 for f in t.floors),
    ),
    Feat("perfect_hold", "Perfect hold", "held a Perfect High 5 turns running", lambda t: t.longest_high >= 5),
    Feat("long_haul", "The long haul", "outlasted 2,000 turns", lambda t: t.turn >= 2000),
    Feat("thousand_turns", "A thousand turns", "outlasted 1,000 turns", lambda t: t.turn >= 1000),
    Feat(
        "steady_hand",
        "Steady hand",
        "500 turns or more, never taken over by Desperation",
        lambda t: t.turn >= 500 and not t.desperate,
    ),
    Feat("sober_stretch", "Sober stretch", "300 turns running without a dose", lambda t: t.longest_sober >= 300),
    Feat("floor_five", "Five floors down", "reached floor 5", lambda t: t.final.deepest_floor >= 5),
    Feat("floor_ten", "Ten floors down", "reached floor 10", lambda t: t.final.deepest_floor >= 10),
    Feat(
        "cartographer",
        "Cartographer",
        "left a floor with all of it seen",
        lambda t: any(f.explored >= 100 for f in t.floors),
    ),
    Feat(
        "pacifist_floor",
        "Passing through",
        "left a floor below the first without a kill",
        lambda t: any(f.kills == 0 and f.depth > 1 for f in t.floors),
    ),
    Feat("exterminator", "Exterminator", "slew 25 monsters", lambda t: t.final.kills >= 25),
    Feat("close_shaves", "Close shaves", "lived through 10 close calls", lambda t: t.final.close_calls >= 10),
    Feat(
        "connoisseur",
        "Connoisseur",
        "took every kind of dose",
        lambda t: all(t.final.dose_kinds.get(kind, 0) > 0 for kind in DOSE_KINDS),
    ),
    Feat("high_roller", "High roller", "scored 1,000 points", lambda t: t.score >= 1000),
)
FEAT_BY_KEY = {feat.key: feat for feat in FEATS}


def table_key() -> str:
    """A digest of the feats table (keys and what each asks): a cached proof made under another
    table is made again, so a feat added or changed is awarded to every old game."""
    words = "\n".join(f"{feat.key}: {feat.how}" for feat in FEATS)
    return hashlib.sha256(words.encode("utf-8")).hexdigest()[:16]


def earned(trace: Trace) -> list[str]:
    """The keys of the feats a verified game earned, in the table's order."""
    return [feat.key for feat in FEATS if feat.holds(trace)]


def titles(keys: list[str]) -> list[str]:
    """The titles of feats by key (a key this version does not know is shown as it is)."""
    return [FEAT_BY_KEY[key].title if key in FEAT_BY_KEY else key for key in keys]
