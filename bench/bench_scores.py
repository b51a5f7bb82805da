"""What provable scores cost: a game proved and ranked after death, the hall listed from its
cache, a score file imported.

1. a 1,042-command bot game recorded to its death, then proved (re-simulated, scored, feats judged) and
   put in the hall, as the death screen would rank it: the wall time from death to rank;
2. the hall of a data directory with 1,000 finished games whose proofs are all cached:
   hashing every replay and reading the cache;
3. ``import`` of a corpus game (``replays/death-depression.replay``, 2,173 commands at rules epoch 16).

Each figure is the median of 5 runs. Run: ``python -m bench.bench_scores``; figures go in
docs/performance.md ("Scores").
"""

from __future__ import annotations

import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from roguelike.bots.headless import play_bot
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.replay.fileformat import read_replay, replay_bytes
from roguelike.replay.recorder import recording_observers
from roguelike.scores.hall import ProofCache, file_digest, hall
from roguelike.scores.proof import prove_file
from roguelike.scores.scorefile import import_file
from roguelike.scores.workers import prove_all

ROOT = Path(__file__).resolve().parent.parent
RUNS = 5
HALL_SIZE = 1000


def median_of(run: Callable[[], object]) -> float:
    """The median wall time of RUNS calls, in seconds."""
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def thousand_commands(root: Path) -> Path:
    """A recorded bot game to its death: seed 57's default bot dies after 1,042 commands (turn 644, rules epoch 16)."""
    game = Game.new(57, "Ann")
    session = Session(game, recording_observers(root, game, "ann"))
    play_bot(session, 5000)
    session.close()
    return root / "replays" / "ann.replay"


def big_hall(root: Path) -> None:
    """1,000 finished games' replays, each proof already cached."""
    replay = read_replay(ROOT / "replays" / "death-overdose.replay")
    folder = root / "replays"
    folder.mkdir(parents=True)
    for number in range(HALL_SIZE):
        header = replace(replay.header, game_id=f"20261126-000000-{number:06x}")
        (folder / f"{header.game_id}.replay").write_bytes(replay_bytes(replace(replay, header=header)))
    proof = prove_file(folder / f"{replace(replay.header, game_id='20261126-000000-000000').game_id}.replay")
    cache = ProofCache(root)
    cache.keep({file_digest(path): proof for path in sorted(folder.glob("*.replay"))})
    cache.close()


def main() -> None:
    """Print the three figures."""
    with tempfile.TemporaryDirectory(prefix="bench-scores-") as scratch:
        root = Path(scratch)
        path = thousand_commands(root / "one")
        commands = len(read_replay(path).steps)

        def rank() -> None:
            (root / "one" / "hall.sqlite").unlink(missing_ok=True)
            hall(root / "one", prove_all)

        print(f"proved and ranked, {commands} commands: {median_of(rank):.2f} s")
        big_hall(root / "hall")
        print(f"hall of {HALL_SIZE} cached games listed: {median_of(lambda: hall(root / 'hall', None)):.2f} s")

        deep = ROOT / "replays" / "death-depression.replay"

        def imported() -> None:
            shutil.rmtree(root / "importing", ignore_errors=True)
            import_file(root / "importing", deep)

        print(f"import of a {len(read_replay(deep).steps):,}-command score file: {median_of(imported):.2f} s")


if __name__ == "__main__":
    main()
