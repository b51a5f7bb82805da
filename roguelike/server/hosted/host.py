"""The web process's side of hosted games: one process per live game, its log, and its viewers.

A :class:`HostedGame` starts its game's process (forked from the fork server, which has the
game loaded), sends it the plan to rebuild from (the log's commands and newest save), commits
each command the game is about to apply before saying it may (``roguelike.server.hosted.log``,
with the keys of every game through the web process's one
:class:`~roguelike.server.hosted.committer.Committer`),
keeps the saves it sends, and fans its frames out to the player and spectators with the rules
of :class:`roguelike.ground.fanout.Fanout`. The process ends when the game has had no input for
``idle_seconds`` (the next key or connection rebuilds it), when its last screen closes, or when
it dies (a crash, ``kill -9``, its memory or CPU limit): then it is rebuilt from the log, at
once if someone is connected, else at the next connection, with a one-line notice to the player.
A process killed by a signal leaves its scratch folder behind: it is swept then
(:mod:`roguelike.server.leftovers`).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import socket
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine

from roguelike.ground.fanout import Fanout
from roguelike.ground.frames import FrameError, apply
from roguelike.server import forked, leftovers
from roguelike.server.child import MIB, ChildLimits
from roguelike.server.hosted import log
from roguelike.server.hosted.committer import Committer
from roguelike.server.hosted.gameproc import PLAYING, run_game
from roguelike.server.hosted.wire import (
    ACCEPTED,
    COMMAND,
    ENDED,
    EVENT,
    FRAME,
    HEAD,
    PLAN,
    REFUSED,
    SNAPSHOT,
    TITLE,
    WireError,
    head_of,
    packed,
    plan_bytes,
    split_seq,
    with_seq,
)

COLUMNS, ROWS = 80, 25  # the game's screen (formulas.SCREEN_WIDTH, SCREEN_HEIGHT): the web process loads no formulas
REBUILT = "The game was rebuilt from the server's log, at the last key it accepted."
logger = logging.getLogger(__name__)
MOST_FAILED_STARTS = 3  # a game whose process dies this often before showing a frame waits for a new connection


@dataclass(frozen=True)
class Times:
    """When a hosted game started and ended, and when the server accepted each of its commands (UTC, ISO 8601)."""

    started: str
    ended: str
    keys: tuple[str, ...]


Ended = Callable[[str, str, bytes, Times], Awaitable[None]]  # game id, account, replay bytes, times


@dataclass(frozen=True)
class PlayOptions:
    """How hosted games run: idle time, snapshots, and each process's limits."""

    epoch: int
    idle_seconds: float = 600.0
    snapshot_every: int = 500
    memory_bytes: int = 1024 * MIB
    cpu_seconds: float = 3600.0

    def limits(self) -> dict[str, Any]:
        """A game process's limits, as :class:`ChildLimits` plain values."""
        return ChildLimits(self.cpu_seconds, self.memory_bytes, 64 * MIB).to_plain()


def game_context() -> Any:
    """The fork server's context, with the game (and the verifier) preloaded."""
    if PLAYING not in forked.PRELOAD:
        forked.PRELOAD.append(PLAYING)
    return forked.fork_server()


async def read_message(reader: asyncio.StreamReader) -> tuple[bytes, bytes]:
    """The next whole message from a game's process."""
    size, kind = head_of(await reader.readexactly(HEAD.size))
    return kind, await reader.readexactly(size)


