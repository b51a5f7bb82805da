"""Where ``hedonic runtimes --add`` takes a runtime's code from: a wheel, a folder, or git.

A git revision is one of the repository the command runs in (developers and CI make the
runtimes of past epochs from the project's own history: :func:`past_epochs`).
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path

from roguelike.ground.unzip import METHODS, MemberTooLarge, ZipRefused, capped
from roguelike.runtimes.keep import EPOCH_LINE, build_runtime, epoch_number, keep_files
from roguelike.runtimes.pins import current_lock
from roguelike.runtimes.store import PACKAGES, Runtime, RuntimeTrouble

EPOCH_FILE = "roguelike/core/epoch.py"
REVISION = re.compile(r"[A-Za-z0-9_./~^@{}-]{1,200}")
MAX_CODE_BYTES = 64 * 1024 * 1024  # the game's packages are a few MB: a wheel holding more is no game's


def add_source(source: str, repository: Path | None = None) -> Runtime:
    """Keep the code of a wheel, a folder holding the game's packages, or a git revision."""
    path = Path(source)
    if path.is_file() and path.suffix == ".whl":
        return from_wheel(path)
    if path.is_dir():
        return build_runtime(path, f"folder {path.resolve()}")
    if path.exists():
        raise RuntimeTrouble(f"{source}: neither a wheel (.whl) nor a folder")
    return from_git(source, repository or Path.cwd())


def from_wheel(wheel: Path, lock: dict[str, str] | None = None, root: Path | None = None) -> Runtime:
    """Unpack the game's packages from a wheel and keep them (under another cache root if given)."""
    with tempfile.TemporaryDirectory(prefix="hedonic-wheel-") as folder:
        try:
            with zipfile.ZipFile(wheel) as archive:
                unpack_wheel(archive, Path(folder))
        except MemberTooLarge:
            raise RuntimeTrouble(
                f"{wheel}: the game's files in it unpack to more than {MAX_CODE_BYTES} bytes"
            ) from None
        except (OSError, zipfile.BadZipFile, zlib.error, EOFError, ZipRefused) as error:
            raise RuntimeTrouble(f"{wheel}: not a readable wheel ({error})") from None
        return build_runtime(Path(folder), f"wheel {wheel.resolve()}", lock, root)


def unpack_wheel(archive: zipfile.ZipFile, folder: Path) -> None:
    """Write the game's packages out of a wheel as plain files, a chunk at a time and never past
    :data:`MAX_CODE_BYTES` in all, whatever the wheel says of their sizes (a bomb fills no disk)."""
    left = MAX_CODE_BYTES
    for info in archive.infolist():
        name = info.filename
        if info.is_dir() or name.split("/")[0] not in PACKAGES or not safe_member(name):
            continue
        if info.compress_type not in METHODS:
            raise ZipRefused(f"{name} is compressed with method {info.compress_type}: only stored or deflated")
        with archive.open(info) as member:
            data = capped(member, name, left)
        left -= len(data)
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


def safe_member(name: str) -> bool:
    """Whether an archive member stays inside the folder it is unpacked in."""
    parts = Path(name).parts
    return not Path(name).is_absolute() and ".." not in parts


def git(repository: Path, *args: str) -> str:
    """A git command's output; RuntimeTrouble if it fails."""
    return git_bytes(repository, *args).decode(errors="replace")


def git_bytes(repository: Path, *args: str) -> bytes:
    """A git command's output as bytes; RuntimeTrouble if it fails."""
    try:
        done = subprocess.run(["git", "-C", str(repository), *args], capture_output=True, check=False)
    except OSError as error:
        raise RuntimeTrouble(f"git cannot run here ({error.strerror or error})") from None
    if done.returncode != 0:
        last = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["failed"]
        raise RuntimeTrouble(f"git {args[0]}: {last[0]}")
    return done.stdout


def toplevel(repository: Path) -> Path:
    """The top folder of the git checkout holding ``repository``."""
    return Path(git(repository, "rev-parse", "--show-toplevel").strip())


