"""What the coach costs, and how steady its verdict is (docs/performance.md, "Coach").

1. ``review``: careful-bot games recorded to their end (seeds and turns below), each reviewed
   with the default runs and horizon on 2 workers and on 1 (the turn named must be the same:
   the review is deterministic), and again with fewer and more runs (the noise: how often
   another number of runs names the same turn);
2. ``par``: today's daily seed's par, 8 planner games on 2 workers.

CPU time is the workers' (``getrusage(RUSAGE_CHILDREN)``, every worker is joined before
it is read) plus this process's; wall time beside it. Run:
``python -m bench.bench_coach [SEED ...]`` (default seeds 1 3 4 5).
"""

from __future__ import annotations

import resource
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from roguelike.bots.registry import make_bot
from roguelike.coach.figures import HORIZON, REVIEW_RUNS
from roguelike.coach.par import par
from roguelike.coach.review import Review, review
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.replay.fileformat import Replay, read_replay
from roguelike.replay.recorder import recording_observers
from roguelike.scores.daily import daily_seed, today

T = TypeVar("T")
TURN_LIMIT = 2500
OTHER_RUNS = (4, 8)


def cpu() -> float:
    """CPU seconds of this process and its joined children."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(work: Callable[[], T]) -> tuple[T, float, float]:
    """What ``work`` returns, its CPU seconds and its wall seconds."""
    start_cpu, start_wall = cpu(), time.perf_counter()
    done = work()
    return done, cpu() - start_cpu, time.perf_counter() - start_wall


def recorded(root: Path, seed: int) -> Replay:
    """A careful-bot game of ``seed`` recorded to its end (or TURN_LIMIT)."""
    game = Game.new(seed, "Coached")
    session, bot = Session(game, recording_observers(root, game)), make_bot("careful")
    while not game.state.game_over and game.state.turn < TURN_LIMIT:
        session.apply(bot.choose(game))
    session.close()
    game.close()
    (path,) = sorted((root / "replays").glob("*.replay"))
    return read_replay(path)


def named(done: Review) -> int | None:
    """The turn a review names."""
    point = done.named
    return None if point is None else point.turn


def review_game(seed: int) -> None:
    """Review one game every way and print a line of figures."""
    with tempfile.TemporaryDirectory() as folder:
        replay = recorded(Path(folder), seed)
    two, two_cpu, two_wall = timed(lambda: review(replay, jobs=2))
    one, one_cpu, _ = timed(lambda: review(replay, jobs=1))
    others = {runs: named(review(replay, runs=runs, jobs=2)) for runs in OTHER_RUNS}
    print(
        f"seed {seed}: {replay.final_turn} turns, {len(two.outlooks)} points; R={REVIEW_RUNS} H={HORIZON}: "
        f"{two_cpu:.0f} s CPU, {two_wall:.0f} s wall on 2 workers ({one_cpu:.0f} s CPU on 1); "
        f"named turn {named(two)} (1 worker: {named(one)}, same: {one == two}); "
        + ", ".join(f"R={runs}: {turn}" for runs, turn in others.items()),
        flush=True,
    )


def par_today() -> None:
    """Time today's par and print it."""
    made, used, wall = timed(lambda: par(daily_seed(today()), jobs=2))
    print(
        f"par of {today()}'s daily: {made.line()}, turns {made.turn_band.text()}: "
        f"{used:.0f} s CPU, {wall:.0f} s wall on 2 workers",
        flush=True,
    )


def main() -> None:
    """Review the games of the seeds given, then time today's par."""
    for seed in [int(arg) for arg in sys.argv[1:]] or [1, 3, 4, 5]:
        review_game(seed)
    par_today()


if __name__ == "__main__":
    main()
