"""A hosted game in its own process: rebuilt from its log, then played as the browser frontend plays.

The web process sends the plan (seed, name, mode, every accepted command and the newest save);
the game is rebuilt from the save (or from the seed) and the commands after it, then the same
:class:`~roguelike.screens.base.App` and :class:`~roguelike.frontend.loop.RunLoop` the web
frontend runs take over, the frames going back over the socket. Every command the session is
about to apply is first sent to the web process (``Session.admit``), which commits it to the
log and says so; only then is it applied, so a command is never played unlogged, nor twice.
Every ``snapshot_every`` commands the game's save goes to the log; when the game is over its
replay, re-recorded from the seed and the whole log, goes too.

This is the one module of the server that loads the game (the fork server preloads it).
"""

from __future__ import annotations

import socket
import time
from pathlib import Path
from typing import Any

import msgpack
import tcod.console
import tcod.event

from roguelike.core.commands import Command, decode_command, encode_command
from roguelike.core.game import Game
from roguelike.core.names import DEFAULT_NAME, clean_name
from roguelike.core.session import Session, Step
from roguelike.frontend.frames import Screenful
from roguelike.frontend.keygate import KeyGate
from roguelike.frontend.loop import RunLoop
from roguelike.frontend.web.keycodes import BadMessage, decode
from roguelike.ground.frames import deflated
from roguelike.render.look import finish_frame
from roguelike.replay.recorder import recording_observers
from roguelike.saves.games import mark
from roguelike.saves.savefile import read_save, write_save
from roguelike.screens import ambient
from roguelike.screens.base import App
from roguelike.screens.ingame import InGameScreen
from roguelike.server.hosted.wire import (
    ACCEPTED,
    COMMAND,
    ENDED,
    EVENT,
    FRAME,
    PLAN,
    REFUSED,
    SNAPSHOT,
    TITLE,
    Channel,
    WireError,
    plan_of,
    split_seq,
    with_seq,
)
from roguelike.storage.datadir import DataDir

NOTICE_TOPIC = "hosted"
# A hosted game's animation (a High's swirl, a hit's flash, the death's fade) is sent over the network, every
# frame drawn, diffed and compressed on the server's shared cores: 10 a second keep it moving at a third of the
# cost of the local frontends' 30.
ANIMATION_FPS = 10.0
GONE, REFUSED_EXIT = 0, 3  # the exit statuses of a process whose web process left, or whose log refused a command


class Line:
    """The channel to the web process, where its going away ends the process quietly (it is no crash of the game)."""

    def __init__(self, channel: Channel) -> None:
        self.channel = channel

    def send(self, kind: bytes, payload: bytes = b"") -> None:
        """Send one message; SystemExit if the web process is gone."""
        try:
            self.channel.send(kind, payload)
        except OSError:
            raise SystemExit(GONE) from None

    def receive(self, timeout: float | None) -> tuple[bytes, bytes] | None:
        """The next message within ``timeout`` (None if none came); SystemExit if the web process is gone."""
        try:
            return self.channel.receive(timeout)
        except (EOFError, OSError):
            raise SystemExit(GONE) from None


def command_bytes(command: Command) -> bytes:
    """A command as the log keeps it."""
    return bytes(msgpack.packb(encode_command(command), use_bin_type=True))


def command_of(data: bytes) -> Command:
    """A command from the log."""
    return decode_command(msgpack.unpackb(data, raw=False))


def play(sock: socket.socket, scratch: Path) -> None:
    """Read the plan, rebuild the game and play it until its last screen closes."""
    channel = Channel(sock)
    first = channel.receive(None)
    if first is None or first[0] != PLAN:
        raise WireError("the game's process got no plan")
    played = Played(Line(channel), plan_of(first[1]), scratch)
    RunLoop(played.app, played, KeyGate(poll=played.queued_events), fps=ANIMATION_FPS).run(played.wait)


