"""Making runtimes: a copy of a game's code, from this installation, a folder, a wheel or git.

The epoch, version and newest replay format of the code are read from its files as text
(never by running them), the files are copied with their hashes and the lock, and the
folder appears whole or not at all (built aside, then renamed into place). A file another
runtime of the cache keeps alike, checked by its hash, is a hard link to that one.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path, PurePosixPath

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
    kept_runtimes,
    read_runtime,
    runtime_folder,
    safe_relative,
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
    return described(lambda relative: read_text(source, relative), str(source))


def described(text: Callable[[str], str], where: str) -> tuple[int, str, int]:
    """The rules epoch, game version and newest replay format of code whose files ``text`` reads."""
    epoch = EPOCH_LINE.search(text("roguelike/core/epoch.py"))
    version = VERSION_LINE.search(text("roguelike/__init__.py"))
    replay_format = FORMAT_LINE.search(text("roguelike/replay/fileformat.py"))
    if version is None or replay_format is None:
        raise RuntimeTrouble(f"{where}: its version or replay format cannot be read")
    number = epoch_number(epoch.group(1)) if epoch else FIRST_EPOCH
    try:
        checked_names(number, version.group(1))
    except RuntimeTrouble as trouble:
        raise RuntimeTrouble(f"{where}: {trouble}") from None
    return number, version.group(1), int(replay_format.group(1))


def epoch_number(digits: str) -> int:
    """An epoch read as text (0 when too long to be one, which no check lets pass)."""
    return int(digits) if len(digits) <= 9 else 0


def build_runtime(source: Path, origin: str, lock: dict[str, str] | None = None, root: Path | None = None) -> Runtime:
    """Keep the code under ``source`` as a runtime (the one already kept if it is the same code)."""
    listed = list(code_files(source))
    code = describe_code(source)
    return kept(runtime_of(code, {relative: file_hash(path) for relative, path in listed}, origin, lock, root), listed)


def keep_files(
    contents: dict[str, bytes], origin: str, lock: dict[str, str] | None = None, root: Path | None = None
) -> Runtime:
    """Keep code given as its files' bytes (path under the code folder -> bytes) as a runtime (the one already
    kept if it is the same code, and then nothing is written)."""
    contents = {relative: data for relative, data in contents.items() if wanted(relative)}
    if "roguelike/__init__.py" not in contents:
        raise RuntimeTrouble(f"{origin}: holds no game (no roguelike/__init__.py)")
    code = described(lambda relative: decoded(contents.get(relative, b"")), origin)
    files = {relative: hashlib.sha256(data).hexdigest() for relative, data in contents.items()}
    return kept(runtime_of(code, files, origin, lock, root), sorted(contents.items()))


def runtime_of(
    code: tuple[int, str, int], files: dict[str, str], origin: str, lock: dict[str, str] | None, root: Path | None
) -> Runtime:
    """The runtime of described code (its epoch, version and replay format) and its files' hashes."""
    epoch, version, replay_format = code
    folder = runtime_folder(epoch, version, files, root)
    return Runtime(folder, epoch, version, replay_format, origin, lock if lock is not None else current_lock(), files)


def wanted(relative: str) -> bool:
    """Whether a file of the game's packages belongs in a runtime (no bytecode, nothing outside the packages)."""
    parts = PurePosixPath(relative).parts
    inside = bool(parts) and parts[0] in PACKAGES and ".." not in parts
    return inside and not set(parts) & set(SKIPPED) and not relative.endswith(SKIPPED_SUFFIXES)


def decoded(data: bytes) -> str:
    """A file's bytes as text ('' when they are not UTF-8, as for a file that cannot be read)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return ""


def kept(runtime: Runtime, listed: Sequence[tuple[str, Path | bytes]]) -> Runtime:
    """The runtime already kept in its folder, else this one, written there."""
    if (runtime.path / DESCRIPTION).is_file():
        return read_runtime(runtime.path)
    write_runtime(runtime, listed)
    return runtime


def write_runtime(runtime: Runtime, listed: Sequence[tuple[str, Path | bytes]]) -> None:
    """Write (or copy) the files beside the runtime's folder, then rename them into place."""
    import json

    runtime.path.parent.mkdir(parents=True, exist_ok=True)
    aside = Path(tempfile.mkdtemp(prefix=".building-", dir=runtime.path.parent))
    try:
        shared = kept_files(runtime.path.parents[1], runtime.path)
        root, real = Path(os.path.realpath(runtime.path.parents[1])), dict[Path, Path]()
        for relative, source in listed:
            target = aside / CODE / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            if linked(shared.get(runtime.files[relative]), runtime.files[relative], target, root, real):
                continue
            if isinstance(source, bytes):
                target.write_bytes(source)
            else:
                shutil.copyfile(source, target)
        (aside / DESCRIPTION).write_text(json.dumps(runtime.to_plain(), indent=1, sort_keys=True), encoding="utf-8")
        os.replace(aside, runtime.path)
    except OSError:
        if not (runtime.path / DESCRIPTION).is_file():  # another process may have kept the same code meanwhile
            raise
    finally:
        shutil.rmtree(aside, ignore_errors=True)


def kept_files(root: Path, leaving_out: Path) -> dict[str, Path]:
    """A file of each content the other runtimes under ``root`` keep, by the SHA-256 their manifests give."""
    found: dict[str, Path] = {}
    for other in kept_runtimes(root)[0]:
        if other.path != leaving_out:
            for relative, digest in other.files.items():
                if safe_relative(relative):
                    found.setdefault(digest, other.code / relative)
    return found


def linked(kept: Path | None, digest: str, target: Path, root: Path, real: dict[Path, Path]) -> bool:
    """Make ``target`` a hard link to a file another runtime keeps, when that is a plain file inside the
    cache ``root`` (reached through no link out of it: ``real`` keeps where each folder asked about really is)
    whose bytes still have the hash (a changed one is never shared); False when it cannot be, and then nothing
    is made.

    Runtimes of a cache share the files their epochs' code has alike (of 4,205 files in the 15 runtimes
    of this repository's history, 977 differ): writing a file costs a file system far more than a link."""
    if kept is None:
        return False
    try:
        if kept.parent not in real:  # where its folder really is, every link on the way followed
            real[kept.parent] = Path(os.path.realpath(kept.parent))
        inside = real[kept.parent].is_relative_to(root)
        if not inside or not stat.S_ISREG(os.lstat(kept).st_mode) or file_hash(kept) != digest:
            return False
        os.link(kept, target, follow_symlinks=False)
    except (OSError, NotImplementedError):
        return False
    return True


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
