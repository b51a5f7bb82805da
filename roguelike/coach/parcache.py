"""Par worked out once: a small file of par bands by seed and rules epoch in the data directory.

``par.json`` holds the latest ``KEEP`` pars made on this machine. A par is looked up by
seed, rules epoch and number of runs, so a par of another epoch is never returned for this
one (its entries stay, for that epoch's game). The file is written whole and atomically; a
file that cannot be read is left as it is, named in :attr:`ParCache.problem`, and not
written over.
"""

from __future__ import annotations

import json
from pathlib import Path

from roguelike.coach.figures import PAR_RUNS
from roguelike.coach.par import Par, par
from roguelike.coach.pool import Progress
from roguelike.core.epoch import RULES_EPOCH
from roguelike.storage.atomic import write_atomic
from roguelike.storage.datadir import DataDir

KEEP = 64  # pars kept; the oldest go first
FORMAT = 1


class ParCache:
    """The data directory's par file."""

    def __init__(self, root: Path) -> None:
        self.path = DataDir(root).par
        self.problem = ""  # why the file could not be read ("" when it could, or is not there)

    def entries(self) -> list[Par]:
        """Every par in the file, oldest first (none, with :attr:`problem` set, if it cannot be read)."""
        try:
            plain = json.loads(self.path.read_text(encoding="utf-8"))
            if not isinstance(plain, dict) or plain.get("format") != FORMAT or not isinstance(plain.get("pars"), list):
                raise ValueError("not a par file of this game")
            return [Par.from_plain(entry) for entry in plain["pars"]]
        except FileNotFoundError:
            return []
        except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as error:
            self.problem = f"{self.path}: cannot be read ({error}); it is left as it is and par is not kept"
            return []

    def find(self, seed: int, runs: int = PAR_RUNS, epoch: int = RULES_EPOCH) -> Par | None:
        """The par kept for ``seed`` under ``epoch`` made of ``runs`` games, if there is one."""
        return next(
            (
                kept
                for kept in reversed(self.entries())
                if kept.seed == seed and kept.epoch == epoch and kept.runs == runs
            ),
            None,
        )

    def keep(self, made: Par) -> bool:
        """Add a par to the file (replacing one of the same seed, epoch and runs); whether it was written."""
        kept = self.entries()
        if self.problem:
            return False
        kept = [old for old in kept if (old.seed, old.epoch, old.runs) != (made.seed, made.epoch, made.runs)]
        plain = {"format": FORMAT, "pars": [entry.to_plain() for entry in [*kept, made][-KEEP:]]}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path, (json.dumps(plain, indent=1, sort_keys=True) + "\n").encode())
        except OSError as error:
            self.problem = f"{self.path}: cannot be written ({error.strerror or error}); par is not kept"
            return False
        return True


def par_for(
    root: Path,
    seed: int,
    runs: int = PAR_RUNS,
    jobs: int | None = None,
    progress: Progress | None = None,
    method: str = "fork",
) -> tuple[Par, ParCache]:
    """This epoch's par for ``seed``: the kept one, else worked out (in workers) and kept; and the cache,
    whose :attr:`~ParCache.problem` says if the file could not be used."""
    cache = ParCache(root)
    found = cache.find(seed, runs)
    if found is None:
        found = par(seed, runs, jobs, progress, method)
        cache.keep(found)
    return found, cache
