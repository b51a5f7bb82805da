"""Where a player's files live: saves, history, replays and crash reports.

The platform's user data directory by default, or ``--data-dir DIR`` /
``HEDONIC_DATA_DIR``. File names inside come from ids the game makes, never from the
player's name.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

from roguelike import APP_ID

APP_NAME = APP_ID
ENV_VAR = "HEDONIC_DATA_DIR"


def data_dir(override: str | Path | None = None) -> Path:
    """The data directory: the override, else $HEDONIC_DATA_DIR, else the platform's."""
    if override is not None:
        return Path(override).expanduser()
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def subdir(root: Path, name: str) -> Path:
    """A folder inside the data directory, created when missing."""
    path = root / name
    path.mkdir(parents=True, exist_ok=True)
    return path
