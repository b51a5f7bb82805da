"""``hedonic replay``: watch a replay, verify replays, turn one into a save, re-record the corpus.

Exit statuses: 0 when all is well, 1 when a game diverged (``--verify``, ``--diff``), 2 when a
file is damaged or not a replay, or the command is wrong (one line, no traceback);
``--verify`` itself lives in :mod:`roguelike.cli.verifying`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from roguelike.cli.looks import add_look_options
from roguelike.cli.subcommand import Subcommand
from roguelike.cli.verifying import EXIT_BAD_FILE, EXIT_DIVERGED, EXIT_OK, verify_files
from roguelike.cli.web import add_web_options

if TYPE_CHECKING:
    from roguelike.records.coaching import ReviewWork
    from roguelike.replay.fileformat import Replay
    from roguelike.screens.base import Screen
    from roguelike.screens.replay import PlayFrom, ReviewOf


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``hedonic replay``."""
    parser.add_argument(
        "files",
        nargs="+",
        type=Path,
        metavar="FILE",
        help="replay files (or folders of them, with --verify and --rerecord)",
    )
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--verify", action="store_true", help="re-simulate headless and check every turn's checksum")
    what.add_argument(
        "--rerecord", action="store_true", help="record the files (or a corpus folder) again with this game"
    )
    what.add_argument("--rebuild", action="store_true", help="rebuild damaged saves (FILE: the save or its replay)")
    what.add_argument(
        "--diff", action="store_true", help="FILE A and B, of one seed: the first step where they differ, and how"
    )
    what.add_argument("--inspect", type=int, metavar="N", help="print the whole game state at turn N as JSON")
    what.add_argument(
        "--film", type=Path, metavar="OUT", help="write the game's screens as a film (watchable whatever the rules)"
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="with --verify: one JSON object a file (verdict, seed, name, origin, turns, cause, "
        "the score recomputed from the re-simulated game, feats)",
    )
    parser.add_argument(
        "--jobs", type=int, metavar="N", help="with --verify: verify N files at once (default: one per core)"
    )
    parser.add_argument("--to-turn", type=int, metavar="N", help="with --save-as: stop at turn N")
    parser.add_argument(
        "--save-as",
        metavar="NAME",
        help="write the game at --to-turn (default: the end) as a new save of a character NAME",
    )
    parser.add_argument(
        "--wizard",
        action="store_true",
        help="with --to-turn: play on from that turn in wizard mode (a new save, marked; & opens the wizard prompt)",
    )
    add_runtime_options(parser)
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--window", action="store_true", default=argparse.SUPPRESS, help="watch in the window")
    where.add_argument("--terminal", action="store_true", default=argparse.SUPPRESS, help="watch in this terminal")
    add_web_options(parser, where)
    add_look_options(parser)


def add_runtime_options(parser: argparse.ArgumentParser) -> None:
    """How a replay of another rules epoch reaches its runtime's libraries."""
    parser.add_argument(
        "--wheels",
        type=Path,
        metavar="FOLDER",
        help="for a replay of another rules epoch: wheels of its runtime's libraries (offline)",
    )
    parser.add_argument("--online", action="store_true", help="let a runtime's libraries be downloaded if needed")
    parser.add_argument(
        "--isolated",
        action="store_true",
        help="run a runtime in its own environment even when this one has its libraries",
    )
    parser.add_argument(
        "--installer",
        choices=("auto", "uv", "pip"),
        default="auto",
        help="what makes a runtime's environment (auto: uv if installed, else venv and pip)",
    )


def run(args: argparse.Namespace) -> int:
    """Dispatch to verify, re-record, save-as or watching (a replay of another rules epoch to its runtime)."""
    from roguelike.cli.epochs import foreign_replay, run_elsewhere, runtime_options

    if args.verify:
        from roguelike.storage.datadir import data_dir

        return verify_files(
            args.files,
            sys.stdout,
            sys.stderr,
            args.jobs,
            runtime_options(args),
            args.json,
            data_dir(args.data_dir) if args.json else None,
        )
    if not (args.rerecord or args.rebuild):
        foreign = foreign_replay(args.files)
        if foreign is not None:
            return run_elsewhere(args, foreign)
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
    if args.film is not None:
        from roguelike.cli.films import make_film

        return make_film(args.files[0], args.film)
    if args.save_as is not None or args.to_turn is not None or args.wizard:
        from roguelike.replay.tosave import save_from_replay

        return save_from_replay(args, lambda save: play_wizard(args, save))
    return watch(args)


def watch(args: argparse.Namespace) -> int:
    """Show the replay in the window or the terminal."""
    from roguelike.cli.looks import use_player_settings
    from roguelike.cli.play import choose_frontend
    from roguelike.frontend.film.fileformat import is_film
    from roguelike.replay.fileformat import ReplayError, read_replay
    from roguelike.replay.playback import Playback
    from roguelike.screens.base import App
    from roguelike.screens.replay import ReplayScreen

    path: Path = args.files[0]
    if is_film(path):
        from roguelike.cli.films import watch_film

        return watch_film(args)
    try:
        replay = read_replay(path)
    except ReplayError as error:
        return complain(f"{path}: {error}")
    use_player_settings(args)
    viewer = ReplayScreen(Playback(replay), practice_starter(args, replay), review_of(path, replay))
    return choose_frontend(args)(App(viewer))


def review_of(path: Path, replay: Replay, work: ReviewWork | None = None) -> ReviewOf:
    """What ``r`` in the viewer opens: the coach's review of this replay (made once, on first asking;
    ``work`` makes it instead of the coach's own figures)."""
    from roguelike.records.coaching import Coaching
    from roguelike.screens.review import ReviewScreen

    coaching = Coaching(path.parent, path, replay.header.seed, 0, daily=False, review_work=work)
    return lambda viewer: ReviewScreen(coaching, viewer)


def practice_starter(args: argparse.Namespace, replay: Replay) -> PlayFrom:
    """What ``p`` in the viewer does: a save of the replay's game at the turn shown, marked as
    made from a replay (it never counts), opened to play on; or why it cannot be."""
    from roguelike.cli.saves import games_for
    from roguelike.replay.tosave import CannotSave, save_as
    from roguelike.screens.ingame import InGameScreen
    from roguelike.storage.errors import SaveError

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
        return complain(f"{path}: {error}", EXIT_DIVERGED)
    state = {"rules_epoch": playback.replay.header.epoch, **readable(playback.game)}
    print(json.dumps(state, indent=1, ensure_ascii=False))
    playback.close()
    return EXIT_OK


def diff_files(paths: list[Path]) -> int:
    """``--diff A B``: 0 when neither differs from the other, 1 with the first difference."""
    from roguelike.replay.diff import (
        NotComparable,
        describe_difference,
        first_difference,
        header_difference,
        length_note,
    )
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
    from roguelike.screens.base import App
    from roguelike.screens.ingame import InGameScreen
    from roguelike.storage.errors import SaveError

    try:
        session = games_for(args).resume(save)
    except SaveError as error:
        return complain(str(error), EXIT_DIVERGED)
    return choose_frontend(args)(App(InGameScreen(session)))


def complain(text: str, status: int = EXIT_BAD_FILE) -> int:
    """A one-line error (file names in it made safe to print) and the bad-input status."""
    from roguelike.core.names import shown

    print(shown(f"hedonic replay: {text}"), file=sys.stderr)
    return status


REPLAY = Subcommand("replay", "watch, verify or re-record replays", configure, run)
