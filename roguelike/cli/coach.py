"""``hedonic review`` and ``hedonic par``: the bots as a coach (docs/coach.md).

``hedonic review REPLAY`` names the turn where the planner's outlook fell most in a game;
``hedonic par`` gives a seed's (by default today's daily) par band, worked out once and
kept in the data directory. Both work in worker processes, with a progress bar on a
terminal's stderr; ``--json`` is for tools.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import date
from pathlib import Path
from typing import TextIO

from roguelike.cli.subcommand import Subcommand

EXIT_OK, EXIT_REFUSED, EXIT_BAD_INPUT = 0, 1, 2
NO_CHART = "matplotlib is not installed (pip install '.[balance]'): the review is text only, without its chart"


class Bar:
    """A one-line progress bar on a terminal's stderr (nothing off a terminal)."""

    WIDTH = 30

    def __init__(self, what: str, stream: TextIO | None = None) -> None:
        self.what, self.stream = what, stream or sys.stderr

    def __call__(self, done: int, total: int) -> None:
        """Redraw the bar; erase it at the end."""
        if not self.stream.isatty():
            return
        filled = self.WIDTH * done // max(1, total)
        self.stream.write(f"\r[{'#' * filled}{'-' * (self.WIDTH - filled)}] {done}/{total} {self.what}")
        if done >= total:
            self.stream.write("\r\x1b[K")
        self.stream.flush()


def configure_review(parser: argparse.ArgumentParser) -> None:
    """Options of ``hedonic review``."""
    from roguelike.coach.figures import EVERY, HORIZON
    from roguelike.coach.figures import REVIEW_RUNS as RUNS

    parser.add_argument("replay", type=Path, help="the replay of the game to review")
    parser.add_argument("--json", action="store_true", help="the review as one JSON object, for tools")
    parser.add_argument(
        "--chart", type=Path, metavar="FILE.png", help="also draw the review's chart (needs matplotlib)"
    )
    parser.add_argument("--runs", type=int, default=RUNS, help=f"the planner's runs from each point (default {RUNS})")
    parser.add_argument("--horizon", type=int, default=HORIZON, help=f"turns each run plays (default {HORIZON})")
    parser.add_argument("--every", type=int, default=EVERY, help=f"turns between the regular points (default {EVERY})")
    parser.add_argument("--jobs", type=int, help="worker processes (default: one per core)")


def review_command(args: argparse.Namespace) -> int:
    """Review a replay and print three lines (or JSON), drawing the chart if asked."""
    from roguelike.coach import chart
    from roguelike.coach.review import ReviewRefused, review
    from roguelike.replay.fileformat import ReplayError, read_replay

    if min(args.runs, args.horizon, args.every) < 1 or (args.jobs is not None and args.jobs < 1):
        return say("review", "--runs, --horizon, --every and --jobs take a number of at least 1", EXIT_BAD_INPUT)
    try:
        replay = read_replay(args.replay)
    except ReplayError as error:
        return say("review", f"{args.replay}: {error}", EXIT_BAD_INPUT)
    try:
        done = review(replay, args.runs, args.horizon, args.every, args.jobs, Bar("points"))
    except ReviewRefused as error:
        return say("review", f"{args.replay}: {error}", EXIT_REFUSED)
    if args.json:
        print(json.dumps(done.to_plain(), sort_keys=True))
    else:
        print("\n".join(done.lines()))
    if args.chart is not None:
        if chart.available():
            print(f"wrote {chart.draw(done, args.chart)}", file=sys.stderr)
        else:
            print(f"hedonic review: {NO_CHART}", file=sys.stderr)
    return EXIT_OK


def configure_par(parser: argparse.ArgumentParser) -> None:
    """Options of ``hedonic par``."""
    from roguelike.coach.figures import PAR_RUNS as RUNS

    which = parser.add_mutually_exclusive_group()
    which.add_argument("--date", help="the daily seed of this UTC date, YYYY-MM-DD (default: today's)")
    which.add_argument("--seed", type=int, default=argparse.SUPPRESS, help="any seed instead of a daily one")
    parser.add_argument("--json", action="store_true", help="par as one JSON object, for tools")
    parser.add_argument("--runs", type=int, default=RUNS, help=f"the planner's games (default {RUNS}, at least 8)")
    parser.add_argument("--jobs", type=int, help="worker processes (default: one per core)")


def par_command(args: argparse.Namespace) -> int:
    """Print a seed's par for this rules epoch, working it out (and keeping it) the first time."""
    from roguelike.coach.parcache import par_for
    from roguelike.storage.datadir import data_dir

    seed = chosen_seed(args)
    if seed is None:
        return say("par", f"--date {args.date!r} is not a date like 2026-11-28", EXIT_BAD_INPUT)
    if args.runs < 8 or (args.jobs is not None and args.jobs < 1):
        return say("par", "--runs takes at least 8 games, --jobs at least 1", EXIT_BAD_INPUT)
    made, cache = par_for(data_dir(args.data_dir), seed, args.runs, args.jobs, Bar("games"))
    if cache.problem:
        print(f"hedonic par: {cache.problem}", file=sys.stderr)
    print(json.dumps(made.to_plain(), sort_keys=True) if args.json else "\n".join(made.lines()))
    return EXIT_OK


def chosen_seed(args: argparse.Namespace) -> int | None:
    """The seed asked for: ``--seed``, else the daily seed of ``--date`` or today (None for a bad date)."""
    from roguelike.scores.daily import daily_seed, today

    if args.seed is not None:
        return int(args.seed)
    try:
        day = today() if args.date is None else date.fromisoformat(args.date)
    except ValueError:
        return None
    return daily_seed(day)


def say(command: str, text: str, status: int) -> int:
    """A one-line message on stderr, and the status to exit with."""
    print(f"hedonic {command}: {text}", file=sys.stderr)
    return status


REVIEW = Subcommand(
    "review",
    "name the turn where a game went wrong, by the planner bot's runs from points along it",
    configure_review,
    review_command,
)
PAR = Subcommand("par", "the planner bot's par band for a seed (today's daily by default)", configure_par, par_command)
