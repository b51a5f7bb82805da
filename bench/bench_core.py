"""Headless turn logic and frame drawing, with 40 entities on the floor.

Run: ``python -m bench.bench_core``. Figures go in docs/performance.md ("Core").
"""

from __future__ import annotations

import itertools

import tcod.console

from bench.common import crowd_floor, report, timings
from components import StateOfMind
from roguelike.content import formulas
from roguelike.core.commands import Command, Move, Wait
from roguelike.core.game import Game
from roguelike.render.draw import draw_game

ENTITIES = 40
TURNS = 20_000
FRAMES = 2_000
# A patrol that bumps walls, opens doors and walks about without leaving the room much.
PATROL: list[Command] = [Move(1, 0), Move(1, 0), Move(0, 1), Wait(), Move(-1, 0), Move(-1, 0), Move(0, -1), Wait()]


def turn_logic() -> list[float]:
    """Seconds per applied command, the floor kept at 40 entities and the player alive."""
    game = Game.new(2024, "Bench")
    crowd_floor(game, ENTITIES)
    commands = itertools.cycle(PATROL)
    som = game.player_component(StateOfMind)

    def keep_alive() -> None:
        som.value = 55
        if game.state.turn % 500 == 0:
            crowd_floor(game, ENTITIES)

    return timings(lambda: game.apply(next(commands)), TURNS, keep_alive)


def frame_drawing() -> list[float]:
    """Seconds to draw the in-game screen, while High (the costliest palette)."""
    game = Game.new(2024, "Bench")
    crowd_floor(game, ENTITIES)
    game.player_component(StateOfMind).value = 90
    game.apply(Wait())
    console = tcod.console.Console(formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT, order="C")
    clock = itertools.count()
    return timings(lambda: draw_game(console, game, next(clock) / 30), FRAMES)


def main() -> None:
    """Print the figures."""
    print(report(f"turn logic ({ENTITIES} entities)", turn_logic()))
    print(report("frame drawing (High, psychedelic)", frame_drawing()))


if __name__ == "__main__":
    main()