class HostedGame(Fanout):
    """One hosted game in the web process: its row, its process (while it has one) and its viewers."""

    def __init__(
        self, row: log.HostedRow, engine: Engine, committer: Committer, options: PlayOptions, ended: Ended
    ) -> None:
        super().__init__(COLUMNS, ROWS)
        self.row, self.engine, self.committer, self.options, self.ended = row, engine, committer, options, ended
        self.process: Any = None
        self.writer: asyncio.StreamWriter | None = None
        self.pump: asyncio.Task[None] | None = None
        self.starting = asyncio.Lock()
        self.process_gone = asyncio.Event()  # set when the last process's end is taken in (``gone``)
        self.next_seq = 1
        self.last_input = time.monotonic()
        self.notice: str | None = None
        self.shown = row.account
        self.stopping = False  # the server ended the process (idle, or stopping): no notice, no rebuild
        self.failed_starts = 0
        self.token: int | None = None  # the fencing token its commands carry (a game run by a host of several)
        self.showed_frame = False
        self.over = False  # the game ended (its replay is in)
        self.on_gone: Callable[[HostedGame], None] = lambda game: None

    @property
    def title(self) -> str:
        """What spectators see the game called: the account, and what its screen says."""
        return f"{self.row.account}: {self.shown}" if self.shown != self.row.account else self.row.account

    @property
    def running(self) -> bool:
        """Whether the game has a process now."""
        return self.process is not None

    async def ensure_running(self) -> bool:
        """Start the game's process unless it has one; False if it cannot be (its process keeps dying)."""
        async with self.starting:
            if self.process is not None and self.stopping:  # being stopped (idle): start again once it is gone
                await self.process_gone.wait()
            if self.process is not None:
                return True
            if self.over or self.failed_starts >= MOST_FAILED_STARTS:
                return False
            await self.start()
            return True

    async def start(self) -> None:
        """Fork the game's process and send it the plan to rebuild from."""
        plan = await asyncio.to_thread(self.plan)
        ours, theirs = socket.socketpair()
        process = game_context().Process(target=run_game, args=(theirs, self.options.limits()), daemon=True)
        await asyncio.to_thread(process.start)
        theirs.close()
        reader, writer = await asyncio.open_unix_connection(sock=ours)
        writer.write(packed(PLAN, plan_bytes(plan)))
        self.process, self.writer, self.stopping, self.showed_frame = process, writer, False, False
        self.process_gone = asyncio.Event()
        self.last_input = time.monotonic()
        self.notice = None
        self.pump = asyncio.create_task(self.take_all(reader, writer, process))

    def plan(self) -> dict[str, object]:
        """What the process rebuilds the game from: the log's commands and newest save."""
        with self.engine.connect() as connection:
            commands = log.commands_of(connection, self.row.id)
            snapshot = log.newest_snapshot(connection, self.row.id)
        self.next_seq = len(commands) + 1
        return {
            "id": self.row.id,
            "name": self.row.account,
            "seed": self.row.seed,
            "mode": self.row.mode,
            "commands": commands,
            "snapshot": None if snapshot is None else snapshot[1],
            "snapshot_seq": 0 if snapshot is None else snapshot[0],
            "snapshot_every": self.options.snapshot_every,
            "columns": COLUMNS,
            "rows": ROWS,
            "notice": self.notice,
        }

    async def take_all(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, process: Any) -> None:
        """Take the process's messages until it ends; then rebuild it if it died and someone is there."""
        try:
            while True:
                kind, payload = await read_message(reader)
                await self.take(kind, payload, writer)
        except (asyncio.IncompleteReadError, ConnectionError, WireError, FrameError):
            pass
        except Exception:  # a fault of ours or the database's: a death (rebuilt from the log), never a close
            logger.exception("game %s: its process is ended and the game rebuilt", self.row.id)
            process.kill()
        finally:
            writer.close()
            await asyncio.to_thread(process.join, 5)
            if process.is_alive():
                process.kill()
                await asyncio.to_thread(process.join)
            if process.exitcode is not None and process.exitcode < 0:  # killed: it could not remove its scratch folder
                await asyncio.to_thread(leftovers.sweep_game, process.pid)
            await self.gone(process.exitcode)

    async def take(self, kind: bytes, payload: bytes, writer: asyncio.StreamWriter) -> None:
        """One message from the process."""
        if kind == FRAME:
            self.showed_frame, self.failed_starts = True, 0
            self.send_message(payload, apply(self.screenful.cells, payload))
        elif kind == COMMAND:
            seq, command = split_seq(payload)
            try:
                refusal = await self.accept(seq, command)
            except Exception as error:  # noqa: BLE001 (the database failed: the process ends and is rebuilt)
                refusal = f"command {seq} could not be committed: {error}"
            writer.write(packed(ACCEPTED, with_seq(seq)) if refusal is None else packed(REFUSED, refusal.encode()))
        elif kind == SNAPSHOT:
            seq, data = split_seq(payload)
            if seq < self.next_seq:  # a save of accepted commands only
                await self.keep_snapshot(seq, data)
        elif kind == TITLE:
            self.shown = payload.decode("utf-8", "replace")[:200]
            self.tell_count()
        elif kind == ENDED:
            await self.end(payload)

    async def keep_snapshot(self, seq: int, data: bytes) -> None:
        """Keep the game's save in the log (one that cannot be kept now is let be: the log's commands rebuild it)."""
        try:
            await asyncio.to_thread(log.keep_snapshot, self.engine, self.row.id, seq, data)
        except Exception as error:  # noqa: BLE001 (the database away: the next save, or the log, will do)
            logger.warning("game %s: its save after command %d was not kept: %s", self.row.id, seq, error)

    async def accept(self, seq: int, command: bytes) -> str | None:
        """Commit a command to the log; why not, if it was not accepted."""
        if seq != self.next_seq:
            return f"command {seq} out of turn (the log expects {self.next_seq})"
        received = await self.committer.accept(self.row.id, seq, command, self.token)
        if received is None:
            return f"command {seq} is taken already, or the game is over"
        self.next_seq += 1
        return None

    async def end(self, replay: bytes) -> None:
        """The game is over: mark it ended with its replay's hash and hand the replay on."""
        digest = hashlib.sha256(replay).hexdigest()
        ended = await asyncio.to_thread(log.end, self.engine, self.row.id, digest)
        if ended is None:
            return
        self.over = True
        keys = tuple(await asyncio.to_thread(self.key_times))
        await self.ended(self.row.id, self.row.account, replay, Times(self.row.started_at, ended, keys))

    def key_times(self) -> list[str]:
        """When the server accepted each of the game's commands."""
        with self.engine.connect() as connection:
            return log.key_times(connection, self.row.id)

    async def gone(self, status: int | None) -> None:
        """The process ended: forget it; a death (not asked for) is rebuilt at once if anyone is watching."""
        self.process, self.writer = None, None
        self.process_gone.set()
        if not self.showed_frame and not self.stopping:
            self.failed_starts += 1
        if self.over or (not self.stopping and status == 0):
            self.finish("The game is over." if self.over else "The game is closed; /play resumes it.")
            self.on_gone(self)
            return
        if self.stopping:
            return
        self.notice = REBUILT
        if self.viewers() and not await self.ensure_running():
            self.finish("This game's process keeps stopping: its log keeps it; reload the page to try again.")

    def forward(self, message: bytes) -> None:
        """Hand the player's browser message to the game's process (started again first if it has none)."""
        self.last_input = time.monotonic()
        if self.writer is not None:
            self.writer.write(packed(EVENT, message))
        else:
            asyncio.get_running_loop().create_task(self.forward_later(message))

    async def forward_later(self, message: bytes) -> None:
        """Rebuild the game's process, then hand it the message."""
        if await self.ensure_running() and self.writer is not None:
            self.writer.write(packed(EVENT, message))

    def idle(self, now: float) -> bool:
        """Whether the game has a process and has had no input for the idle time."""
        return self.process is not None and now - self.last_input >= self.options.idle_seconds

    def stop(self) -> None:
        """End the game's process (idle, or the server stopping); the log keeps the game."""
        self.stopping = True
        if self.writer is not None:
            self.writer.close()  # the process sees the socket close and ends
            self.writer = None  # a key from now on waits for it to end, then starts the game again
        if self.process is not None and self.process.pid is not None:
            asyncio.get_running_loop().call_later(5, self.kill_if_alive, self.process)

    @staticmethod
    def kill_if_alive(process: Any) -> None:
        """Kill a process that did not end when asked."""
        if process.is_alive():
            process.kill()

    def kill(self) -> None:
        """Kill the process at once (the server is going away)."""
        self.stopping = True
        if self.process is not None and self.process.pid is not None:
            self.process.kill()
