"""``hedonic replay`` on a replay of another rules epoch: the same command, run by that epoch's runtime.

Watching (in the window or the terminal), ``--inspect``, ``--diff`` and ``--to-turn
--save-as`` of such a file are handed whole to a child process running the epoch's kept
code (:mod:`roguelike.runtimes.dispatch`), with this process's terminal and window.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from roguelike.cli.verifying import EXIT_BAD_FILE, epochs_named

if TYPE_CHECKING:
    from roguelike.runtimes.dispatch import Options

RUNTIME_FLAGS = ("--online", "--isolated")
RUNTIME_VALUES = ("--wheels", "--installer")


def runtime_options(args: argparse.Namespace) -> Options:
    """The runtime options given on the command line."""
    from roguelike.runtimes.dispatch import Options

    return Options(args.wheels, args.online, args.isolated, args.installer)


def foreign_replay(paths: list[Path]) -> tuple[Path, int, int] | None:
    """The first readable file recorded under another epoch, with its epoch and format (None if none is)."""
    from roguelike.core.epoch import RULES_EPOCH
    from roguelike.replay.fileformat import ReplayError, read_header

    for path in paths:
        try:
            replay_format, header = read_header(path)
        except ReplayError:
            continue  # the command itself names what is wrong with it
        if header.epoch != RULES_EPOCH:
            return path, header.epoch, replay_format
    return None


def run_elsewhere(args: argparse.Namespace, foreign: tuple[Path, int, int]) -> int:
    """Run the whole command under the runtime of the file's epoch."""
    from roguelike.runtimes.dispatch import in_runtime_child, run_in_runtime, runtime_for, stderr_teller
    from roguelike.runtimes.store import RuntimeTrouble

    path, epoch, replay_format = foreign
    tell = stderr_teller("hedonic replay")
    try:
        if in_runtime_child():
            raise RuntimeTrouble("this is already a runtime of another epoch")
        if args.diff and foreign_replay(args.files[:1] if path != args.files[0] else args.files[1:]) is None:
            raise RuntimeTrouble("a diff compares two games of one rules epoch")
        runtime = runtime_for(epoch, replay_format, tell)
        tell(f"{path}: {epochs_named(epoch)}: played by the runtime of {runtime.name}")
        return run_in_runtime(runtime, forwarded(args.argv), runtime_options(args), tell).returncode
    except RuntimeTrouble as trouble:
        print(f"hedonic replay: {path}: {epochs_named(epoch)}; {trouble}", file=sys.stderr)
        return EXIT_BAD_FILE


def forwarded(argv: list[str]) -> list[str]:
    """The command line without the options only this game knows (an older runtime would refuse them)."""
    kept: list[str] = []
    skip = False
    for word in argv:
        if skip:
            skip = False
        elif word in RUNTIME_FLAGS or word.split("=")[0] in RUNTIME_VALUES and "=" in word:
            continue
        elif word in RUNTIME_VALUES:
            skip = True
        else:
            kept.append(word)
    return kept
