"""``hedonic replay``: watch a replay, verify replays, turn one into a save, re-record the corpus.

Exit status of ``--verify``: 0 when every turn matched, 1 when a game diverged (or a
recorded crash still happens), 2 when a file is damaged or not a replay (one line each,
no traceback). With several files the worst status wins.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from roguelike.cli.looks import add_look_options
from roguelike.cli.subcommand import Subcommand

if TYPE_CHECKING:
    from roguelike.replay.fileformat import Replay
    from roguelike.screens.base import Screen
    from roguelike.screens.replay import PlayFrom
    from roguelike.replay.verify import Progress

EXIT_OK, EXIT_DIVERGED, EXIT_BAD_FILE = 0, 1, 2


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``hedonic replay``."""
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE", help="replay files (folders with --rerecord)")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--verify", action="store_true", help="re-simulate headless and check every turn's checksum")
    what.add_argument("--rerecord", action="store_true", help="record the files (or a corpus folder) again with this game")
    what.add_argument("--rebuild", action="store_true", help="rebuild damaged saves (FILE: the save or its replay)")
    what.add_argument("--diff", action="store_true", help="FILE A and B, of one seed: the first step where they differ, and how")
    what.add_argument("--inspect", type=int, metavar="N", help="print the whole game state at turn N as JSON")
    parser.add_argument("--to-turn", type=int, metavar="N", help="with --save-as: stop at turn N")
    parser.add_argument(
        "--save-as", metavar="NAME", help="write the game at --to-turn (default: the end) as a new save of a character NAME"
    )
    parser.add_argument(
        "--wizard", action="store_true",
        help="with --to-turn: play on from that turn in wizard mode (a new save, marked; & opens the wizard prompt)",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--window", action="store_true", default=argparse.SUPPRESS, help="watch in the window")
    where.add_argument("--terminal", action="store_true", default=argparse.SUPPRESS, help="watch in this terminal")
    add_look_options(parser)


def run(args: argparse.Namespace) -> int:
    """Dispatch to verify, re-record, save-as or watching."""
    if args.verify:
        return verify_files(args.files, sys.stdout, sys.stderr)
    if args.rerecord:
        from roguelike.replay.corpus import rerecord_paths

        return rerecord_paths(args.files, sys.stdout, sys.stderr)
    if args.rebuild:
        from roguelike.replay.tosave import rebuild_command

        return rebuild_command(args)
    if args.diff:
        return diff_files(args.files)
    if len(args.files) != 1:
        return complain("give one file to watch (or use --verify for several)")
    if args.inspect is not None:
        return inspect_file(args.files[0], args.inspect)
    if args.save_as is not None or args.to_turn is not None or args.wizard:
        from roguelike.replay.tosave import save_from_replay

        return save_from_replay(args, lambda save: play_wizard(args, save))
    return watch(args)


def verify_files(paths: list[Path], out: TextIO, err: TextIO) -> int:
    """Verify each file; the worst exit status."""
    return max(verify_file(path, out, err) for path in paths)


def verify_file(path: Path, out: TextIO, err: TextIO) -> int:
    """Verify one file and print its verdict."""
    from roguelike.replay.fileformat import ReplayError, read_replay
    from roguelike.replay.verify import Outcome, verify

    try:
        replay = read_replay(path)
    except ReplayError as error:
        print(f"hedonic replay: {path}: {error}", file=err)
        return EXIT_BAD_FILE
    verdict = verify(replay, progress_printer(path, err))
    clear_progress(err)
    if verdict.outcome is Outcome.MATCHED:
        print(f"{path}: {counted(verdict.turns, 'turn')} verified ({counted(verdict.steps, 'command')})", file=out)
    else:
        print(f"{path}: {verdict.details[0]}", file=out)
    for line in verdict.details[1 if verdict.outcome is Outcome.DIVERGED else 0 :]:
        print(line if line.startswith("  ") else f"  {line}", file=out)
    if replay.torn_at is not None:
        print(f"  note: the last record was cut off at byte {replay.torn_at} (a killed game); "
              "verified up to the one before", file=out)
    return EXIT_OK if verdict.outcome is Outcome.MATCHED else EXIT_DIVERGED


def counted(number: int, noun: str) -> str:
    """``1 turn``, ``2 turns``."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def progress_printer(path: Path, err: TextIO) -> Progress | None:
    """A progress callback writing to a terminal's stderr, or None off a terminal."""
    if not err.isatty():
        return None

    def show(done: int, total: int) -> None:
        err.write(f"\rverifying {path.name}: {done}/{total} commands")
        err.flush()

    return show


def clear_progress(err: TextIO) -> None:
    """Erase the progress line, if one was drawn."""
    if err.isatty():
        err.write("\r\x1b[K")
        err.flush()


def watch(args: argparse.Namespace) -> int:
    """Show the replay in the window or the terminal."""
    from roguelike.cli.looks import use_player_settings
    from roguelike.cli.play import choose_frontend
    from roguelike.replay.fileformat import ReplayError, read_replay
    from roguelike.replay.playback import Playback
    from roguelike.screens.base import App
    from roguelike.screens.replay import ReplayScreen

    path: Path = args.files[0]
    try:
        replay = read_replay(path)
    except ReplayError as error:
        return complain(f"{path}: {error}")
    use_player_settings(args)
    return choose_frontend(args)(App(ReplayScreen(Playback(replay), practice_starter(args, replay))))


def practice_starter(args: argparse.Namespace, replay: Replay) -> PlayFrom:
    """What ``p`` in the viewer does: a save of the replay's game at the turn shown, marked as
    made from a replay (it never counts), opened to play on; or why it cannot be."""
    from roguelike.cli.saves import games_for
    from roguelike.replay.tosave import CannotSave, save_as
    from roguelike.saves import SaveError
    from roguelike.screens.ingame import InGameScreen

    games = games_for(args)

    def play_from(turn: int) -> Screen | str:
        try:
            save, _ = save_as(replay, games.root, turn, replay.header.name)
            return InGameScreen(games.resume(save))
        except (CannotSave, SaveError) as error:
            return f"cannot play from here: {error}"
        except OSError as error:
            return f"cannot play from here: {error.strerror or error}"

    return play_from


def inspect_file(path: Path, turn: int) -> int:
    """``--inspect N``: the state at turn N as JSON on stdout."""
    import json

    from roguelike.replay.fileformat import ReplayError, read_replay
    from roguelike.replay.inspect import NotThere, game_at_turn, readable

    try:
        playback = game_at_turn(read_replay(path), turn)
    except ReplayError as error:
        return complain(f"{path}: {error}")
    except NotThere as error:
        print(f"hedonic replay: {path}: {error}", file=sys.stderr)
        return EXIT_DIVERGED
    print(json.dumps(readable(playback.game), indent=1, ensure_ascii=False))
    playback.close()
    return EXIT_OK


def diff_files(paths: list[Path]) -> int:
    """``--diff A B``: 0 when neither differs from the other, 1 with the first difference."""
    from roguelike.replay.diff import NotComparable, describe_difference, first_difference, header_difference
    from roguelike.replay.diff import length_note
    from roguelike.replay.fileformat import ReplayError

    if len(paths) != 2:
        return complain("--diff compares two replays: give A and B")
    try:
        left, right = (read_named(path) for path in paths)
        step = first_difference(left, right)
    except ReplayError as error:
        return complain(str(error))
    except NotComparable as error:
        return complain(f"cannot compare {paths[0]} and {paths[1]}: {error}")
    if header_difference(left, right):
        print("\n".join(header_difference(left, right)))
        return EXIT_DIVERGED
    if step is None:
        print(length_note(left, right))
        return EXIT_OK
    print("\n".join(describe_difference(left, right, step)))
    return EXIT_DIVERGED


def read_named(path: Path) -> Replay:
    """A replay, or a ReplayError naming its file."""
    from roguelike.replay.fileformat import ReplayError, read_replay

    try:
        return read_replay(path)
    except ReplayError as error:
        raise ReplayError(f"{path}: {error}") from None


def play_wizard(args: argparse.Namespace, save: Path) -> int:
    """Open a new wizard-mode save in the frontend ``hedonic play`` would choose."""
    from roguelike.cli.play import choose_frontend
    from roguelike.cli.saves import games_for
    from roguelike.saves import SaveError
    from roguelike.screens.base import App
    from roguelike.screens.ingame import InGameScreen

    try:
        session = games_for(args).resume(save)
    except SaveError as error:
        print(f"hedonic replay: {error}", file=sys.stderr)
        return EXIT_DIVERGED
    return choose_frontend(args)(App(InGameScreen(session)))


def complain(text: str) -> int:
    """A one-line error and the bad-input status."""
    print(f"hedonic replay: {text}", file=sys.stderr)
    return EXIT_BAD_FILE


REPLAY = Subcommand("replay", "watch, verify or re-record replays", configure, run)
