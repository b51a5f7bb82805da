"""``hedonic replay FILE --film OUT`` makes a film; ``hedonic replay OUT.film`` plays one."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from roguelike.cli.verifying import EXIT_BAD_FILE, EXIT_DIVERGED, EXIT_OK


def make_film(source: Path, out: Path) -> int:
    """Write the film of a replay: 0, 1 if the game diverged (the film stops there), 2 for a bad file."""
    from roguelike.frontend.film.maker import Diverged, film_of
    from roguelike.replay.fileformat import ReplayError, read_replay
    from roguelike.storage.atomic import write_over_regular

    try:
        replay = read_replay(source)
    except ReplayError as error:
        return complain(f"{source}: {error}")
    status, note = EXIT_OK, ""
    try:
        film = film_of(replay)
    except Diverged as parted:
        film, status, note = parted.film, EXIT_DIVERGED, f" (stopped where {parted}: the rules changed)"
    try:
        write_over_regular(out, film)
    except OSError as error:
        return complain(f"cannot write {out}: {error.strerror or error}")
    print(f"{out}: {len(replay.steps)} commands, {len(film):,} bytes{note}")
    return status


def watch_film(args: argparse.Namespace) -> int:
    """Play a film in the frontend ``hedonic play`` would choose."""
    from roguelike.cli.looks import use_player_settings
    from roguelike.cli.play import choose_frontend
    from roguelike.frontend.film.fileformat import Film, FilmError
    from roguelike.frontend.film.screen import FilmScreen
    from roguelike.screens.base import App

    path: Path = args.files[0]
    try:
        film = Film.read(path)
    except (FilmError, OSError) as error:
        return complain(f"{path}: {error}")
    use_player_settings(args)
    return choose_frontend(args)(App(FilmScreen(film)))


def complain(text: str) -> int:
    """A one-line error and the bad-input status."""
    print(f"hedonic replay: {text}", file=sys.stderr)
    return EXIT_BAD_FILE
