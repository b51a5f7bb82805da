"""The copies of hosted games a bot-driven player keeps: each game as its seed and logged commands make it.

A player knows what a key must show only by stepping its own copy of the game; esper's current
world is process-wide, so the players' threads step their copies one at a time (:data:`REPLICAS`).
"""

from __future__ import annotations

import threading

import msgpack

from roguelike.core.game import Game
from roguelike.core.names import DEFAULT_NAME, clean_name
from roguelike.core.snapshot import from_plain, snapshot_bytes
from roguelike.server.hosted import log
from roguelike.server.hosted.playing import command_of

REPLICAS = threading.Lock()  # esper's current world is process-wide: one copy of a game is stepped at a time


def rebuilt(row: log.HostedRow, commands: list[bytes]) -> Game:
    """The game its seed and commands make (what the server's own process must show)."""
    with REPLICAS:
        game = Game.new(row.seed, clean_name(row.account) or DEFAULT_NAME)
        for data in commands:
            game.apply(command_of(data))
    return game


class LoggedCopy:
    """A player's game as far as its log went when last opened: opening it again applies only the commands
    logged since, and hands out a copy (what the player then presses is not the log's until confirmed).

    A player reopens its game hundreds of times a run of the cluster test, each time from a log of hundreds
    of commands: replaying each log whole was most of the test's own CPU. The copy goes through the
    snapshot a save holds, so it is the game a resumed save is.
    """

    def __init__(self) -> None:
        self.game_id: str | None = None
        self.commands: list[bytes] = []
        self.logged: Game | None = None  # the game its log makes, never pressed on
        self.handed: Game | None = None  # the last copy handed out, closed when the next is

    def rebuilt(self, row: log.HostedRow, commands: list[bytes]) -> Game:
        """The game its seed and commands make, from the commands logged since the last time where it can."""
        with REPLICAS:
            if self.logged is None or row.id != self.game_id or commands[: len(self.commands)] != self.commands:
                self.close()
                self.logged = Game.new(row.seed, clean_name(row.account) or DEFAULT_NAME)
                self.game_id, self.commands = row.id, []
            for data in commands[len(self.commands) :]:
                self.logged.apply(command_of(data))
            self.commands = list(commands)
            if self.handed is not None:
                self.handed.close()
            self.handed = from_plain(msgpack.unpackb(snapshot_bytes(self.logged), raw=False, strict_map_key=False))
            return self.handed

    def close(self) -> None:
        """Forget the games' worlds."""
        for game in (self.logged, self.handed):
            if game is not None:
                game.close()
        self.logged = self.handed = None