class GitCode:
    """The game's files at commits of one repository, read through one ``git cat-file --batch`` that
    lives as long as this: a file several commits hold alike is read once."""

    def __init__(self, top: Path) -> None:
        self.top = top
        self.blobs: dict[str, bytes] = {}
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> GitCode:
        return self

    def __exit__(self, *failure: object) -> None:
        self.close()

    def files(self, commit: str) -> dict[str, bytes]:
        """Every plain file of the game's packages at a commit (path -> bytes); links and submodules left out,
        as ``git archive`` would give them and a runtime never keeps them."""
        found: dict[str, bytes] = {}
        for entry in git_bytes(self.top, "ls-tree", "-r", "-z", commit, "--", *PACKAGES).split(b"\0"):
            meta, _, path = entry.partition(b"\t")
            mode, kind, oid = (meta.decode().split() + ["", "", ""])[:3]
            if kind == "blob" and mode in ("100644", "100755"):
                found[os.fsdecode(path)] = self.blob(oid)
        return found

    def blob(self, oid: str) -> bytes:
        """A file's bytes by its object id."""
        if oid not in self.blobs:
            found = self.read(oid)
            if found is None:
                raise RuntimeTrouble(f"git cat-file: {oid} is missing from {self.top}")
            self.blobs[oid] = found[1]
        return self.blobs[oid]

    def epoch_at(self, commit: str) -> int:
        """The rules epoch of a commit (1 before the epoch was declared)."""
        found = self.read(f"{commit}:{EPOCH_FILE}")
        line = EPOCH_LINE.search(found[1].decode(errors="replace")) if found else None
        return epoch_number(line.group(1)) if line else 1

    def parent(self, commit: str) -> str:
        """A commit's first parent."""
        found = self.read(f"{commit}^")
        if found is None:
            raise RuntimeTrouble(f"git: {commit[:12]} has no parent")
        return found[0]

    def read(self, name: str) -> tuple[str, bytes] | None:
        """An object by name (an id, ``commit:path``, ``commit^``): its id and bytes; None when there is none."""
        if "\n" in name:
            return None
        process = self.started()
        assert process.stdin is not None and process.stdout is not None
        try:
            process.stdin.write(name.encode() + b"\n")
            process.stdin.flush()
        except OSError:
            raise RuntimeTrouble(f"git cat-file ended early in {self.top}") from None
        header = process.stdout.readline()
        fields = header.split()
        if not header.endswith(b"\n") or not fields:
            raise RuntimeTrouble(f"git cat-file ended early in {self.top}")
        if len(fields) != 3 or not fields[2].isdigit():
            return None  # "<name> missing", or ambiguous
        data = process.stdout.read(int(fields[2]))
        if len(data) != int(fields[2]) or process.stdout.read(1) != b"\n":
            raise RuntimeTrouble(f"git cat-file ended early in {self.top}")
        return fields[0].decode(), data

    def started(self) -> subprocess.Popen[bytes]:
        """The ``git cat-file --batch`` process, started when first needed."""
        if self.process is None:
            command = ["git", "-C", str(self.top), "cat-file", "--batch"]
            try:
                self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            except OSError as error:
                raise RuntimeTrouble(f"git cannot run here ({error.strerror or error})") from None
        return self.process

    def close(self) -> None:
        """End the ``git cat-file`` process."""
        if self.process is not None:
            for stream in (self.process.stdin, self.process.stdout):
                if stream is not None:
                    stream.close()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None


def from_git(revision: str, repository: Path, lock: dict[str, str] | None = None, root: Path | None = None) -> Runtime:
    """Keep the game's packages as they were at a revision of the repository (under another cache root if given)."""
    if not REVISION.fullmatch(revision) or revision.startswith("-"):
        raise RuntimeTrouble(f"{revision}: no such file, and not a git revision")
    top = toplevel(repository)
    commit = git(top, "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}").strip()
    with GitCode(top) as code:
        return keep_files(code.files(commit), f"git {commit}@{top}", lock, root)


def from_commits(commits: list[str], repository: Path) -> Iterator[tuple[str, Runtime | RuntimeTrouble]]:
    """Keep the code of each commit, each with its runtime or why it could not be kept: one ``git
    cat-file`` reads them all (each file once, whichever commits hold it), the lock is read once."""
    top = toplevel(repository)
    lock = current_lock()
    with GitCode(top) as code:
        for commit in commits:
            try:
                yield commit, keep_files(code.files(commit), f"git {commit}@{top}", lock)
            except RuntimeTrouble as trouble:
                yield commit, trouble


def past_epochs(repository: Path) -> dict[int, str]:
    """Each earlier rules epoch of the repository's history and its last commit (the parent of its bump)."""
    top = toplevel(repository)
    touched = git(top, "log", "--first-parent", "--reverse", "--format=%H", "--", EPOCH_FILE).split()
    last: dict[int, str] = {}
    epoch = 1
    with GitCode(top) as code:
        for commit in touched:
            now = code.epoch_at(commit)
            if now != epoch:
                last[epoch] = code.parent(commit)
                epoch = now
    return last
