"""A game its host has let go commits nothing more, even a command its dying process had already sent."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from roguelike.server.cluster.hostgame import ClusterGame, Shown
from roguelike.server.hosted import log
from roguelike.server.hosted.committer import Committer
from roguelike.server.hosted.host import PlayOptions


class Forgotten:
    """A host's out-streams after it let the game go: its read marks forgotten, so waiting on them waits for nothing."""

    async def marked(self, game: str) -> None:
        """Nothing to wait for."""


class Keys:
    """A committer that accepts every key and remembers it."""

    def __init__(self) -> None:
        self.accepted: list[tuple[str, int, bytes, int | None]] = []

    async def accept(self, game: str, seq: int, command: bytes, token: int | None = None) -> str | None:
        """Accept the key."""
        self.accepted.append((game, seq, command, token))
        return "2026-11-29T00:00:00"


def game(keys: Keys) -> ClusterGame:
    """A game run by this host under token 7, with no process."""
    row = log.HostedRow("g1", "ann", 1, 15, "normal", None, "2026-11-29", None, log.LIVE, None)

    async def ended(*_: Any) -> None:
        """Nothing to keep."""

    return ClusterGame(row, cast(Any, None), cast(Committer, keys), PlayOptions(15), ended, 7, cast(Shown, Forgotten()))


def test_a_command_read_after_the_game_was_let_go_is_refused_and_never_committed() -> None:
    keys = Keys()

    async def play() -> tuple[str | None, str | None]:
        running = game(keys)
        first = await running.accept(1, b"wait")
        running.lost = True  # the host's session went: the game is another host's to take
        return first, await running.accept(2, b"wait")

    first, second = asyncio.run(play())
    assert first is None and second is not None and "let go" in second
    assert keys.accepted == [("g1", 1, b"wait", 7)]
