"""The data directory: where it is, and the name of every folder and file the game keeps in it.

::

    <data dir>/saves/<id>.save                one per living character, written in place every turn
    <data dir>/saves/<id>.lock                held by the game playing that save
    <data dir>/saves/<id>.save.tmp            a save being written whole (left over only by a crash)
    <data dir>/history/<id>.record            one per dead character, written once
    <data dir>/replays/<id>.replay            every game's replay, appended every turn
    <data dir>/morgue/<id>-turn<N>.txt|json   a morgue file and its JSON twin
    <data dir>/crashes/crash-<time>.txt       a crash report (with a copy of its replay beside it)
    <data dir>/imported/<player>/<hash>.replay  a score file ``hedonic import`` verified
    <data dir>/server/                        ``hedonic serve``'s database
    <data dir>/hall.sqlite                    the hall's cache of proofs (rebuilt when missing)
    <data dir>/par.json                       the coach's par bands, by seed and rules epoch
    <data dir>/settings.json                  the player's settings
    <data dir>/keys.toml                      the player's keymap
    <data dir>/colour-hint-shown              the terminal's full-colour hint was given once

It is the platform's user data directory by default, or ``--data-dir DIR`` /
``HEDONIC_DATA_DIR``. ``<id>`` is the creation time and random hex made by the game,
never the player's name, so any name is safe and two characters of the same name never
collide. :class:`DataDir` is the one place these names are spelled.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from roguelike import APP_ID

APP_NAME = APP_ID
ENV_VAR = "HEDONIC_DATA_DIR"
SAVE_SUFFIX = ".save"
RECORD_SUFFIX = ".record"
REPLAY_SUFFIX = ".replay"
SAVE_ID = re.compile(r"\d{8}-\d{6}-[0-9a-f]{8}")  # new_save_id's; an unsaved game's replay id has 6 hex digits
SETTINGS_FILE, KEYS_FILE, HALL_CACHE, COLOUR_HINT = "settings.json", "keys.toml", "hall.sqlite", "colour-hint-shown"
PAR_FILE = "par.json"
FOLDERS = ("saves", "history", "replays", "morgue", "crashes", "imported", "server")
FILES = (SETTINGS_FILE, KEYS_FILE, HALL_CACHE, COLOUR_HINT)


def data_dir(override: str | Path | None = None) -> Path:
    """The data directory: the override, else $HEDONIC_DATA_DIR, else the platform's."""
    if override is not None:
        return Path(override).expanduser()
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


@dataclass(frozen=True)
class DataDir:
    """A data directory and the paths of everything in it (nothing is created by naming it)."""

    root: Path

    @classmethod
    def of_save(cls, save: Path) -> DataDir | None:
        """The data directory a save lies in (None for a save kept anywhere else)."""
        return cls.above(save, "saves")

    @classmethod
    def of_replay(cls, replay: Path) -> DataDir | None:
        """The data directory a game's replay lies in (None for a replay kept anywhere else)."""
        return cls.above(replay, "replays")

    @classmethod
    def above(cls, path: Path, name: str) -> DataDir | None:
        """The data directory whose folder ``name`` holds ``path``: the one place a file's data directory is found."""
        folder = path.parent
        return cls(folder.parent) if folder.name == name else None

    @property
    def saves(self) -> Path:
        """The living characters' saves and their locks."""
        return self.root / "saves"

    @property
    def history(self) -> Path:
        """The dead characters' records."""
        return self.root / "history"

    @property
    def replays(self) -> Path:
        """Every game's replay."""
        return self.root / "replays"

    @property
    def morgue(self) -> Path:
        """The morgue files."""
        return self.root / "morgue"

    @property
    def crashes(self) -> Path:
        """The crash reports."""
        return self.root / "crashes"

    @property
    def imported(self) -> Path:
        """The score files imported, a folder per player."""
        return self.root / "imported"

    @property
    def server(self) -> Path:
        """The score server's own files."""
        return self.root / "server"

    @property
    def hall_cache(self) -> Path:
        """The hall's cache of proofs."""
        return self.root / HALL_CACHE

    @property
    def par(self) -> Path:
        """The coach's par bands, by seed and rules epoch."""
        return self.root / PAR_FILE

    @property
    def settings(self) -> Path:
        """The player's settings file."""
        return self.root / SETTINGS_FILE

    @property
    def keys(self) -> Path:
        """The player's keymap."""
        return self.root / KEYS_FILE

    @property
    def colour_hint(self) -> Path:
        """The mark that the terminal's full-colour hint was given."""
        return self.root / COLOUR_HINT

    def save(self, save_id: str) -> Path:
        """The save file of an id."""
        return self.saves / f"{save_id}{SAVE_SUFFIX}"

    def record(self, save_id: str) -> Path:
        """The history record of an id."""
        return self.history / f"{save_id}{RECORD_SUFFIX}"

    def replay(self, game_id: str) -> Path:
        """The replay of a game."""
        return self.replays / f"{game_id}{REPLAY_SUFFIX}"

    def save_files(self) -> list[Path]:
        """Every save file, by name."""
        return sorted(self.saves.glob(f"*{SAVE_SUFFIX}")) if self.saves.is_dir() else []

    def record_files(self) -> list[Path]:
        """Every history record, by name."""
        return sorted(self.history.glob(f"*{RECORD_SUFFIX}")) if self.history.is_dir() else []

    def replay_files(self) -> list[Path]:
        """Every replay of this machine's games, by name."""
        return sorted(self.replays.glob(f"*{REPLAY_SUFFIX}")) if self.replays.is_dir() else []

    def names(self, path: Path) -> bool:
        """Whether a path inside the data directory is one of the folders or files named here (or lies in one)."""
        parts = path.relative_to(self.root).parts
        return bool(parts) and (parts[0] in FOLDERS or (len(parts) == 1 and parts[0] in FILES))


def made(folder: Path) -> Path:
    """A folder of the data directory, created (with the directory) when missing."""
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def new_save_id() -> str:
    """A fresh id for a new character's files: when it was made, and a random tail."""
    import secrets  # only a new game needs these; listing and reading saves start without them
    from datetime import datetime

    return f"{datetime.now():%Y%m%d-%H%M%S}-{secrets.token_hex(4)}"


def is_save_id(game_id: str) -> bool:
    """Whether a game id is a saved character's (its replay can rebuild its save)."""
    return SAVE_ID.fullmatch(game_id) is not None
