"""A game run by a host of several: its process as on one machine, its screen sent to Redis, its writes fenced.

A :class:`ClusterGame` is a :class:`~roguelike.server.hosted.host.HostedGame` (the same process,
plan, commit before apply, snapshots and end) whose viewers are not here: every frame goes to the
game's out-stream for the gateways (with a keyframe now and then for those that start following),
and its commands carry the fencing token its host took it with, each committed only once the read
mark of the messages handed to the process is written (``roguelike.server.cluster.readmarks``). A
refused command whose token is no longer the game's means another host has the game: this one
lets it go, writing nothing more.
A process that dies is rebuilt at once (the game is claimed: someone wants it).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Protocol

from sqlalchemy import Engine

from roguelike.ground.frames import deflated, keyframe
from roguelike.server.cluster import streams
from roguelike.server.hosted import log, owners
from roguelike.server.hosted.committer import Committer
from roguelike.server.hosted.host import Ended, HostedGame, PlayOptions


class Shown(Protocol):
    """Where a host sends what its games show (its out-streams, in order)."""

    def send(self, game: str, kind: bytes, payload: bytes, token: int) -> None:
        """Queue one entry for a game's out-stream, stamped with its owner's token."""
        ...

    def ready(self, game: ClusterGame) -> None:
        """A game's process has shown its first frame: hand it the browser messages from now on."""
        ...

    def lost(self, game: ClusterGame) -> None:
        """Another host has taken the game."""
        ...

    async def marked(self, game: str) -> None:
        """Wait until the read mark of every browser message handed to the game's process so far is written."""
        ...


class ClusterGame(HostedGame):
    """One game this host runs, for gateways elsewhere."""

    def __init__(
        self,
        row: log.HostedRow,
        engine: Engine,
        committer: Committer,
        options: PlayOptions,
        ended: Ended,
        token: int,
        shown: Shown,
    ) -> None:
        super().__init__(row, engine, committer, options, ended)
        self.token, self.shown_to = token, shown
        self.lost = False  # another host has it: nothing more is written, nothing cleaned up
        self.frames_since_keyframe = 0
        self.ready_told = False  # whether this process's first frame has opened its input
        self.pressed = False  # whether a key was pressed since this process started
        self.on_gone: Callable[[HostedGame], None] = lambda game: None

    def send_message(self, packed: bytes, after: Any) -> None:
        """A frame from the process: kept as the screen, and sent to the out-stream (with a keyframe now and then)."""
        self.screenful.cells, self.screenful.started = after, True
        self.frames += 1
        self.shown_to.send(self.row.id, streams.FRAME, packed, self.token or 0)
        self.frames_since_keyframe += 1
        if self.frames_since_keyframe >= streams.KEYFRAME_EVERY:
            self.send_keyframe()

    def send_keyframe(self) -> None:
        """Add the whole screen to the out-stream, for gateways that start following."""
        if self.screenful.started:
            self.shown_to.send(self.row.id, streams.KEYFRAME, deflated(keyframe(self.screenful.cells)), self.token or 0)
        self.frames_since_keyframe = 0

    async def take(self, kind: bytes, payload: bytes, writer: asyncio.StreamWriter) -> None:
        """One message from the process; the first frame of a process opens its input."""
        await super().take(kind, payload, writer)
        if kind == b"F" and not self.ready_told:
            self.ready_told = True
            self.shown_to.ready(self)

    async def ensure_running(self) -> bool:
        """Start the game's process unless it has one; never once another host has the game."""
        return not self.lost and await super().ensure_running()

    async def start(self) -> None:
        """Start the process (its first frame will open the input)."""
        self.ready_told, self.pressed = False, False
        await super().start()

    def forward(self, message: bytes) -> None:
        """Hand a browser message on, but not the text or release of a key pressed before this process."""
        if not self.pressed and message[:1] and message[0] in streams.KEY_ORPHANS:
            return  # its press went to a process that died: the half of a key would be a second command
        self.pressed = self.pressed or message[:1] == bytes([streams.KEY_DOWN])
        super().forward(message)

    def tell_count(self) -> None:
        """What the lobby calls the game, to the gateways (they count their own watchers)."""
        self.shown_to.send(self.row.id, streams.TITLE, self.shown.encode(), self.token or 0)

    def finish(self, reason: str) -> None:
        """The game closes for everyone: the gateways are told why."""
        if not self.finished:
            self.finished = True
            self.shown_to.send(self.row.id, streams.CLOSED, reason.encode(), self.token or 0)
            self.on_finish()

    async def accept(self, seq: int, command: bytes) -> str | None:
        """Commit a command under this host's token, once the messages that made it are marked read (so they are
        never handed on again); a refusal because another host took the game loses it here."""
        await self.shown_to.marked(self.row.id)
        if self.lost:
            # Let go while its process's last bytes were still being read: its marks are forgotten, so the
            # wait above covered nothing, and the next host may hand the same message on again.
            return f"command {seq}: the game was let go here"
        refusal = await super().accept(seq, command)
        if refusal is not None and not self.over and await asyncio.to_thread(self.taken_elsewhere):
            self.lost = True
            self.shown_to.lost(self)
        return refusal

    def taken_elsewhere(self) -> bool:
        """Whether the game's token is no longer this host's."""
        with self.engine.connect() as connection:
            owner = owners.owner_of(connection, self.row.id)
        return owner is None or owner[1] != self.token

    async def gone(self, status: int | None) -> None:
        """The process ended: stopped, over or closed lets the game go; a death is rebuilt at once."""
        if self.lost:
            self.process, self.writer = None, None
            self.process_gone.set()
            self.on_gone(self)
            return
        await super().gone(status)
        if self.stopping and self.process is None:
            self.on_gone(self)
        elif self.process is None and not self.over and not self.finished and not await self.ensure_running():
            self.finish("This game's process keeps stopping: its log keeps it; reload the page to try again.")
            self.on_gone(self)
