"""Where runtimes are kept and what each one is: its folder, description, hashes and damage.

A runtime's description (``runtime.json``) is its manifest: the SHA-256 of every file of its
code. A runtime is whole when its folder holds exactly those files with those bytes and
nothing else (no added module, no bytecode, no ``.pth``, no symbolic link, no other folder).
The epoch and version become parts of its path, so both are checked to be plain before any
path is made of them.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from roguelike import APP_ID
from roguelike.ground.versions import version_key

CACHE_ENV = "HEDONIC_CACHE_DIR"  # a folder to keep runtimes in instead of the user's cache folder
DESCRIPTION = "runtime.json"
CODE = "code"
PACKAGES = ("roguelike", "components", "systems")
MAX_DESCRIPTION_BYTES = 4 * 1024 * 1024
# A version as it may name a folder: letters, digits and . + ! _ - (PEP 440's), never a path.
PLAIN_VERSION = re.compile(r"[0-9A-Za-z][0-9A-Za-z.+!_-]{0,63}")
MAX_EPOCH = 10**6


class RuntimeTrouble(Exception):
    """A runtime that cannot be made, found or used; the message is one line saying why."""


@dataclass(frozen=True)
class Runtime:
    """One kept runtime: the rules epoch and game version of its code, and where it came from."""

    path: Path
    epoch: int
    version: str
    replay_format: int  # the newest replay format its code reads
    source: str  # "installed <version>", "git <revision>", "wheel <file>" or "folder <path>"
    lock: dict[str, str]  # distribution name -> exact version it ran with
    files: dict[str, str]  # path under code/ -> SHA-256 of its bytes

    @property
    def code(self) -> Path:
        """The folder to put first on the import path."""
        return self.path / CODE

    @property
    def name(self) -> str:
        """How the player sees it named: ``epoch 1, version 0.2.0``."""
        return f"epoch {self.epoch}, version {self.version}"

    def size(self) -> int:
        """The bytes of its code."""
        return sum((self.code / relative).stat().st_size for relative in self.files if (self.code / relative).exists())

    def to_plain(self) -> dict[str, Any]:
        """Its description as stored in ``runtime.json``."""
        return {
            "epoch": self.epoch,
            "version": self.version,
            "replay_format": self.replay_format,
            "source": self.source,
            "lock": self.lock,
            "files": self.files,
        }


def cache_root() -> Path:
    """The folder holding every runtime (``$HEDONIC_CACHE_DIR``, else the platform's cache folder)."""
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override) / "runtimes"
    import platformdirs

    return Path(platformdirs.user_cache_dir(APP_ID, appauthor=False)) / "runtimes"


def plain_epoch(epoch: int) -> bool:
    """Whether an epoch may name a folder (a whole number from 1)."""
    return type(epoch) is int and 1 <= epoch <= MAX_EPOCH


def plain_version(version: str) -> bool:
    """Whether a version may name a folder (no separator, no dot first, nothing but PEP 440's characters)."""
    return PLAIN_VERSION.fullmatch(version) is not None


def checked_names(epoch: int, version: str) -> None:
    """RuntimeTrouble unless an epoch and a version are plain enough to become parts of a path."""
    if not plain_epoch(epoch):
        raise RuntimeTrouble(f"its rules epoch {epoch} is not one (a whole number from 1 to {MAX_EPOCH})")
    if not plain_version(version):
        raise RuntimeTrouble(
            f"its version {version[:80]!r} is not a plain version "
            "(letters, digits and . + ! _ -, starting with a letter or digit)"
        )


def epoch_folder(epoch: int, root: Path | None = None) -> Path:
    """Where the runtimes of one epoch are kept."""
    checked_names(epoch, "0")
    return (root or cache_root()) / f"epoch-{epoch}"


def runtime_folder(epoch: int, version: str, files: dict[str, str], root: Path | None = None) -> Path:
    """The folder of a runtime: by epoch, then version and a digest of its code."""
    checked_names(epoch, version)
    return epoch_folder(epoch, root) / f"{version}-{code_digest(files)[:12]}"


def code_digest(files: dict[str, str]) -> str:
    """One digest over every file's path and hash."""
    return hashlib.sha256(json.dumps(sorted(files.items())).encode()).hexdigest()


