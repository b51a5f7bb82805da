"""Crash reports: an unexpected exception is written down and pointed to, never lost.

``hedonic`` runs its sub-commands through :func:`guarded`. On an exception it ends the
replay with the command that crashed, writes ``crashes/crash-<time>.txt`` in the data
directory (traceback, game version, seed, turn, the paths of the save and the replay)
with a copy of the replay beside it, and tells the player in plain words where they are. It only writes new
files: the save is left exactly as the last completed turn wrote it. The frontends
restore the terminal in their own ``finally`` before this runs. ``--debug`` opens the
debugger at the exception instead.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, cast

from roguelike import __version__
from roguelike.core.names import shown, shown_lines
from roguelike.storage.datadir import DataDir, data_dir, made
from roguelike.storage.output import EXIT_OUTPUT_LOST, Output, OutputLost

if TYPE_CHECKING:
    from roguelike.core.commands import Command
    from roguelike.core.game import Game

EXIT_CRASHED = 70  # EX_SOFTWARE: an internal error
REPORTED = "hedonic_crash_message"  # set on an exception once its report is written
EXIT_PIPE_CLOSED = 141  # 128 + SIGPIPE: what a shell reports for `tool | head -1`
CrashHook = Callable[["Command | None", str], None]


@dataclass
class Watched:
    """The game being played and its files, for the report."""

    game: Game | None = None
    files: dict[str, Path] = field(default_factory=dict)
    hooks: list[CrashHook] = field(default_factory=list)
    data_dir: str | Path | None = None  # the sub-command's --data-dir, for a report written early


WATCHED = Watched()


@dataclass(frozen=True)
class CrashPoint:
    """Where a crash happened relative to the game's commands."""

    in_step: bool  # inside Session.apply
    command: Command | None  # the command whose game logic raised, if it did


def watch(game: Game, kind: str, path: Path, on_crash: CrashHook | None = None) -> None:
    """Remember a file of the game being played (``kind``: "replay", "save")."""
    if WATCHED.game is not game:
        WATCHED.game, WATCHED.files, WATCHED.hooks = game, {}, []
    WATCHED.files[kind] = path.resolve()
    if on_crash is not None:
        WATCHED.hooks.append(on_crash)


def guarded(run: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """Run a sub-command; report a crash (or debug it with ``--debug``)."""
    earlier_dir, WATCHED.data_dir = WATCHED.data_dir, getattr(args, "data_dir", None)
    real = sys.stdout
    sys.stdout = cast(TextIO, Output(real))
    try:
        status = run(args)
        sys.stdout.flush()  # inside the guard: a reader that went away is not a crash
        return status
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return pipe_closed(real)
    except OutputLost as lost:
        print(lost, file=sys.stderr)
        pipe_closed(real)  # what is still buffered goes nowhere, not into the interpreter's last flush
        return EXIT_OUTPUT_LOST
    except Exception as error:
        if getattr(args, "debug", False):
            import pdb  # the modules only a crash needs load when one happens, not at every start

            traceback.print_exc()
            pdb.post_mortem(error.__traceback__)
            return EXIT_CRASHED
        if not hasattr(error, REPORTED):  # the window may have reported it already, to show it
            report_crash(error, getattr(args, "data_dir", None))
        return EXIT_CRASHED
    finally:
        sys.stdout, WATCHED.data_dir = real, earlier_dir  # a later report (the web's) goes where its own run says


def pipe_closed(stdout: TextIO | None) -> int:
    """The reader of our output went away: end quietly, as command-line tools do."""
    if stdout is None:
        return EXIT_PIPE_CLOSED  # closed from the start: nothing was buffered
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stdout.fileno())  # the interpreter's last flush must not fail again
        os.close(devnull)
    except (OSError, ValueError):
        pass
    return EXIT_PIPE_CLOSED


def report_crash(error: BaseException, data_dir_override: str | Path | None) -> Path | None:
    """Write the report, end the replay, tell the player; the report's path (None if unwritable)."""
    point = crash_point(error)
    if point.in_step:
        for hook in WATCHED.hooks:
            hook(point.command, one_line(error))
    files = dict(WATCHED.files)
    report: Path | None = None
    try:
        report = new_report_path(data_dir(data_dir_override))
        files = keep_replay(files, report)
        write_text(report, report_text(error, point, files))
    except OSError as problem:
        print(shown_lines(report_text(error, point, files)), file=sys.stderr)
        print(shown(f"hedonic: could not write a crash report ({problem}); it is printed above."), file=sys.stderr)
        report = None
    message = player_message(report, files, error)
    print(shown_lines(message), file=sys.stderr)
    setattr(error, REPORTED, message)
    return report


