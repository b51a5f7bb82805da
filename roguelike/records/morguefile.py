"""Writing morgue files into the data directory's ``morgue/`` folder, at death or on demand.

The text file and its JSON twin are named after the game's id (its replay's name) and
the turn, never after the character, and written atomically. The data directory is the
one the session records its replay in.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.records.morgue import morgue_data, morgue_text
from roguelike.replay.fileformat import ReplayError, read_replay
from roguelike.replay.recorder import ReplayRecorder
from roguelike.storage.atomic import write_atomic
from roguelike.storage.datadir import DataDir, made
from roguelike.storage.errors import in_words

NOT_RECORDED = "No morgue file: this game is not being recorded."


class Morgue(NamedTuple):
    """A morgue file written (None if none could be) and the line that tells the player where, or why not."""

    path: Path | None
    line: str


def write_morgue(folders: DataDir, game: Game, replay_path: Path) -> Path:
    """Write the morgue text file and its JSON twin; the text file's path."""
    data = morgue_data(game, read_replay(replay_path), replay_path)
    folder = made(folders.morgue)
    stem = f"{replay_path.stem}-turn{game.state.turn}"
    write_atomic(folder / f"{stem}.json", (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode("utf-8"))
    path = folder / f"{stem}.txt"
    write_atomic(path, morgue_text(data).encode("utf-8"))
    return path


def recorded_replay(session: Session) -> Path | None:
    """The replay a session records its game in, if it is recorded."""
    recorders = [o for o in session.observers if isinstance(o, ReplayRecorder)]
    return recorders[0].path if recorders else None


def morgue_file(game: Game, replay_path: Path | None) -> Morgue:
    """Write the morgue file of a recorded game, in the data directory its replay lies in."""
    if replay_path is None:
        return Morgue(None, NOT_RECORDED)
    folders = DataDir.of_replay(replay_path)
    if folders is None:
        return Morgue(None, f"No morgue file: its replay {replay_path} is not in a data directory's replays/ folder.")
    try:
        path = write_morgue(folders, game, replay_path)
    except (OSError, ReplayError) as error:
        return Morgue(None, f"No morgue file: {in_words(error)}.")
    return Morgue(path, f"Morgue file: {path}")
