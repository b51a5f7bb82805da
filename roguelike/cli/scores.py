"""``hedonic daily``, ``hedonic hall``, ``hedonic export`` and ``hedonic import``: provable scores.

Exit statuses: ``hall`` and ``export`` 0 (2 for a game that cannot be found or written);
``import`` 0 when the file verified (filed, or already there), 1 when it did not, 2 when
it is not a score file.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from roguelike.cli.looks import add_look_options
from roguelike.cli.subcommand import Subcommand

if TYPE_CHECKING:
    from roguelike.scores.hall import Entry


def configure_daily(parser: argparse.ArgumentParser) -> None:
    """Options of ``hedonic daily``."""
    parser.add_argument("--name", default=None, help="the character's name (asked for when not given)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--window", action="store_true", default=argparse.SUPPRESS, help="play in the window")
    where.add_argument("--terminal", action="store_true", default=argparse.SUPPRESS, help="play in this terminal")
    add_look_options(parser)


def daily(args: argparse.Namespace) -> int:
    """Start today's daily game (UTC date), asking for the name unless given."""
    from roguelike.cli.looks import use_player_settings
    from roguelike.cli.play import choose_frontend
    from roguelike.cli.saves import games_for
    from roguelike.scores.daily import DailyStart, today
    from roguelike.screens.base import App
    from roguelike.screens.ingame import InGameScreen
    from roguelike.screens.newgame import NewGameScreen

    use_player_settings(args)
    start = DailyStart(games_for(args), today())
    if args.name is None:
        return choose_frontend(args)(App(NewGameScreen(start.games, daily=start)))
    print(start.standing(args.name), file=sys.stderr)
    return choose_frontend(args)(App(InGameScreen(start.start(args.name))))


