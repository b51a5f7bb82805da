"""The settings file in the data directory, and the settings a running game uses.

The file is written atomically like a save. A damaged file is reported (naming the file
and what is wrong), the game plays with defaults for what could not be read, and the
file is left exactly as it is: not even the window's place is written into it. Only
when the player changes a setting is a new file written, and then the damaged one is
first moved aside as ``settings.damaged.json`` (``settings.damaged-2.json``, ...).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from roguelike.settings.document import MAX_BYTES, Reading, from_bytes, to_text
from roguelike.settings.options import Settings, WindowPlace
from roguelike.storage.atomic import fsync_folder, write_atomic
from roguelike.storage.datadir import DataDir
from roguelike.storage.errors import describe_os_error
from roguelike.storage.playerfile import Unreadable, read_player_file

DAMAGED_STEM = "settings.damaged"
PROBLEM_ENDING = "Defaults are used for what could not be read; the file is kept as it is until you change a setting."
# Settings that follow the machine (the window's screen) until the player chooses one: written
# only once chosen, or a change of any other option would pin them to this machine's value.
AUTOMATIC = frozenset({"tiles"})


def read_file(path: Path) -> Reading:
    """The settings in a file; a missing file is the defaults, an unreadable one a problem."""
    try:
        data = read_player_file(path, MAX_BYTES)
    except FileNotFoundError:
        return Reading(Settings())
    except Unreadable as error:
        return Reading(Settings(), (error.reason,))
    return from_bytes(data)


def damaged_copy_path(path: Path) -> Path:
    """A free name beside the settings file for keeping a damaged one."""
    candidate = path.with_name(f"{DAMAGED_STEM}.json")
    number = 2
    while candidate.exists() or candidate.is_symlink():
        candidate = path.with_name(f"{DAMAGED_STEM}-{number}.json")
        number += 1
    return candidate


def keep_damaged(path: Path) -> Path | None:
    """Move a damaged settings file (or folder) aside; where it went, or None if absent."""
    if not (path.exists() or path.is_symlink()):
        return None
    kept = damaged_copy_path(path)
    os.rename(path, kept)
    fsync_folder(path.parent)
    return kept


@dataclass
class Preferences:
    """The settings in force: the file's, the player's changes, and this run's overrides.

    ``overrides`` come from the command line and last for one run; they are never
    written. Changing an option on the Settings screen drops its override and saves.
    """

    path: Path | None
    saved: Settings = field(default_factory=Settings)
    overrides: dict[str, Any] = field(default_factory=dict)
    problems: tuple[str, ...] = ()
    unknown: tuple[tuple[str, Any], ...] = ()
    save_error: str | None = None
    kept_damaged: Path | None = None
    given: frozenset[str] = frozenset()  # the settings the file or the player chose
    generation: int = 0  # rises with every change, so frontends notice them cheaply
    screen: tuple[int, int] | None = None  # the usable pixels of the window's screen, once a window knows them

    @classmethod
    def load(cls, root: Path, overrides: dict[str, Any] | None = None) -> Preferences:
        """The settings of a data directory, with this run's overrides."""
        path = DataDir(root).settings
        reading = read_file(path)
        return cls(
            path, reading.settings, dict(overrides or {}), reading.problems, reading.unknown, given=reading.given
        )

    @property
    def current(self) -> Settings:
        """The settings to use now."""
        settings = self.saved
        for name, value in self.overrides.items():
            settings = settings.with_value(name, value)
        return settings

    @property
    def damaged(self) -> bool:
        """Whether the file on disk could not be read as it is (and must be kept)."""
        return bool(self.problems)

    def problem_text(self, listed: int | None = None, whole_path: bool = True) -> str | None:
        """Sentences for the player naming the file and what is wrong, or None.

        ``listed`` reasons are given and the rest counted (all of them by default). Without
        ``whole_path`` the file is named by its name alone, first, so the sentence keeps its
        head however long the data folder's path (the settings screen shows the path above it)."""
        if not self.problems:
            return None
        reasons = list(self.problems[:listed])
        if len(reasons) < len(self.problems):
            rest = [problem.partition(":")[0] for problem in self.problems[len(reasons) :]]
            reasons.append(f"{len(rest)} more ({', '.join(rest)})")
        named = self.path.name if self.path is not None and not whole_path else f"The settings file {self.path}"
        return f"{named} is damaged: {'; '.join(reasons)}. {PROBLEM_ENDING}"

    def problem_brief(self) -> str | None:
        """The problem in one short line (the file's name and the first thing wrong), or None."""
        if not self.problems or self.path is None:
            return None
        more = f" (and {len(self.problems) - 1} more)" if len(self.problems) > 1 else ""
        return f"{self.path.name} is damaged, defaults in use (see Settings): {self.problems[0]}{more}"

    def change(self, name: str, value: Any) -> None:
        """The player chose a value: use it at once and save the settings."""
        self.overrides.pop(name, None)
        self.saved = self.saved.with_value(name, value)
        self.given |= {name}
        self.generation += 1
        self.write()

    def suggest(self, name: str, value: Any) -> None:
        """A value that suits this machine, used unless the file or the command line chose one.

        Nothing is written; the value is saved with the next change the player makes.
        """
        if name in self.given or name in self.overrides or getattr(self.saved, name) == value:
            return
        self.saved = self.saved.with_value(name, value)
        self.generation += 1

    def remember_window(self, place: WindowPlace) -> None:
        """Keep the window's place for the next run (never into a damaged file)."""
        if place == self.saved.window:
            return
        self.saved = self.saved.with_value("window", place)
        if not self.damaged:
            self.write()

    def write(self) -> None:
        """Write the settings file, keeping a damaged one beside it; failures are reported."""
        if self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            kept = keep_damaged(self.path) if self.damaged else None
            write_atomic(self.path, to_text(self.saved, self.unknown, AUTOMATIC - self.given).encode("utf-8"))
        except OSError as error:
            self.save_error = f"Could not save settings to {self.path}: {describe_os_error(error)}."
            return
        self.save_error = None
        self.problems = ()  # the file on disk is good now
        self.kept_damaged = kept or self.kept_damaged
