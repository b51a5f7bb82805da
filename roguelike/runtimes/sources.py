"""Where ``hedonic runtimes --add`` takes a runtime's code from: a wheel, a folder, or git.

A git revision is one of the repository the command runs in (developers and CI make the
runtimes of past epochs from the project's own history: :func:`past_epochs`).
"""

from __future__ import annotations

import re
import subprocess
import tarfile
import tempfile
import zipfile
import zlib
from pathlib import Path

from roguelike.ground.unzip import METHODS, MemberTooLarge, ZipRefused, capped
from roguelike.runtimes.keep import EPOCH_LINE, build_runtime, epoch_number
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
    try:
        done = subprocess.run(["git", "-C", str(repository), *args], capture_output=True, check=False)
    except OSError as error:
        raise RuntimeTrouble(f"git cannot run here ({error.strerror or error})") from None
    if done.returncode != 0:
        last = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["failed"]
        raise RuntimeTrouble(f"git {args[0]}: {last[0]}")
    return done.stdout.decode(errors="replace")


def from_git(revision: str, repository: Path, lock: dict[str, str] | None = None, root: Path | None = None) -> Runtime:
    """Keep the game's packages as they were at a revision of the repository (under another cache root if given)."""
    if not REVISION.fullmatch(revision) or revision.startswith("-"):
        raise RuntimeTrouble(f"{revision}: no such file, and not a git revision")
    top = Path(git(repository, "rev-parse", "--show-toplevel").strip())
    commit = git(top, "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}").strip()
    present = [p for p in PACKAGES if git(top, "ls-tree", "--name-only", commit, p).strip()]
    archive = subprocess.run(
        ["git", "-C", str(top), "archive", "--format=tar", commit, *present], capture_output=True, check=False
    )
    if archive.returncode != 0:
        raise RuntimeTrouble(f"git archive {commit[:12]}: {archive.stderr.decode(errors='replace').strip()}")
    with tempfile.TemporaryDirectory(prefix="hedonic-git-") as folder:
        unpack_tar(archive.stdout, Path(folder))
        return build_runtime(Path(folder), f"git {commit}@{top}", lock, root)


def unpack_tar(data: bytes, folder: Path) -> None:
    """Unpack git's tar of plain files and folders."""
    import io

    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        members = [m for m in archive.getmembers() if (m.isfile() or m.isdir()) and safe_member(m.name)]
        archive.extractall(folder, members)


def epoch_at(repository: Path, commit: str) -> int:
    """The rules epoch of a revision (1 before the epoch was declared)."""
    try:
        text = git(repository, "show", f"{commit}:{EPOCH_FILE}")
    except RuntimeTrouble:
        return 1
    found = EPOCH_LINE.search(text)
    return epoch_number(found.group(1)) if found else 1


def past_epochs(repository: Path) -> dict[int, str]:
    """Each earlier rules epoch of the repository's history and its last commit (the parent of its bump)."""
    top = Path(git(repository, "rev-parse", "--show-toplevel").strip())
    touched = git(top, "log", "--first-parent", "--reverse", "--format=%H", "--", EPOCH_FILE).split()
    last: dict[int, str] = {}
    epoch = 1
    for commit in touched:
        now = epoch_at(top, commit)
        if now != epoch:
            last[epoch] = git(top, "rev-parse", f"{commit}^").strip()
            epoch = now
    return last
