"""Playing many seeds with many bots, in parallel processes, for ``hedonic balance``.

Each game is played in whichever worker process is free, but the results come back in
the order of the jobs (bot by bot, seed by seed) and hold nothing about timing or
processes, so the report is byte for byte the same for any number of jobs.
"""

from __future__ import annotations

import multiprocessing
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field, replace
from typing import Any, TextIO

from components import FindsTaken, HighStreak, Record
from roguelike.bots.headless import ACTIONS_PER_TURN_LIMIT
from roguelike.bots.registry import make_bot
from roguelike.bots.trials import Trial, trying
from roguelike.bots.watch import Watch
from roguelike.core.commands import Wait
from roguelike.core.game import Game

Job = tuple[str, int, int, int, Trial]  # bot, seed, turn limit, waits before the bot's first move, formulas tried
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class GameResult:
    """How one bot fared on one seed, and what its attributes and controls went through."""

    bot: str
    seed: int
    turns: int
    floor: int
    deepest: int
    cause: str
    doses: int
    close_calls: int
    kills: int
    score: int
    best_streak: int = 0  # the longest High streak, in turns
    streak_points: int = 0  # what High streaks added to the score
    finds: int = 0  # finds taken
    low: dict[str, int] = field(default_factory=dict)
    high: dict[str, int] = field(default_factory=dict)
    rises: dict[str, int] = field(default_factory=dict)
    falls: dict[str, int] = field(default_factory=dict)
    takeovers: dict[str, int] = field(default_factory=dict)
    depth_turns: dict[str, int] = field(default_factory=dict)  # turns spent on each floor depth
    prelude: int = 0  # waits before the bot's first move (the butterfly's twin game has one)
    carried_taken: int = 0  # carried doses taken
    carried_low: int = 0  # of them, taken at the Watch's SAVED_AT State of Mind or lower
    carried_saved: bool = False  # one taken low was followed by SAVED_FOR more turns (Watch.saved)

    def plain(self) -> dict[str, Any]:
        """The result as plain JSON-ready values (maps with sorted keys)."""
        return {
            key: dict(sorted(value.items())) if isinstance(value, dict) else value
            for key, value in asdict(self).items()
        }


def parse_seeds(text: str) -> list[int]:
    """``1-50,70,90-99`` as a sorted list of distinct seeds (ValueError if malformed)."""
    seeds: set[int] = set()
    for part in text.split(","):
        low, _, high = part.strip().partition("-")
        first, last = int(low), int(high or low)
        if last < first:
            raise ValueError(f"empty seed range {part!r}")
        seeds.update(range(first, last + 1))
    return sorted(seeds)


def play_one(job: Job) -> GameResult:
    """Play one seed with one bot to its end or the turn limit (no saves, no replay), after
    ``prelude`` waits of the player's own, with the job's formulas tried."""
    with trying(job[4]):
        return played(job)


def played(job: Job) -> GameResult:
    """:func:`play_one` under the formulas in force."""
    name, seed, limit, prelude, _ = job
    game, bot, watch = Game.new(seed, "Bot"), make_bot(name), Watch()
    depth_turns: Counter[str] = Counter()
    budget = limit * ACTIONS_PER_TURN_LIMIT
    while not game.state.game_over and game.state.turn < limit and budget > 0:
        depth, turn = game.state.depth, game.state.turn
        watch.before(game)
        game.apply(Wait() if prelude > 0 else bot.choose(game))
        watch.after(game)
        depth_turns[str(depth)] += game.state.turn - turn
        budget, prelude = budget - 1, prelude - 1
    try:
        return replace(result_of(name, game, watch), depth_turns=dict(depth_turns), prelude=job[3])
    finally:
        game.close()


def result_of(name: str, game: Game, watch: Watch) -> GameResult:
    """The result of a finished (or stopped) game."""
    record, streak, state = game.player_component(Record), game.player_component(HighStreak), game.state
    return GameResult(
        bot=name,
        seed=state.seed,
        turns=state.turn,
        floor=state.depth,
        deepest=record.deepest_floor,
        cause=state.cause_of_death or "alive",
        doses=record.doses_used,
        close_calls=record.close_calls,
        kills=record.kills,
        score=game.score().total,
        best_streak=streak.best,
        streak_points=streak.bonus,
        finds=sum(game.player_component(FindsTaken).kinds.values()),
        low=dict(watch.low),
        high=dict(watch.high),
        rises=dict(watch.rises),
        falls=dict(watch.falls),
        takeovers=dict(watch.takeovers),
        carried_taken=watch.carried_taken,
        carried_low=len(watch.low_takes),
        carried_saved=watch.saved(state.turn, state.cause_of_death is None),
    )


def play_all(
    bots: list[str],
    seeds: list[int],
    limit: int,
    jobs: int,
    progress: Progress | None = None,
    butterfly: bool = False,
    trial: Trial = (),
) -> list[GameResult]:
    """Every seed played by every bot (and, for the butterfly, again after one extra wait), in
    job order whatever the number of processes, with the formulas of ``trial``."""
    preludes = (0, 1) if butterfly else (0,)
    work = [(bot, seed, limit, prelude, trial) for prelude in preludes for bot in bots for seed in seeds]
    results = []
    for done, result in enumerate(results_in_order(work, jobs), start=1):
        results.append(result)
        if progress is not None:
            progress(done, len(work))
    return results


def results_in_order(work: list[Job], jobs: int) -> Iterator[GameResult]:
    """Results in the order of ``work``: in this process, or from a pool of ``jobs``."""
    if jobs <= 1:
        yield from map(play_one, work)
        return
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        yield from pool.imap(play_one, work, chunksize=1)


class ProgressBar:
    """A one-line bar redrawn in place: games done, of how many."""

    WIDTH = 30

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.shown = -1

    def __call__(self, done: int, total: int) -> None:
        """Redraw when the bar has moved (or at the end)."""
        filled = self.WIDTH * done // total
        if filled == self.shown and done != total:
            return
        self.shown = filled
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        self.stream.write(f"\r[{bar}] {done}/{total} games")
        if done == total:
            self.stream.write("\n")
        self.stream.flush()
