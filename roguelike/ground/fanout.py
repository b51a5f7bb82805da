"""A screen shared with its viewers: the player at once, spectators on a tick, late joiners a keyframe.

The rules of who gets which frame when, apart from what draws the frames, so the web frontend
(:class:`roguelike.frontend.web.live.LiveGame`, which runs the game in its own process) and the
hosted server's web process (which never loads the game; its games draw in processes of their
own and send their frames over a pipe) fan frames out alike.

Each viewer has its own queue of messages: one that falls too far behind is dropped, so a slow
spectator never holds up the player or the other spectators. The player gets every frame at
once. Spectators get the screen at most once a ``SPECTATOR_TICK``: a frame after a quiet tick
goes to them at once (the player's own message), and the frames that follow within the tick are
merged into one diff sent when it ends, so a burst of animation or of keys costs each spectator
one message, and the screen the player settles on always reaches them. Every spectator gets the
same bytes; a newcomer starts with a keyframe of the screen they all have, made once for all who
join on that screen.

A crowd never costs the player its game: spectators join at most ``JOINS_PER_SECOND`` (a burst
of ``JOIN_BURST``) and ``MAX_WATCHERS`` at once, the others are told to come back; how many
watch is a note each viewer holds one of (the newest), never a queue that a crowd joining could
fill; and every frame is queued for the player before any spectator.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from collections.abc import Callable, Iterable

from roguelike.ground.frames import Cells, Screenful, deflated, diff, keyframe

MAX_MESSAGE_BYTES = 64  # the largest client message the protocol has is a 16-character text
MESSAGES_PER_SECOND = 120.0
BURST = 240.0
# Messages a viewer may have waiting before it counts as too slow (a few seconds of animation).
MAX_PENDING = 90
# Seconds: spectators get at most one frame a tick (the frames within it merged), 10 a second.
SPECTATOR_TICK = 0.1
# Spectators joining: at most this many a second (a burst of JOIN_BURST), and this many watching at once.
JOINS_PER_SECOND, JOIN_BURST, MAX_WATCHERS = 10.0, 40.0, 500
NORMAL, GOING_AWAY, POLICY_VIOLATION, TRY_AGAIN_LATER = 1000, 1001, 1008, 1013
Message = bytes | str


class RateLimit:
    """A token bucket: ``rate`` messages a second, up to ``burst`` at once."""

    def __init__(
        self, rate: float = MESSAGES_PER_SECOND, burst: float = BURST, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = burst
        self.last = clock()

    def allow(self) -> bool:
        """Whether one more message may come now."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Viewer:
    """One connection's queue of messages to send; closed with a reason when it should end."""

    def __init__(self, limit: int = MAX_PENDING) -> None:
        self.pending: deque[Message] = deque()
        self.limit = limit
        self.ready = asyncio.Event()
        self.closed: str | None = None
        self.code = NORMAL
        self.sent_bytes = 0
        self.note: str | None = None  # the newest note of how many watch, sent after what is queued

    def offer(self, message: Message) -> None:
        """Queue a message, or drop the viewer if it is too far behind."""
        if self.closed is not None:
            return
        if len(self.pending) >= self.limit:
            self.pending.clear()
            self.close("too slow: dropped (the game does not wait)", POLICY_VIOLATION)
            return
        self.pending.append(message)
        self.ready.set()

    def tell(self, note: str) -> None:
        """Hold a note, in place of any not yet sent (it says what is true now, so only the newest matters)."""
        if self.closed is None:
            self.note = note
            self.ready.set()

    def close(self, reason: str, code: int = NORMAL) -> None:
        """End the connection (with a WebSocket close code) once what is queued is sent."""
        if self.closed is None:
            self.closed, self.code = reason, code
        self.ready.set()

    async def next(self) -> Message | None:
        """The next message to send; None when the viewer is closed and its queue empty."""
        while not self.pending and self.note is None and self.closed is None:
            self.ready.clear()
            await self.ready.wait()
        if self.pending:
            message = self.pending.popleft()
        elif self.note is not None and self.closed is None:
            message, self.note = self.note, None
        else:
            return None
        self.sent_bytes += len(message)
        return message


