"""The planner playing on: from a new game (par) or from a state of a replayed game (review).

Run ``i`` of several starts slightly shifted, as ``hedonic balance --butterfly`` does: run 0
as it stands, the others after a wait or two of the player's own near the start (run 1 one
wait, run 2 two, runs 3 and 4 the same after the planner's first command, and so on), so
the runs part ways through the game's own RNG and nothing else. These functions run in
the worker processes; everything they return is plain and holds nothing about timing.
"""

from __future__ import annotations

from dataclasses import dataclass

import msgpack

from roguelike.bots.headless import ACTIONS_PER_TURN_LIMIT
from roguelike.bots.registry import Player, make_bot
from roguelike.core.commands import Command, Wait
from roguelike.core.game import Game
from roguelike.core.snapshot import from_plain

COACH = "planner"  # the bot that sets par and takes over in a review
PAR_NAME = "Par"  # the name of the par games' character (a name only labels a game)


@dataclass(frozen=True)
class Run:
    """How one run went: alive at its end or not, the turns it played, the score it added, how it died."""

    alive: bool
    turns: int
    score: int
    cause: str | None = None


def shift_of(run: int) -> tuple[int, int]:
    """Run ``run``'s shift: after how many of the planner's commands it waits, and how many times."""
    if run == 0:
        return 0, 0
    return (run - 1) // 2, 1 + (run - 1) % 2


class Shifted:
    """The planner, with a wait or two of the player's own slipped in near the start."""

    def __init__(self, run: int) -> None:
        self.bot: Player = make_bot(COACH)
        self.after, self.waits = shift_of(run)
        self.given = 0

    def choose(self, game: Game) -> Command:
        """A wait while the shift asks for one, else the planner's command."""
        if self.given == self.after and self.waits > 0:
            self.waits -= 1
            return Wait()
        self.given += 1
        return self.bot.choose(game)


def play_on(game: Game, run: int, turns: int) -> Run:
    """Let shifted run ``run`` of the planner play ``game`` for up to ``turns`` turns (or to its end)."""
    player, first, points = Shifted(run), game.state.turn, game.score().total
    budget = turns * ACTIONS_PER_TURN_LIMIT
    while not game.state.game_over and game.state.turn < first + turns and budget > 0:
        game.apply(player.choose(game))
        budget -= 1
    state = game.state
    return Run(not state.game_over, state.turn - first, game.score().total - points, state.cause_of_death)


def par_run(seed: int, run: int, turns: int) -> Run:
    """Run ``run`` of par: the planner plays a new game of ``seed`` to its end (or ``turns``)."""
    game = Game.new(seed, PAR_NAME)
    try:
        return play_on(game, run, turns)
    finally:
        game.close()


def runs_from(snapshot: bytes, runs: int, horizon: int) -> list[Run]:
    """``runs`` shifted runs of the planner from a game's snapshot, each over ``horizon`` turns."""
    found = []
    for run in range(runs):
        game = from_plain(msgpack.unpackb(snapshot, raw=False, strict_map_key=False))
        try:
            found.append(play_on(game, run, horizon))
        finally:
            game.close()
    return found
