"""What resuming a saved game costs, now that its whole replay is verified up to the save.

Run: ``python -m bench.bench_resume``. Figures go in docs/performance.md ("Resuming").
Each corpus replay is made into a save near its end (``hedonic replay --save-at``'s
``save_as``), which is then resumed as the title's Resume does (catching up, the
first-turn check, the replay's verification, the recorder): CPU time, median of a few
runs, with the replay's verification alone beside it and the rate it goes at, from which
a longer game's resume follows (the verification grows with the turns, the rest does not).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from bench.common import ROOT, figure, machine, rate
from roguelike.cli.saves import games_for
from roguelike.replay.fileformat import read_replay
from roguelike.replay.tosave import save_as
from roguelike.replay.verify import first_divergence

RUNS = 5
FILES = ("death-depression.replay", "floors.replay")
BEFORE_THE_END = 10  # turns before the replay's last (a death is no save)


def resumed_once(root: Path, save: Path) -> float:
    """CPU seconds for one resume (the session closed again untimed)."""
    start = time.process_time()
    session = games_for(argparse.Namespace(data_dir=str(root), seed=None)).resume(save)
    seconds = time.process_time() - start
    session.close()
    return seconds


def verified_once(path: Path) -> float:
    """CPU seconds to verify a replay whole."""
    replay = read_replay(path)
    start = time.process_time()
    assert first_divergence(replay) is None
    return time.process_time() - start


def main() -> None:
    """Print, for each corpus game, the resume's time and the verification's share."""
    with tempfile.TemporaryDirectory() as folder:
        print(machine(Path(folder)))
        for name in FILES:
            root = Path(folder) / name
            replay = read_replay(ROOT / "replays" / name)
            save, turn = save_as(replay, root, replay.final_turn - BEFORE_THE_END, "Bench")
            own = next((root / "replays").glob("*.replay"))
            resume = statistics.median(resumed_once(root, save) for _ in range(RUNS))
            check = statistics.median(verified_once(own) for _ in range(RUNS))
            figure(
                f"resume at turn {turn} of {name}",
                resume,
                "s CPU",
                f"verifying its replay alone {check:.2f} s, {rate(turn, check):,.0f} turns/s",
            )


if __name__ == "__main__":
    main()