class Fanout:
    """A screen and who sees it: one player (the newest to join as player) and any number of spectators."""

    def __init__(self, columns: int, rows: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.screenful = Screenful(columns, rows)
        self.player: Viewer | None = None
        self.watchers: set[Viewer] = set()
        self.frames = 0
        self.finished = False
        self.on_finish: Callable[[], None] = lambda: None
        self.seen: Cells = self.screenful.cells  # the screen as every spectator has it
        self.seen_at = -SPECTATOR_TICK  # when spectators were last brought up to date
        self.seen_keyframe: tuple[Cells, bytes] | None = None  # the newcomers' keyframe, made once per screen
        self.joins = RateLimit(JOINS_PER_SECOND, JOIN_BURST, clock)
        self.due: asyncio.TimerHandle | None = None  # the end of the tick, when frames wait for it
        self.later: Callable[[float, Callable[[], None]], asyncio.TimerHandle] = lambda delay, then: (
            asyncio.get_running_loop().call_later(delay, then)
        )

    @property
    def title(self) -> str:
        """What the list of live games calls this screen."""
        return "a game"

    def send_cells(self, after: Cells) -> None:
        """Send what changed on the screen: to the player at once, to spectators on their tick."""
        message = diff(self.screenful.cells, after) if self.screenful.started else keyframe(after)
        if message is not None:
            self.send_message(deflated(message), after)  # compressed once, for the player and every spectator

    def send_message(self, packed: bytes, after: Cells) -> None:
        """Send a message made already, that brings the screen as last sent to ``after`` (a hosted game's
        process makes and compresses its frames: the web process only checks and forwards them)."""
        before = self.screenful.cells
        self.screenful.cells, self.screenful.started = after, True
        self.frames += 1
        if self.player is not None:
            self.offer(self.player, packed)
        self.feed(packed if self.seen is before else None)

    def feed(self, packed: bytes | None) -> None:
        """Bring spectators to the new screen now (``packed`` is its message from theirs), or when the tick ends."""
        if not self.watchers or self.due is not None:
            return  # nobody to tell (a newcomer gets a keyframe), or the frame waits with the others
        wait = self.seen_at + SPECTATOR_TICK - self.clock()
        if wait > 0:
            self.due = self.later(wait, self.catch_up)
        else:
            self.catch_up(packed)

    def catch_up(self, packed: bytes | None = None) -> None:
        """Send every spectator the one message from their screen to the player's (none if they match)."""
        if self.due is not None:
            self.due.cancel()
            self.due = None
        message = packed or diff(self.seen, self.screenful.cells)
        self.seen, self.seen_at = self.screenful.cells, self.clock()
        if message is not None and self.watchers:
            self.broadcast(deflated(message) if packed is None else message, self.watchers)

    def viewers(self) -> list[Viewer]:
        """The player (if connected) and the spectators."""
        return ([self.player] if self.player is not None else []) + list(self.watchers)

    def offer(self, viewer: Viewer, message: Message) -> None:
        """Queue a message for one viewer, forgetting a spectator dropped for being slow."""
        self.broadcast(message, [viewer])

    def broadcast(self, message: Message, viewers: Iterable[Viewer] | None = None) -> None:
        """Queue a message for every viewer (or these), forgetting the spectators dropped for being slow."""
        for viewer in list(self.viewers() if viewers is None else viewers):
            viewer.offer(message)
        dropped = {viewer for viewer in self.watchers if viewer.closed is not None}
        if dropped:
            self.watchers -= dropped
            self.tell_count()

    def admits(self) -> str | None:
        """Why one more spectator may not join now (None: they may)."""
        if len(self.watchers) >= MAX_WATCHERS:
            return f"{MAX_WATCHERS} are watching already: try again later"
        if not self.joins.allow():
            return "too many joining at once: try again in a moment"
        return None

    def join(self, viewer: Viewer, playing: bool) -> None:
        """Start a viewer with the whole screen; a new player takes over from the last one."""
        if playing:
            viewer.offer(deflated(self.screenful.keyframe()))
            if self.player is not None:
                self.player.close("the game was opened in another tab", POLICY_VIOLATION)
            self.player = viewer
        else:
            self.catch_up()  # the spectators already there get what waited; all then have the player's screen
            viewer.offer(self.newcomers_keyframe())
            self.watchers.add(viewer)
        self.tell_count()

    def newcomers_keyframe(self) -> bytes:
        """The keyframe of the screen the spectators have, compressed once for everyone who joins on it."""
        if self.seen_keyframe is None or self.seen_keyframe[0] is not self.seen:
            self.seen_keyframe = (self.seen, deflated(keyframe(self.seen)))
        return self.seen_keyframe[1]

    def leave(self, viewer: Viewer) -> None:
        """Forget a viewer whose connection ended."""
        if viewer is self.player:
            self.player = None
        self.watchers.discard(viewer)
        self.tell_count()

    def tell_count(self) -> None:
        """Let every viewer know how many watch."""
        note = json.dumps({"watchers": len(self.watchers), "title": self.title})
        for viewer in self.viewers():
            viewer.tell(note)

    def finish(self, reason: str) -> None:
        """The game is over for everyone: say why and close every connection (once)."""
        if self.finished:
            return
        self.finished = True
        self.catch_up()  # spectators see the last screen too
        for viewer in self.viewers():
            viewer.offer(json.dumps({"closed": reason}))
            viewer.close(reason, GOING_AWAY)
        self.on_finish()
