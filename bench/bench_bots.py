"""Every built-in bot's share of ``hedonic simulate``: its choice of a command, alone.

Run: ``python -m bench.bench_bots``. Figures go in docs/performance.md ("Core").

Each bot plays whole games of seeds 1-12 (each to its end or to TURNS), as ``hedonic
simulate --bot NAME`` does, and only its choices are timed (CPU time), from a fresh bot
per game, so its kept maps start empty as in a real run. Left out: the rules, the
snapshot and the recorder that a simulate step also pays (``bench_core`` times those),
and the command's start-up.
"""

from __future__ import annotations

import time

from bench.common import figure
from roguelike.bots.registry import BOTS
from roguelike.core.game import Game

SEEDS = range(1, 13)
TURNS = 2_000  # a game stops here if it is still alive
ACTIONS_PER_TURN = 8  # as in headless.play_bot: a bot bumping into nothing cannot loop forever


def bot_time(name: str) -> tuple[int, float]:
    """Commands chosen and CPU seconds spent choosing them, over every seed."""
    commands, seconds = 0, 0.0
    for seed in SEEDS:
        game, bot = Game.new(seed, "Bot"), BOTS[name]()
        budget = TURNS * ACTIONS_PER_TURN
        while not game.state.game_over and game.state.turn < TURNS and budget > 0:
            start = time.process_time()
            command = bot.choose(game)
            seconds += time.process_time() - start
            game.apply(command)
            commands, budget = commands + 1, budget - 1
        game.close()
    assert commands > len(SEEDS) * 10, "the bots must be timed playing, not dead on arrival"
    return commands, seconds


def main() -> None:
    """Print the figures."""
    for name in sorted(BOTS):
        commands, seconds = bot_time(name)
        figure(f"bot {name}", seconds / commands * 1e6, "us/command", f"{commands} commands over {len(SEEDS)} games")


if __name__ == "__main__":
    main()
