"""Which kept runtimes the replays on this machine still need, and removing the others."""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from pathlib import Path

from roguelike import __version__
from roguelike.core.epoch import RULES_EPOCH
from roguelike.ground.versions import version_key
from roguelike.runtimes.store import Runtime


def needed_formats(replays: Iterable[Path]) -> dict[int, int]:
    """Each rules epoch the replays were recorded under, with the newest replay format among them."""
    from roguelike.replay.fileformat import ReplayError, read_header

    needs: dict[int, int] = {}
    for path in replays:
        try:
            replay_format, header = read_header(path)
        except ReplayError:
            continue
        needs[header.epoch] = max(needs.get(header.epoch, 0), replay_format)
    return needs


def removable(kept: list[Runtime], needs: dict[int, int]) -> list[Runtime]:
    """The runtimes no replay needs: for each needed epoch the newest one that reads its replays
    stays, and so does this game's own; every other runtime goes."""
    staying = {r.path for r in kept if r.epoch == RULES_EPOCH and r.version == __version__}
    for epoch, replay_format in needs.items():
        fitting = [r for r in kept if r.epoch == epoch and r.replay_format >= replay_format]
        if fitting:
            staying.add(max(fitting, key=lambda r: version_key(r.version)).path)
    return [r for r in kept if r.path not in staying]


def remove(runtime: Runtime) -> None:
    """Delete a runtime's folder."""
    shutil.rmtree(runtime.path)