def file_hash(path: Path) -> str:
    """The SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for chunk in iter(lambda: file.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def read_runtime(folder: Path) -> Runtime:
    """The runtime kept in a folder; RuntimeTrouble if its description is missing or damaged."""
    path = folder / DESCRIPTION
    try:
        data = path.read_bytes()[:MAX_DESCRIPTION_BYTES]
        plain = json.loads(data)
    except (OSError, ValueError) as error:
        raise RuntimeTrouble(f"{path}: cannot be read ({error.__class__.__name__})") from None
    return runtime_from(folder, plain)


def runtime_from(folder: Path, plain: Any) -> Runtime:
    """A description checked field by field."""
    where = folder / DESCRIPTION
    if not isinstance(plain, dict):
        raise RuntimeTrouble(f"{where}: should hold a table")
    fields = {"epoch": int, "version": str, "replay_format": int, "source": str, "lock": dict, "files": dict}
    for key, kind in fields.items():
        if type(plain.get(key)) is not kind:
            raise RuntimeTrouble(f"{where}: its {key!r} should be {kind.__name__}")
    for table in ("lock", "files"):
        if not all(type(k) is str and type(v) is str for k, v in plain[table].items()):
            raise RuntimeTrouble(f"{where}: its {table!r} should map text to text")
    try:
        checked_names(plain["epoch"], plain["version"])
    except RuntimeTrouble as trouble:
        raise RuntimeTrouble(f"{where}: {trouble}") from None
    return Runtime(
        folder, plain["epoch"], plain["version"], plain["replay_format"], plain["source"], plain["lock"], plain["files"]
    )


def damage(runtime: Runtime) -> list[str]:
    """What is wrong with a runtime against its manifest (nothing when whole): a listed file
    missing or changed, and anything else in its folder."""
    problems = []
    for relative, digest in sorted(runtime.files.items()):
        path = runtime.code / relative
        if not safe_relative(relative):
            problems.append(f"{relative}: a path outside the runtime")
        elif not path.is_file():
            problems.append(f"{relative}: missing")
        elif file_hash(path) != digest:
            problems.append(f"{relative}: changed")
    return problems + strangers(runtime)


def strangers(runtime: Runtime) -> list[str]:
    """Whatever the runtime's folder holds that its manifest does not list (symbolic links never followed)."""
    listed = {Path(CODE, relative) for relative in runtime.files}
    folders = folders_of(listed)
    found = [f"{folder}: a symbolic link" for folder in (runtime.path, runtime.path.parent) if folder.is_symlink()]
    entries, unlisted = walk(runtime.path)
    for relative, entry in entries:
        try:
            mode = os.lstat(entry).st_mode
            if stat.S_ISLNK(mode):
                found.append(f"{relative.as_posix()}: a symbolic link (to {os.readlink(entry)}), not in its manifest")
            elif stat.S_ISDIR(mode):
                found += [] if relative in folders else [f"{relative.as_posix()}/: a folder not in its manifest"]
            elif relative not in listed and relative != Path(DESCRIPTION):
                kind = "a file" if stat.S_ISREG(mode) else "a special file"
                found.append(f"{relative.as_posix()}: {kind} not in its manifest")
        except OSError as error:
            found.append(f"{relative.as_posix()}: cannot be read ({error.strerror or error})")
    return found + [f"{folder}: cannot be listed" for folder in unlisted]


def folders_of(listed: set[Path]) -> set[Path]:
    """The code folder and every folder holding a listed file (each folder's parents walked up once)."""
    folders = {Path(CODE)}
    for folder in {path.parent for path in listed}:
        while folder != Path(".") and folder not in folders:
            folders.add(folder)
            folder = folder.parent
    return folders


def walk(folder: Path) -> tuple[list[tuple[Path, str]], list[str]]:
    """Everything under a folder (its path under the folder, and its whole path), never following a
    symbolic link, and the folders that could not be listed."""
    found: list[tuple[Path, str]] = []
    unlisted: list[str] = []
    base = str(folder)
    for top, names, files in os.walk(base, followlinks=False, onerror=lambda error: unlisted.append(error.filename)):
        inside = Path(os.path.relpath(top, base))
        found += [(inside / name, os.path.join(top, name)) for name in sorted(names + files)]
    return found, unlisted


def safe_relative(relative: str) -> bool:
    """Whether a recorded path stays inside the runtime's code folder."""
    path = Path(relative)
    return bool(path.parts) and not path.is_absolute() and ".." not in path.parts


def kept_runtimes(root: Path | None = None) -> tuple[list[Runtime], list[str]]:
    """Every runtime kept, by epoch then version, and a line for each folder that is not one."""
    found: list[Runtime] = []
    unreadable: list[str] = []
    base = root or cache_root()
    for folder in sorted(base.glob("epoch-*/*")):
        if not folder.is_dir() or folder.name.startswith("."):
            continue
        try:
            found.append(read_runtime(folder))
        except RuntimeTrouble as trouble:
            unreadable.append(str(trouble))
    return sorted(found, key=lambda r: (r.epoch, version_key(r.version), str(r.path))), unreadable
