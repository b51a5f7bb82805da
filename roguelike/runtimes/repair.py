"""Rebuilding a damaged runtime: made again aside, then put in its place; the damaged copy is
moved to the cache's ``damaged/`` folder (kept, never deleted) and never used.

A runtime is made again from where it came from when that is at hand (this installation, the
git repository it was taken from, the wheel or the folder), else from its own files when every
one of them still matches its hash (something was only added to it). When nothing can make it
again it stays where it is, named as damaged, and is not used.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from roguelike.runtimes.store import (
    DESCRIPTION,
    Runtime,
    RuntimeTrouble,
    cache_root,
    damage,
    file_hash,
    read_runtime,
    runtime_folder,
    safe_relative,
)

DAMAGED = "damaged"  # under the cache folder: damaged runtimes moved aside, by epoch
Tell = Callable[[str], None]
Build = Callable[[Path], Runtime]  # makes the runtime again under the cache root it is given


def repaired(runtime: Runtime, tell: Tell) -> Runtime | None:
    """The runtime made again and put in place of the damaged one (moved aside), or None if it cannot be."""
    ways = rebuilders(runtime)
    if not ways:
        tell(f"it cannot be rebuilt ({runtime.source} is not at hand): add it again with 'hedonic runtimes --add'")
    for origin, build in ways:
        staging = Path(tempfile.mkdtemp(prefix=".rebuilding-", dir=cache_root()))
        try:
            fresh = build(staging)
            if fresh.epoch != runtime.epoch:
                raise RuntimeTrouble(f"it holds the code of another epoch ({fresh.epoch})")
            return swapped(runtime, fresh, origin, tell)
        except RuntimeTrouble as trouble:
            tell(f"rebuilding it from {origin} failed: {trouble}")
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return None


def rebuilders(runtime: Runtime) -> list[tuple[str, Build]]:
    """The ways at hand to make a runtime again, best first: where it came from, then its own whole files."""
    from roguelike import __version__
    from roguelike.core.epoch import RULES_EPOCH
    from roguelike.runtimes.keep import build_runtime, own_source
    from roguelike.runtimes.sources import from_git, from_wheel

    kind, _, rest = runtime.source.partition(" ")
    lock = runtime.lock
    ways: list[tuple[str, Build]] = []
    if kind == "installed" and rest == __version__ and runtime.epoch == RULES_EPOCH:
        ways.append((str(own_source()), lambda root: build_runtime(own_source(), runtime.source, lock, root)))
    elif kind == "git":
        revision, _, repository = rest.partition("@")  # a commit id holds no '@'; the repository's path may
        if revision and Path(repository).is_dir():
            ways.append(
                (f"git {revision} of {repository}", lambda root: from_git(revision, Path(repository), lock, root))
            )
    elif kind == "wheel" and Path(rest).is_file():
        ways.append((rest, lambda root: from_wheel(Path(rest), lock, root)))
    elif kind == "folder" and Path(rest).is_dir():
        ways.append((rest, lambda root: build_runtime(Path(rest), runtime.source, lock, root)))
    if own_files_whole(runtime):
        ways.append(
            (f"its own files, which match their hashes ({runtime.path})", lambda root: from_own_files(runtime, root))
        )
    return ways


def own_files_whole(runtime: Runtime) -> bool:
    """Whether every file the runtime's manifest lists is there with its bytes (only something was added)."""
    return bool(runtime.files) and all(
        safe_relative(relative) and (runtime.code / relative).is_file() and file_hash(runtime.code / relative) == digest
        for relative, digest in runtime.files.items()
    )


def from_own_files(runtime: Runtime, root: Path) -> Runtime:
    """The runtime made again from the files its manifest lists, each checked against its hash, and nothing else."""
    from roguelike.runtimes.keep import build_runtime

    with tempfile.TemporaryDirectory(prefix="hedonic-own-") as folder:
        for relative, digest in runtime.files.items():
            data = (runtime.code / relative).read_bytes()
            if hashlib.sha256(data).hexdigest() != digest:
                raise RuntimeTrouble(f"{relative}: changed meanwhile")
            target = Path(folder, relative)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        return build_runtime(Path(folder), runtime.source, runtime.lock, root)


def swapped(damaged: Runtime, fresh: Runtime, origin: str, tell: Tell) -> Runtime:
    """Move the damaged runtime aside and the fresh one (made under a staging root) into its place."""
    try:
        aside = move_aside(damaged)
    except OSError as error:
        raise RuntimeTrouble(f"the damaged copy cannot be moved aside ({error}), so it stays, unused") from None
    tell(f"moved the damaged copy to {aside}")
    final = runtime_folder(fresh.epoch, fresh.version, fresh.files)
    try:
        final.parent.mkdir(parents=True, exist_ok=True)
        os.rename(fresh.path, final)
    except OSError as error:
        if not (final / DESCRIPTION).is_file():  # else another process kept the same code meanwhile
            raise RuntimeTrouble(f"{final}: cannot be written ({error})") from None
    rebuilt = read_runtime(final)
    if damage(rebuilt):
        raise RuntimeTrouble(f"{final} is damaged too")
    tell(f"rebuilt it from {origin}")
    return rebuilt


def move_aside(runtime: Runtime) -> Path:
    """Move a runtime's folder to ``damaged/epoch-N/`` under the cache, under a name of its own; where it went."""
    base = cache_root() / DAMAGED / runtime.path.parent.name
    base.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for attempt in range(100):
        target = base / (f"{runtime.path.name}-{stamp}" + (f"-{attempt}" if attempt else ""))
        if not os.path.lexists(target):
            os.rename(runtime.path, target)
            return target
    raise OSError(f"{base} holds too many damaged copies of {runtime.path.name}")


def damaged_copies() -> list[Path]:
    """The damaged runtimes moved aside so far."""
    return sorted(path for path in (cache_root() / DAMAGED).glob("*/*") if path.is_dir())