class Played:
    """The game's side of the socket: the session's log, the presenter of its frames, the source of its events."""

    def __init__(self, channel: Line, plan: dict[str, Any], scratch: Path) -> None:
        self.channel, self.plan, self.scratch = channel, plan, scratch
        self.name = clean_name(str(plan["name"])) or DEFAULT_NAME
        self.commands: list[bytes] = [bytes(command) for command in plan["commands"]]
        self.snapshot_every = int(plan["snapshot_every"])
        self.screenful = Screenful(int(plan["columns"]), int(plan["rows"]))
        self.pending: list[bytes] = []  # browser messages that came while a command waited for the log
        self.title: str | None = None
        self.over = False
        self.told_ended = False
        self.session = self.rebuilt()
        self.session.observers = [self]
        self.session.admit = self.admit
        if plan["mode"] == "daily":
            mark(self.session, "daily")  # the first command of a daily game, logged like any other
        if plan.get("notice"):
            self.session.notices.warn(NOTICE_TOPIC, str(plan["notice"]))
        self.app = App(InGameScreen(self.session))  # straight into the account's game: no title, no other game

    def rebuilt(self) -> Session:
        """The game after every logged command: from the newest save, or the seed, then the commands after it."""
        snapshot, start = self.plan.get("snapshot"), int(self.plan.get("snapshot_seq") or 0)
        if snapshot:
            path = self.scratch / "snapshot.save"
            path.write_bytes(bytes(snapshot))
            game = read_save(path).game()
        else:
            game, start = Game.new(int(self.plan["seed"]), self.name), 0
        session = Session(game, steps=start)
        for data in self.commands[start:]:
            session.apply(command_of(data))
        self.over = game.state.game_over
        return session

    def admit(self, command: Command) -> None:
        """Have the web process commit the command to the log before it is applied (SystemExit if it will not)."""
        seq, data = self.session.steps + 1, command_bytes(command)
        self.channel.send(COMMAND, with_seq(seq, data))
        while True:
            found = self.channel.receive(None)
            if found is None:
                continue
            kind, payload = found
            if kind == EVENT:
                self.pending.append(payload)
            elif kind == ACCEPTED and split_seq(payload)[0] == seq:
                self.commands.append(data)
                return
            elif kind == REFUSED:
                raise SystemExit(REFUSED_EXIT)  # the log would not take it: the web process rebuilds the game

    def after_step(self, game: Game, step: Step) -> None:
        """Send the game's save every few commands; note when the game is over."""
        if step.index % self.snapshot_every == 0:
            path = self.scratch / "snapshot.save"
            write_save(path, step.snapshot, steps=step.index)
            self.channel.send(SNAPSHOT, with_seq(step.index, path.read_bytes()))
        if game.state.game_over:
            self.over = True

    def close(self, game: Game) -> None:
        """Nothing to let go of: the log holds the game."""

    def present(self, app: App, console: tcod.console.Console) -> None:
        """Send what changed on the screen, and what the lobby calls the game when that changed."""
        finish_frame(console, ambient.look())
        message = self.screenful.update(console)
        if message is not None:
            self.channel.send(
                FRAME, deflated(message)
            )  # compressed here, on the game's core: the web process forwards it
        title = app.watched()
        if title is not None and title != self.title:
            self.title = title
            self.channel.send(TITLE, title.encode())

    def handle(self, event: tcod.event.Event) -> None:
        """The player's event, to the screens."""
        self.app.handle(event)

    def crashed(self, message: str, console: tcod.console.Console) -> None:
        """The game crashed: the process ends and the web process rebuilds it from the log at the next key."""

    def wait(self, timeout: float | None) -> list[tcod.event.Event]:
        """The player's events within ``timeout`` seconds (None: until one comes); the replay once the game is over."""
        if self.over and not self.told_ended:
            self.told_ended = True
            self.channel.send(ENDED, self.replay())
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self.pending:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            found = self.channel.receive(left)
            if found is None:
                break
            if found[0] == EVENT:
                self.pending.append(found[1])
        return self.queued_events()

    def queued_events(self) -> list[tcod.event.Event]:
        """Every event already come, taken off the queue (a message the protocol does not know is dropped)."""
        while (found := self.channel.receive(0)) is not None:
            if found[0] == EVENT:
                self.pending.append(found[1])
        events = []
        for message in self.pending:
            try:
                event = decode(message)
            except BadMessage:
                continue
            if event is not None:
                events.append(event)
        self.pending.clear()
        return events

    def replay(self) -> bytes:
        """The game's replay, recorded afresh from the seed and every logged command (as any replay is made)."""
        folder = self.scratch / "replay"
        game_id = str(self.plan["id"])
        game = Game.new(int(self.plan["seed"]), self.name)
        session = Session(game, recording_observers(folder, game, game_id, saved=False))
        for data in self.commands:
            session.apply(command_of(data))
        session.close()
        game.close()
        return DataDir(folder).replay(game_id).read_bytes()
