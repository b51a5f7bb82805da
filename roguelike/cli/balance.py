"""``hedonic balance``: many seeds, many bots, one report (report.md, report.json, charts)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from roguelike.cli.subcommand import Subcommand

DEFAULT_TURN_LIMIT = 20000


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``hedonic balance``."""
    from roguelike.bots.names import BOT_NAMES

    parser.add_argument("--seeds", required=True, help="seeds to play, e.g. 1-500 or 1-20,40,90-99")
    parser.add_argument(
        "--bot",
        action="append",
        choices=BOT_NAMES,
        help="a bot to play every seed (repeatable; default careful and reckless)",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="games played at once, in separate processes (default: one per core)",
    )
    parser.add_argument(
        "--turns", type=int, default=DEFAULT_TURN_LIMIT, help=f"stop a game at this turn (default {DEFAULT_TURN_LIMIT})"
    )
    parser.add_argument(
        "--butterfly",
        action="store_true",
        help="also play every seed after one extra wait, and report the share of games whose turns "
        "survived change more than twofold, and the variance of log(turns) split with the twins as chaos",
    )
    parser.add_argument(
        "--try",
        dest="tries",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="play with a number of roguelike/content/formulas.py changed, for tuning (repeatable; "
        "the report names it; a number built into a table when the game loads is refused)",
    )
    parser.add_argument(
        "--out", type=Path, required=True, help="folder to write report.md, report.json and the charts to"
    )


def balance(args: argparse.Namespace) -> int:
    """Play every seed with every bot and write the report."""
    from roguelike.bots import plots, report, report_md
    from roguelike.bots.balance import ProgressBar, parse_seeds, play_all
    from roguelike.bots.trials import parse_trials
    from roguelike.storage.atomic import write_atomic

    try:
        seeds = parse_seeds(args.seeds)
    except ValueError:
        print(f"hedonic balance: --seeds {args.seeds!r} is not a list of seeds like 1-500 or 1-20,40", file=sys.stderr)
        return 2
    try:
        trial = parse_trials(args.tries)
    except ValueError as error:
        print(f"hedonic balance: --try {error}", file=sys.stderr)
        return 2
    bots = list(dict.fromkeys(args.bot or ["careful", "reckless"]))
    results = play_all(bots, seeds, args.turns, max(1, args.jobs), ProgressBar(), args.butterfly, trial)
    args.out.mkdir(parents=True, exist_ok=True)
    plain = report.build(results, seeds, args.turns, trial)
    report.write_json(plain, args.out)
    drawn = plots.draw_all(plain, args.out)
    write_atomic(args.out / "report.md", (report_md.render(plain, drawn) + "\n").encode("utf-8"))
    print(f"wrote {args.out / 'report.md'}, {args.out / 'report.json'}" + "".join(f", {p}" for p in drawn))
    return 0


BALANCE = Subcommand("balance", "play many seeds with the bots and write a balance report", configure, balance)
