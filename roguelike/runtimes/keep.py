"""Making runtimes: a copy of a game's code, from this installation, a folder, a wheel or git.

The epoch, version and newest replay format of the code are read from its files as text
(never by running them), the files are copied with their hashes and the lock, and the
folder appears whole or not at all (built aside, then renamed into place).
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

from roguelike import __version__
from roguelike.core.epoch import FIRST_EPOCH, RULES_EPOCH
from roguelike.runtimes.pins import current_lock
from roguelike.runtimes.store import (
    CODE,
    DESCRIPTION,
    PACKAGES,
    Runtime,
    RuntimeTrouble,
    checked_names,
    epoch_folder,
    file_hash,
    read_runtime,
    runtime_folder,
)

EPOCH_LINE = re.compile(r"^RULES_EPOCH\s*(?::[^=\n]*)?=\s*(\d+)", re.MULTILINE)
VERSION_LINE = re.compile(r"^__version__\s*=\s*[\"']([^\"']+)[\"']", re.MULTILINE)
FORMAT_LINE = re.compile(r"^FORMAT_VERSION\s*=\s*(\d{1,9})(?!\d)", re.MULTILINE)
SKIPPED = ("__pycache__",)
SKIPPED_SUFFIXES = (".pyc", ".pyo")


def code_files(source: Path) -> Iterator[tuple[str, Path]]:
    """The files of the game's packages under ``source`` (path under the code folder, file); RuntimeTrouble for a
    symbolic link leading out of ``source`` (a runtime keeps the game's own files, never another of the user's)."""
    inside = source.resolve()
    for package in PACKAGES:
        for path in sorted((source / package).rglob("*")):
            if set(path.parts) & set(SKIPPED) or path.suffix in SKIPPED_SUFFIXES:
                continue
            if path.is_symlink() and not path.resolve().is_relative_to(inside):
                raise RuntimeTrouble(f"{path}: a symbolic link out of {source}: a runtime keeps only the game's files")
            if path.is_file():
                yield path.relative_to(source).as_posix(), path


def read_text(source: Path, relative: str) -> str:
    """A file of the code as text ('' if it is missing; RuntimeTrouble if it is no regular file, which could
    never end or never come)."""
    path = source / relative
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            raise RuntimeTrouble(f"{path}: not a regular file")
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def describe_code(source: Path) -> tuple[int, str, int]:
    """The rules epoch, game version and newest replay format of the code under ``source``."""
    if not (source / "roguelike" / "__init__.py").is_file():
        raise RuntimeTrouble(f"{source}: holds no game (no roguelike/__init__.py)")
    epoch = EPOCH_LINE.search(read_text(source, "roguelike/core/epoch.py"))
    version = VERSION_LINE.search(read_text(source, "roguelike/__init__.py"))
    replay_format = FORMAT_LINE.search(read_text(source, "roguelike/replay/fileformat.py"))
    if version is None or replay_format is None:
        raise RuntimeTrouble(f"{source}: its version or replay format cannot be read")
    number = epoch_number(epoch.group(1)) if epoch else FIRST_EPOCH
    try:
        checked_names(number, version.group(1))
    except RuntimeTrouble as trouble:
        raise RuntimeTrouble(f"{source}: {trouble}") from None
    return number, version.group(1), int(replay_format.group(1))


def epoch_number(digits: str) -> int:
    """An epoch read as text (0 when too long to be one, which no check lets pass)."""
    return int(digits) if len(digits) <= 9 else 0


def build_runtime(source: Path, origin: str, lock: dict[str, str] | None = None, root: Path | None = None) -> Runtime:
    """Keep the code under ``source`` as a runtime (the one already kept if it is the same code)."""
    listed = list(code_files(source))
    epoch, version, replay_format = describe_code(source)
    files = {relative: file_hash(path) for relative, path in listed}
    runtime = Runtime(
        runtime_folder(epoch, version, files, root),
        epoch,
        version,
        replay_format,
        origin,
        lock if lock is not None else current_lock(),
        files,
    )
    if (runtime.path / DESCRIPTION).is_file():
        return read_runtime(runtime.path)
    write_runtime(runtime, listed)
    return runtime


def write_runtime(runtime: Runtime, listed: list[tuple[str, Path]]) -> None:
    """Copy the files beside the runtime's folder, then rename them into place."""
    import json

    runtime.path.parent.mkdir(parents=True, exist_ok=True)
    aside = Path(tempfile.mkdtemp(prefix=".building-", dir=runtime.path.parent))
    try:
        for relative, path in listed:
            target = aside / CODE / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
        (aside / DESCRIPTION).write_text(json.dumps(runtime.to_plain(), indent=1, sort_keys=True), encoding="utf-8")
        os.replace(aside, runtime.path)
    except OSError:
        if not (runtime.path / DESCRIPTION).is_file():  # another process may have kept the same code meanwhile
            raise
    finally:
        shutil.rmtree(aside, ignore_errors=True)


def own_source() -> Path:
    """The folder holding this game's packages (site-packages, or a checkout)."""
    import roguelike

    return Path(roguelike.__file__).resolve().parents[1]


def keep_own_runtime(root: Path | None = None) -> Runtime | None:
    """Keep this game's own code the first time this version runs (None when already kept).

    The check is one folder listing, so it costs nothing on later starts.
    """
    folder = epoch_folder(RULES_EPOCH, root)
    if any(folder.glob(f"{glob_escape(__version__)}-*")):
        return None
    return build_runtime(own_source(), f"installed {__version__}", root=root)


def glob_escape(text: str) -> str:
    """Text matched literally by a glob pattern."""
    return re.sub(r"([*?\[])", r"[\1]", text)