def report_once(error: BaseException) -> str:
    """Write the report now (the window shows it before it closes); what the player is told."""
    if not hasattr(error, REPORTED):
        report_crash(error, WATCHED.data_dir)
    return str(getattr(error, REPORTED))


def keep_replay(files: dict[str, Path], report: Path) -> dict[str, Path]:
    """Copy the replay, crash and all, beside the report; the files to name.

    The game's own replay goes on (and loses the crash record) if its save is played on.
    """
    replay = files.get("replay")
    if replay is None or not replay.is_file():
        return files
    import shutil

    copy = report.with_suffix(replay.suffix)
    try:
        shutil.copyfile(replay, copy)
    except OSError:
        return files
    return {**files, "replay": copy, "game replay": replay}


def crash_point(error: BaseException) -> CrashPoint:
    """Whether the crash escaped ``Session.apply``, and the command if the game logic raised."""
    from roguelike.core.session import failed_step

    failed = failed_step(error)
    return CrashPoint(False, None) if failed is None else CrashPoint(True, failed.command)


def report_text(error: BaseException, point: CrashPoint, files: dict[str, Path]) -> str:
    """The whole report as text."""
    import platform
    from datetime import datetime

    lines = [
        "Hedonic Hypothesis crash report",
        f"date: {datetime.now().isoformat(timespec='seconds')}",
        f"game version: {__version__}",
        f"python: {platform.python_version()} on {platform.platform()}",
        f"command line: {' '.join(sys.argv)}",
        *game_lines(WATCHED.game, point),
        *(f"{kind}: {path}" for kind, path in sorted(files.items())),
        *reproduce_lines(files, WATCHED.game),
        "",
        "".join(traceback.format_exception(error)).rstrip(),
    ]
    return "\n".join(lines) + "\n"


def game_lines(game: Game | None, point: CrashPoint) -> list[str]:
    """Seed, turn and floor of the game being played, if any."""
    if game is None:
        return ["game: no game was played"]
    state = game.state
    lines = [
        f"game: the last one played, by {state.name!r}",
        f"seed: {state.seed}",
        f"turn: {state.turn}",
        f"floor: {state.depth}",
    ]
    if point.command is not None:
        lines.append(f"crashed applying: {point.command}")
    elif point.in_step:
        lines.append("crashed after the game logic of a command (in an observer)")
    return lines


def new_report_path(root: Path) -> Path:
    """The absolute path of a new report in the data directory's ``crashes/``."""
    import secrets
    from datetime import datetime

    folder = made(DataDir(root).crashes).resolve()
    return folder / f"crash-{datetime.now():%Y%m%d-%H%M%S}-{secrets.token_hex(2)}.txt"


def write_text(path: Path, text: str) -> None:
    """Write a new text file atomically."""
    temporary = path.with_suffix(".tmp")
    with open(temporary, "w", encoding="utf-8") as file:
        file.write(text)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)


def player_message(report: Path | None, files: dict[str, Path], error: BaseException) -> str:
    """What the player reads: what happened and where the files are, in plain words."""
    lines = [f"Sorry: Hedonic Hypothesis stopped because of a bug ({type(error).__name__})."]
    if report is not None:
        lines += ["The crash report is here:", f"    {report}"]
    if "replay" in files:
        lines += [
            "The replay of your game up to the crash, which shows the developers exactly what happened:",
            f"    {files['replay']}",
        ]
    if "save" in files:
        lines += [f"Your last save is untouched: {files['save']}"]
    lines += reproduce_lines(files, WATCHED.game)[1:]
    lines.append("Please send these files to the developers.")
    return "\n".join(lines)


def reproduce_lines(files: dict[str, Path], game: Game | None) -> list[str]:
    """The commands that take a developer to the crash, to paste (empty without a replay)."""
    if "replay" not in files:
        return []
    import shlex

    replay, turn = shlex.quote(str(files["replay"])), game.state.turn if game is not None else 0
    return [
        "",
        "To reproduce (the replay plays the game to the crash, then the crashing command):",
        f"    hedonic replay --verify {replay}",
        f"    hedonic replay {replay} --inspect {turn}",
        f"    hedonic replay {replay} --to-turn {turn} --wizard",
    ]


def one_line(error: BaseException) -> str:
    """An exception as one line: its type and message."""
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
