"""The recorded games of a data directory: what each one is, and pruning the old ones.

``hedonic replays`` lists every replay (character, seed, turns, how it ended, whether it
still verifies with this version); ``--prune`` removes the ones a rule picks, except
those still needed: the replay of a living save (it can rebuild that save) and any
replay a crash report names (the developers may ask for it).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

from roguelike.core.commands import Mark, Wizard
from roguelike.core.wizard import origin_after
from roguelike.replay.fileformat import SUFFIX, Replay, ReplayError, read_replay
from roguelike.replay.verify import Outcome, verify
from roguelike.saves.listing import MARKS
from roguelike.storage.datadir import DataDir, is_save_id
from roguelike.storage.errors import describe_os_error

DAY = 24 * 60 * 60


@dataclass(frozen=True)
class ReplayEntry:
    """One replay as listed."""

    path: Path
    name: str = ""
    seed: int = 0
    turns: int = 0
    ended: str = ""
    verifies: str = ""
    modified: float = 0.0
    kept_for: str | None = None  # why pruning never removes it
    origin: str | None = None  # "replay" or "wizard": not the character's own game

    @property
    def marked(self) -> str:
        """`` (from replay)`` or `` (wizard mode)``, as the Load list and ``hedonic saves`` mark it."""
        return MARKS.get(self.origin or "", "")

    @property
    def game_id(self) -> str:
        """The id shared with the game's save."""
        return self.path.stem


def replay_files(root: Path) -> list[Path]:
    """Every replay in the data directory's ``replays/``, by name."""
    return DataDir(root).replay_files()


def describe(path: Path, root: Path, protected: dict[Path, str], check: bool = True) -> ReplayEntry:
    """A replay's entry; a damaged one says why in ``ended``."""
    modified, kept_for = path.lstat().st_mtime, protected.get(path.resolve())  # lstat: a dangling link too
    try:
        replay = read_replay(path)
    except ReplayError as error:
        return ReplayEntry(path, ended=f"damaged: {error}", verifies="no", modified=modified, kept_for=kept_for)
    verdict = verify(replay) if check else None
    return ReplayEntry(
        path,
        replay.header.name,
        replay.header.seed,
        replay.final_turn,
        ending(replay.crash is not None, verdict.cause if verdict else None, DataDir(root).save(path.stem).exists()),
        "-" if verdict is None else ("yes" if verdict.outcome is Outcome.MATCHED else "no"),
        modified,
        kept_for,
        origin_of(replay),
    )


def origin_of(replay: Replay) -> str | None:
    """The mark the recorded game ends with, from its developer commands, else the origin its
    header names (a corpus's bot game)."""
    origin = None
    for step in replay.steps:
        if isinstance(step.command, (Mark, Wizard)):
            origin = origin_after(origin, step.command)
    return origin or replay.header.origin


def ending(crashed: bool, cause: str | None, saved: bool) -> str:
    """How a recorded game ended, in a few words."""
    if crashed:
        return "crashed"
    if cause:
        return f"died: {cause}"
    return "still playing (saved)" if saved else "stopped"


def protected_replays(root: Path) -> dict[Path, str]:
    """Replays pruning must keep, with the reason: one that can rebuild a save (the save is there,
    good or damaged, or is gone while its character never died), or one a crash report names."""
    kept: dict[Path, str] = {}
    for path in replay_files(root):
        if DataDir(root).save(path.stem).exists():
            kept[path.resolve()] = "its save is alive"
        elif is_save_id(path.stem) and not DataDir(root).record(path.stem).exists():
            kept[path.resolve()] = "its save is gone and its character never died: it can rebuild the save"
    crashes = DataDir(root).crashes
    for report in sorted(crashes.glob("*.txt")) if crashes.is_dir() else []:
        for line in report.read_text(encoding="utf-8", errors="replace").splitlines():
            kind, _, named = line.partition(": ")
            if kind in ("replay", "game replay") and named.endswith(SUFFIX):
                kept.setdefault(Path(named).resolve(), f"named by {report.name}")
    return kept


Rule = Callable[[list[ReplayEntry]], list[ReplayEntry]]


def older_than(days: float, now: float | None = None) -> Rule:
    """The rule "last written more than ``days`` days ago"."""
    limit = (time.time() if now is None else now) - days * DAY
    return lambda entries: [entry for entry in entries if entry.modified < limit]


def beyond_newest(count: int) -> Rule:
    """The rule "all but the ``count`` most recently written"."""
    return lambda entries: sorted(entries, key=lambda entry: -entry.modified)[count:]


def prune(root: Path, rules: list[Rule]) -> tuple[list[ReplayEntry], list[ReplayEntry]]:
    """Remove the replays every rule picks, never a protected one; (removed, kept though picked)."""
    protected = protected_replays(root)
    entries = [describe(path, root, protected, check=False) for path in replay_files(root)]
    picked = entries
    for rule in rules:  # each rule looks at every replay ("all but the 20 newest" means of them all)
        chosen = {entry.path for entry in rule(entries)}
        picked = [entry for entry in picked if entry.path in chosen]
    removed: list[ReplayEntry] = []
    kept = [entry for entry in picked if entry.kept_for is not None]
    for entry in picked:
        if entry.kept_for is None:
            try:
                entry.path.unlink(missing_ok=True)
                removed.append(entry)
            except OSError as error:  # a folder named like a replay, a read-only folder: say so, go on
                kept.append(replace(entry, kept_for=f"it cannot be removed ({describe_os_error(error)})"))
    return removed, kept


def when(entry: ReplayEntry) -> str:
    """The day a replay was last written."""
    return datetime.fromtimestamp(entry.modified).strftime("%Y-%m-%d")
