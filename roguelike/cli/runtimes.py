"""``hedonic runtimes``: the code of each rules epoch kept on this machine, to verify old replays.

    hedonic runtimes                     one line per runtime: epoch, version, size, where
    hedonic runtimes --add WHEEL|FOLDER|REVISION...   keep another game's code
    hedonic runtimes --add-history       every earlier epoch of this git checkout
    hedonic runtimes --prune             remove the runtimes no replay of the data directory needs

Exit status: 0 when all went well, 1 when a runtime is damaged or could not be added, 2 for
a wrong command.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from roguelike.cli.subcommand import Subcommand

EXIT_OK, EXIT_TROUBLE, EXIT_USAGE = 0, 1, 2


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``hedonic runtimes``."""
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--add", nargs="+", metavar="SOURCE", help="keep the code of a wheel, a folder or a git revision")
    what.add_argument(
        "--add-history",
        action="store_true",
        help="keep the last code of every earlier rules epoch of the git checkout this runs in",
    )
    what.add_argument("--prune", action="store_true", help="remove the runtimes no replay in the data directory needs")
    parser.add_argument(
        "--replays",
        type=Path,
        metavar="FOLDER",
        action="append",
        help="with --prune: replays to keep runtimes for (default: the data directory's)",
    )


def run(args: argparse.Namespace) -> int:
    """List, add or prune."""
    if args.replays and not args.prune:
        return complain("--replays says what --prune keeps: add --prune")
    if args.add:
        return add(args.add)
    if args.add_history:
        return add_history(Path.cwd())
    if args.prune:
        return prune(args)
    return list_runtimes()


def list_runtimes() -> int:
    """One line per runtime, damaged ones named with what is wrong, and the damaged copies moved aside."""
    from roguelike.runtimes.repair import damaged_copies
    from roguelike.runtimes.store import cache_root, damage, kept_runtimes

    kept, unreadable = kept_runtimes()
    print(f"runtimes in {cache_root()}:" if kept or unreadable else f"no runtimes in {cache_root()}")
    status = EXIT_OK
    for runtime in kept:
        problems = damage(runtime)
        state = f"DAMAGED ({problems[0]}; never used, rebuilt when next needed)" if problems else "whole"
        print(f"  epoch {runtime.epoch}  version {runtime.version}  {runtime.size() / 2**20:.1f} MiB  {state}")
        print(f"    {runtime.path}  from {runtime.source}")
        status = EXIT_TROUBLE if problems else status
    for line in unreadable:
        print(f"  not a runtime: {line}")
    aside = damaged_copies()
    if aside:
        print(
            f"{len(aside)} damaged {'copy' if len(aside) == 1 else 'copies'} moved aside (never used; "
            f"yours to look into or delete): {aside[0].parents[1]}"
        )
    return status


def add(sources: list[str]) -> int:
    """Keep each source's code."""
    from roguelike.runtimes.sources import add_source
    from roguelike.runtimes.store import RuntimeTrouble

    status = EXIT_OK
    for source in sources:
        try:
            runtime = add_source(source)
        except RuntimeTrouble as trouble:
            print(f"hedonic runtimes: {source}: {trouble}", file=sys.stderr)
            status = EXIT_TROUBLE
            continue
        print(f"{source}: kept as the runtime of {runtime.name} in {runtime.path}")
    return status


def add_history(repository: Path) -> int:
    """Keep the last code of every earlier epoch of a checkout (read from git in one go)."""
    from roguelike.runtimes.sources import from_commits, past_epochs
    from roguelike.runtimes.store import RuntimeTrouble

    try:
        epochs = past_epochs(repository)
        if not epochs:
            print("no earlier rules epoch in this checkout's history")
        status = EXIT_OK
        for commit, runtime in from_commits(list(epochs.values()), repository):
            if isinstance(runtime, RuntimeTrouble):
                print(f"hedonic runtimes: {commit}: {runtime}", file=sys.stderr)
                status = EXIT_TROUBLE
            else:
                print(f"{commit}: kept as the runtime of {runtime.name} in {runtime.path}")
    except RuntimeTrouble as trouble:
        return complain(f"{repository}: {trouble}")
    return status


def prune(args: argparse.Namespace) -> int:
    """Remove the runtimes that no replay needs."""
    from roguelike.runtimes.prune import needed_formats, removable, remove
    from roguelike.runtimes.store import kept_runtimes
    from roguelike.storage.datadir import DataDir, data_dir

    folders = args.replays or [DataDir(data_dir(args.data_dir)).replays]
    needs = needed_formats(path for folder in folders for path in sorted(folder.glob("**/*.replay")))
    kept, _ = kept_runtimes()
    gone = removable(kept, needs)
    for runtime in gone:
        remove(runtime)
        print(f"removed the runtime of {runtime.name} ({runtime.path})")
    print(f"{len(gone)} removed, {len(kept) - len(gone)} kept")
    return EXIT_OK


def complain(text: str) -> int:
    """A one-line error and the usage status."""
    print(f"hedonic runtimes: {text}", file=sys.stderr)
    return EXIT_USAGE


RUNTIMES = Subcommand("runtimes", "list, add or prune the code kept for old replays", configure, run)
