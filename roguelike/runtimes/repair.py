"""Rebuilding a damaged runtime from where it came from, when that is still at hand."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from roguelike.runtimes.store import Runtime, RuntimeTrouble, damage


def repaired(runtime: Runtime, tell: Callable[[str], None]) -> Runtime | None:
    """The runtime made again from its source (the damaged folder removed), or None if it cannot be."""
    from roguelike.runtimes.sources import add_source

    source = rebuild_source(runtime)
    if source is None:
        tell(f"it cannot be rebuilt ({runtime.source} is not at hand): add it again with 'hedonic runtimes --add'")
        return None
    shutil.rmtree(runtime.path, ignore_errors=True)
    try:
        fixed = add_source(source)
    except RuntimeTrouble as trouble:
        tell(f"rebuilding it failed: {trouble}")
        return None
    if fixed.epoch != runtime.epoch or damage(fixed):
        return None
    tell(f"rebuilt it from {source}")
    return fixed


def rebuild_source(runtime: Runtime) -> str | None:
    """What ``hedonic runtimes --add`` would take to make this runtime again (None if it is gone)."""
    kind, _, rest = runtime.source.partition(" ")
    if kind == "installed":
        from roguelike import __version__
        from roguelike.core.epoch import RULES_EPOCH
        from roguelike.runtimes.keep import own_source

        same = rest == __version__ and runtime.epoch == RULES_EPOCH
        return str(own_source()) if same else None
    if kind == "git":
        return rest if git_source_at_hand(rest) else None
    return rest if kind in ("wheel", "folder") and Path(rest).exists() else None


def git_source_at_hand(source: str) -> bool:
    """Whether a ``REVISION@REPOSITORY`` source's repository still exists."""
    _, _, repository = source.rpartition("@")
    return bool(repository) and Path(repository).exists()
