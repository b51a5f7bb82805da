"""``hedonic replays``: list the recorded games of a data directory, or prune old ones.

    hedonic replays                          one line per replay
    hedonic replays --prune --older-than 30  remove replays last written over 30 days ago
    hedonic replays --prune --keep 20        remove all but the 20 newest

Rules combine (a replay must match all). The replay of a living save and any replay a
crash report names are never removed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from roguelike.cli.subcommand import Subcommand


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``hedonic replays``."""
    parser.add_argument("--prune", action="store_true", help="remove the replays the rules pick")
    parser.add_argument("--older-than", type=float, metavar="DAYS", help="pick replays last written over DAYS days ago")
    parser.add_argument("--keep", type=int, metavar="N", help="pick all but the N most recently written replays")


def run(args: argparse.Namespace) -> int:
    """List, or prune by the given rules."""
    from roguelike.storage.datadir import data_dir

    root = data_dir(args.data_dir)
    if not args.prune:
        if args.older_than is not None or args.keep is not None:
            return refuse("--older-than and --keep choose what --prune removes: add --prune")
        return list_replays(root)
    return prune_replays(root, args)


def list_replays(root: Path) -> int:
    """One line per replay: file, character, seed, turns, ending, whether it verifies."""
    from roguelike.core.names import fit, on_one_line, shown
    from roguelike.replay.library import describe, protected_replays, replay_files, when

    paths = replay_files(root)
    if not paths:
        print(shown(f"no replays in {root / 'replays'}"))
    protected = protected_replays(root)
    for path in paths:
        entry = describe(path, root, protected)
        name = on_one_line(fit(entry.name or "?", 24)) + entry.marked
        print(
            shown(
                f"{path.name}  {when(entry)}  {name}  seed {entry.seed}  turn {entry.turns}  "
                f"{entry.ended}  verifies: {entry.verifies}"
            )
        )
    return 0


def prune_replays(root: Path, args: argparse.Namespace) -> int:
    """Remove what the rules pick; say what was removed and what was kept and why."""
    from roguelike.core.names import shown
    from roguelike.replay.library import Rule, beyond_newest, older_than, prune

    rules: list[Rule] = []
    if args.older_than is not None:
        if args.older_than < 0:
            return refuse("--older-than needs a number of days, 0 or more")
        rules.append(older_than(args.older_than))
    if args.keep is not None:
        if args.keep < 0:
            return refuse("--keep needs a count, 0 or more")
        rules.append(beyond_newest(args.keep))
    if not rules:
        return refuse("--prune needs a rule: --older-than DAYS and/or --keep N")
    removed, kept = prune(root, rules)
    for entry in removed:
        print(shown(f"removed {entry.path.name}"))
    for entry in kept:
        print(shown(f"kept {entry.path.name}: {entry.kept_for}"))
    print(f"{len(removed)} replay{'s' if len(removed) != 1 else ''} removed")
    return 0


def refuse(text: str) -> int:
    """A usage problem: one line, exit 2."""
    from roguelike.core.names import shown

    print(shown(f"hedonic replays: {text}"), file=sys.stderr)
    return 2


REPLAYS = Subcommand("replays", "list the recorded games, or --prune old ones by a rule", configure, run)
