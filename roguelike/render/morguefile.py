"""Writing morgue files into the data directory's ``morgue/`` folder, at death or on demand.

The text file and its JSON twin are named after the game's id (its replay's name) and
the turn, never after the character, and written atomically. The data directory is the
one the session records its replay in.
"""

from __future__ import annotations

import json
from pathlib import Path

from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.render.morgue import morgue_data, morgue_text
from roguelike.replay.fileformat import ReplayError, read_replay
from roguelike.replay.recorder import ReplayRecorder
from roguelike.saves.atomic import write_atomic
from roguelike.saves.datadir import subdir
from roguelike.saves.errors import in_words

MORGUE_DIR = "morgue"


def write_morgue(data_dir: Path, game: Game, replay_path: Path) -> Path:
    """Write the morgue text file and its JSON twin; the text file's path."""
    data = morgue_data(game, read_replay(replay_path), replay_path)
    folder = subdir(data_dir, MORGUE_DIR)
    stem = f"{replay_path.stem}-turn{game.state.turn}"
    write_atomic(folder / f"{stem}.json", (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode("utf-8"))
    path = folder / f"{stem}.txt"
    write_atomic(path, morgue_text(data).encode("utf-8"))
    return path


def recorded_replay(session: Session) -> Path | None:
    """The replay a session records its game in, if it is recorded."""
    recorders = [o for o in session.observers if isinstance(o, ReplayRecorder)]
    return recorders[0].path if recorders else None


def morgue_line(game: Game, replay_path: Path | None) -> str:
    """Write the morgue file of a recorded game; the sentence that tells the player where."""
    if replay_path is None:
        return "No morgue file: this game is not being recorded."
    try:
        path = write_morgue(replay_path.parent.parent, game, replay_path)  # data_dir/replays/<id>.replay
    except (OSError, ReplayError) as error:
        return f"No morgue file: {in_words(error)}."
    return f"Morgue file: {path}"