def configure_hall(parser: argparse.ArgumentParser) -> None:
    """Options of ``hedonic hall``."""
    parser.add_argument(
        "--daily", metavar="DATE", help="only the games of that date's daily seed (YYYY-MM-DD, or 'today')"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object a game")
    parser.add_argument("--jobs", type=int, metavar="N", help="verify N replays at once (default: one per core)")
    parser.add_argument("--cached", action="store_true", help="verify nothing: games not yet verified are 'pending'")


def hall_command(args: argparse.Namespace) -> int:
    """List the hall of fame (verifying what is not cached yet)."""
    from roguelike.scores.daily import today
    from roguelike.scores.hall import daily_board, hall
    from roguelike.scores.workers import prove_all
    from roguelike.storage.datadir import data_dir

    root = data_dir(args.data_dir)
    entries = hall(
        root,
        None if args.cached else lambda paths: prove_all(paths, args.jobs),
        lambda text: print(f"hedonic hall: {text}", file=sys.stderr),
    )
    day = None if args.daily is None else today().isoformat() if args.daily == "today" else args.daily
    if day is not None:
        entries = daily_board(entries, day)
    if day is not None and not args.json:
        print("\n".join(par_lines(root, day)))
    if not entries:  # a table's header alone would say nothing
        print(f"no games on the {day} daily board yet in {root}" if day else f"no finished games in {root}")
        return 0
    if not args.json:
        print("\n".join(hall_lines(entries)))
        return 0
    for place, entry in placed(entries):
        print(entry_json(place, entry, root if day is not None else None))
    return 0


def par_lines(root: Path, day: str) -> list[str]:
    """The daily board's par line, for a date given as ``YYYY-MM-DD`` or ``today`` (none for another text)."""
    from datetime import date

    from roguelike.records.coaching import daily_par_line
    from roguelike.scores.daily import today

    try:
        chosen = today() if day == "today" else date.fromisoformat(day)
    except ValueError:
        return []
    return [daily_par_line(root, chosen)]


def placed(entries: list[Entry]) -> list[tuple[int | None, Entry]]:
    """Each entry with its place on the board (None when it does not rank)."""
    from roguelike.scores.hall import VERIFIED_MARK

    places, shown = [], 0
    for entry in entries:
        shown += entry.mark == VERIFIED_MARK
        places.append((shown if entry.mark == VERIFIED_MARK else None, entry))
    return places


def entry_json(place: int | None, entry: Entry, par_root: Path | None = None) -> str:
    """One hall entry as JSON; on a daily board, with the par its seed has in ``par_root``'s par file
    under its own epoch (``"par"``, as ``replay --verify --json`` gives it), when there is one."""
    from roguelike.cli.verifying import kept_par

    proof = json.loads(entry.proof.to_json()) if entry.proof is not None else {"file": str(entry.path)}
    par = kept_par(par_root, entry.proof) if par_root is not None and entry.proof is not None else None
    return json.dumps(
        {"place": place, "mark": entry.mark, "sha256": entry.digest, **proof, **({"par": par} if par else {})},
        ensure_ascii=False,
        sort_keys=True,
    )


def hall_lines(entries: list[Entry]) -> list[str]:
    """The hall as a table."""
    from roguelike.core.names import fit, on_one_line
    from roguelike.scores.feats import titles

    rows = [f"{'#':>3}  {'Score':>6}  {'Name':<18} {'Turns':>6}  {'Origin':<17} {'Ended':<16} Mark"]
    for place, entry in placed(entries):
        proof = entry.proof
        score = "-" if entry.score is None or entry.mark == "pending" else str(entry.score)
        name = on_one_line(fit(proof.name or "?", 18)) if proof else entry.path.name
        origin = (proof.origin or "") + (f" {proof.daily}" if proof and proof.daily else "") if proof else ""
        ended = (proof.cause or "alive") if proof and proof.verdict == "verified" else ""
        turns = str(proof.turns) if proof else ""
        rows.append(
            f"{place or '':>3}  {score:>6}  {name:<18} {turns:>6}  {origin:<17} {fit(ended, 16):<16} {entry.mark}"
        )
        if proof and proof.feats:
            rows.append(f"{'':>13}feats: {', '.join(titles(proof.feats))}")
    return rows


def configure_export(parser: argparse.ArgumentParser) -> None:
    """Options of ``hedonic export``."""
    parser.add_argument(
        "game", metavar="GAME", help="a replay file, a game id, or a character's name (their latest game)"
    )
    parser.add_argument("--out", type=Path, required=True, metavar="FILE", help="the score file to write")
    parser.add_argument("--morgue", action="store_true", help="bundle the game's morgue file (the score file is a zip)")


def export_command(args: argparse.Namespace) -> int:
    """Write a score file."""
    from roguelike.scores.scorefile import ScoreFileError, export
    from roguelike.storage.datadir import data_dir
    from roguelike.storage.errors import describe_os_error

    try:
        morgue = export(data_dir(args.data_dir), args.game, args.out, args.morgue)
    except ScoreFileError as error:
        print(f"hedonic export: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"hedonic export: cannot write {args.out}: {describe_os_error(error)}", file=sys.stderr)
        return 2
    bundled = (
        f" with its morgue file {morgue.name}"
        if morgue
        else (" (no morgue file: the game did not die here)" if args.morgue else "")
    )
    print(f"wrote {args.out}{bundled}; anyone can check it with: hedonic replay --verify {args.out}")
    return 0


def configure_import(parser: argparse.ArgumentParser) -> None:
    """Options of ``hedonic import``."""
    parser.add_argument("file", type=Path, metavar="FILE", help="a score file (a replay, or a zip bundle)")


def import_command(args: argparse.Namespace) -> int:
    """Prove a score file and file it under its player's name."""
    from roguelike.core.names import shown
    from roguelike.scores.proof import DIVERGED, VERIFIED
    from roguelike.scores.scorefile import ScoreFileError, import_file
    from roguelike.storage.datadir import data_dir
    from roguelike.storage.errors import describe_os_error

    try:
        proof, where, new = import_file(data_dir(args.data_dir), args.file)
    except ScoreFileError as error:
        print(shown(f"hedonic import: {error}"), file=sys.stderr)
        return 2
    except OSError as error:
        print(shown(f"hedonic import: {args.file}: {describe_os_error(error)}"), file=sys.stderr)
        return 2
    if proof.verdict != VERIFIED:
        print(shown(f"hedonic import: {args.file}: not imported: {proof.verdict} ({proof.detail})"), file=sys.stderr)
        return 1 if proof.verdict == DIVERGED else 2
    told = "imported" if new else "already imported (nothing changed)"
    # The file's name is a stranger's: its escape sequences must not reach the terminal.
    print(
        shown(
            f"{args.file}: {told} as {where}: {proof.name}, {proof.score} points, {proof.turns} turns, {proof.origin}"
        )
    )
    return 0


DAILY = Subcommand("daily", "play today's daily seed (the same dungeon for everyone today)", configure_daily, daily)
HALL = Subcommand("hall", "the hall of fame: the best verified games of this machine", configure_hall, hall_command)
EXPORT = Subcommand("export", "write a game's score file, which anyone can verify", configure_export, export_command)
IMPORT = Subcommand(
    "import", "verify a score file and file it under its player's name", configure_import, import_command
)
