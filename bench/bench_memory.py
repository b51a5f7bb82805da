"""Memory over many games in one process: 40 careful games, as ``hedonic balance --jobs 1`` plays them.

Run: ``python -m bench.bench_memory [GAMES]``. Figures go in docs/performance.md ("Memory over 40
careful games", issue 48: at most 160 MiB).

A leak shows as resident memory that keeps growing game after game (tcod's ``dijkstra2d``
grew ~4.4 KB a distance map; issue 27). Each game is played to its end or to ``TURNS`` with
the snapshot, checksum and unsaved recorder of ``hedonic simulate``, then closed; the
resident size is read after every tenth game, and the peak at the end.
"""

from __future__ import annotations

import resource
import sys
import tempfile
from pathlib import Path

from bench.bench_core import unsaved_recording
from bench.common import figure
from roguelike.bots.headless import play_bot
from roguelike.bots.registry import make_bot
from roguelike.core.game import Game
from roguelike.core.session import Session

GAMES = 40
TURNS = 5_000  # careful's median life is about 1,760 turns; a game still alive stops here
EVERY = 10  # games between readings


def resident_mib() -> float:
    """This process's resident memory now, in MiB."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() / 2**20


def peak_mib() -> float:
    """This process's peak resident memory so far, in MiB (Linux gives ru_maxrss in KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def play(folder: Path, seed: int) -> int:
    """One careful game to its end (or TURNS), recorded as simulate records it; its turns."""
    game = Game.new(seed, "Bot")
    session = Session(game, unsaved_recording(folder, game))
    play_bot(session, TURNS, make_bot("careful"))
    turns = game.state.turn
    session.close()
    game.close()
    return turns


def main() -> None:
    """Play the games, reading the resident size as they go."""
    games = int(sys.argv[1]) if len(sys.argv) > 1 else GAMES
    turns = 0
    with tempfile.TemporaryDirectory() as folder:
        print(f"before the first game: {resident_mib():.1f} MiB resident")
        for seed in range(1, games + 1):
            turns += play(Path(folder), seed)
            if seed % EVERY == 0 or seed == 1:
                print(f"after {seed} games ({turns:,} turns): {resident_mib():.1f} MiB resident")
    figure("peak resident memory", peak_mib(), "MiB")
    figure("resident memory after the games", resident_mib(), "MiB")


if __name__ == "__main__":
    main()
