"""Where saves and the character history live inside the data directory.

::

    <data dir>/saves/<id>.save      one per living character, written in place every turn (slots.py)
    <data dir>/saves/<id>.lock      held by the game playing that save
    <data dir>/saves/<id>.save.tmp  a save being written whole (left over only by a crash)
    <data dir>/history/<id>.record  one per dead character, written once

``<id>`` is the creation time and random hex made by the game, never the player's
name, so any name is safe and two characters of the same name never collide.
"""

from __future__ import annotations

import re
from pathlib import Path

SAVES = "saves"
HISTORY = "history"
SAVE_SUFFIX = ".save"
RECORD_SUFFIX = ".record"
SAVE_ID = re.compile(r"\d{8}-\d{6}-[0-9a-f]{8}")  # new_save_id's; an unsaved game's replay id has 6 hex digits


def saves_dir(root: Path) -> Path:
    """The folder of saves (not created here)."""
    return root / SAVES


def history_dir(root: Path) -> Path:
    """The folder of character records (not created here)."""
    return root / HISTORY


def new_save_id() -> str:
    """A fresh id for a new character's files: when it was made, and a random tail."""
    import secrets  # only a new game needs these; listing and reading saves start without them
    from datetime import datetime

    return f"{datetime.now():%Y%m%d-%H%M%S}-{secrets.token_hex(4)}"


def save_path(root: Path, save_id: str) -> Path:
    """The save file of an id."""
    return saves_dir(root) / f"{save_id}{SAVE_SUFFIX}"


def is_save_id(game_id: str) -> bool:
    """Whether a game id is a saved character's (its replay can rebuild its save)."""
    return SAVE_ID.fullmatch(game_id) is not None


def record_path(root: Path, save_id: str) -> Path:
    """The history record of an id."""
    return history_dir(root) / f"{save_id}{RECORD_SUFFIX}"


def save_files(root: Path) -> list[Path]:
    """Every save file in the data directory, by name."""
    folder = saves_dir(root)
    return sorted(folder.glob(f"*{SAVE_SUFFIX}")) if folder.is_dir() else []


def record_files(root: Path) -> list[Path]:
    """Every history record in the data directory, by name."""
    folder = history_dir(root)
    return sorted(folder.glob(f"*{RECORD_SUFFIX}")) if folder.is_dir() else []
