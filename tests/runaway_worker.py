"""``hedonic serve worker`` whose prover runs away on one replay (named by its SHA-256), as a hostile file would.

Run as ``python tests/runaway_worker.py QUEUE_URL EPOCH SHA256``: the real worker (RQ's, forking
a work-horse per job, through ``roguelike.server.serving.run_worker``) with the game's prover
replaced, in this process only, by one that spins for ever on that replay and proves any
other as usual. The score server's tests use it to show a runaway killed in the work-horse
itself, and a worker killed with ``kill -9`` in the middle of a job.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

import roguelike.scores.proof as proof
from roguelike.runtimes.dispatch import Options
from roguelike.server.serving import run_worker


def main() -> int:
    """Start the worker with the runaway prover."""
    url, epoch, runaway = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    honest = proof.prove_file

    def prove(path: Path, options: Options | None = None) -> proof.Proof:
        if hashlib.sha256(path.read_bytes()).hexdigest() == runaway:
            # It spins as a runaway does, but gives way to the tests beside it: the limits that end it count
            # wall-clock time, and a spinner at full weight took up to 30 s of a core from the rest of the suite.
            os.nice(19)
            while True:
                pass
        return honest(path, options)

    proof.prove_file = prove
    return run_worker(url, epoch, None, False)


if __name__ == "__main__":
    raise SystemExit(main())
