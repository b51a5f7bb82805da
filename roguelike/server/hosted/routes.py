"""Hosted play's routes: ``/play`` and its socket, ``/lobby``, ``/watch/{game}`` and its socket.

``/play`` starts the account's one game or resumes it (``?daily=1`` starts today's daily seed
when the account has no live game; its seed never reaches the browser before the game ends:
no in-game screen shows it, and the lobby names only accounts). Its socket plays; a second tab
takes over from the first, on the same game. ``/lobby`` lists the player's own game and every
live game, every name escaped. Who the player is, an :class:`Identity` says (the accounts'
signed cookie, once wired); a WebSocket opens only from a page of this server (its Origin).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from importlib import resources
from typing import Protocol

from sqlalchemy import Engine
from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket

from roguelike.ground.fanout import MAX_MESSAGE_BYTES, POLICY_VIOLATION, TRY_AGAIN_LATER, RateLimit, Viewer
from roguelike.ground.sockets import send_all
from roguelike.server import forked
from roguelike.server.accountpages import framed, shown, who
from roguelike.server.hosted import log
from roguelike.server.hosted.committer import Committer
from roguelike.server.hosted.host import Ended, HostedGame, PlayOptions, game_context

HEADERS = {
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
    "style-src 'self' 'unsafe-inline'",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
    # same-origin, not no-referrer: the lobby's log-out form must carry this site's Origin (under no-referrer
    # a browser sends "Origin: null", which the accounts refuse as another site's form).
    "Referrer-Policy": "same-origin",
}
STATIC = {
    "client.js": ("text/javascript; charset=utf-8", ("roguelike.frontend.web", "static/client.js")),
    "font.ttf": ("font/ttf", ("roguelike", "data/fonts/DejaVuSansMono.ttf")),
}
SWEEP_SECONDS = 5.0


class Identity(Protocol):
    """Who a request or WebSocket comes from: an account name, or None for nobody signed in."""

    def account_of(self, connection: HTTPConnection) -> str | None:
        """The account of the connection, or None."""
        ...


class LiveGame(Protocol):
    """What the routes ask of a live game: run here (a :class:`HostedGame`) or by a host elsewhere (a gateway's)."""

    row: log.HostedRow
    failed_starts: int
    player: Viewer | None
    watchers: set[Viewer]

    @property
    def running(self) -> bool:
        """Whether the game has a process here."""
        ...

    async def ensure_running(self) -> bool:
        """Have the game run (False if it cannot be)."""
        ...

    def forward(self, message: bytes) -> None:
        """Hand the player's browser message on."""
        ...

    def admits(self) -> str | None:
        """Why one more spectator may not join now (None: they may)."""
        ...

    def join(self, viewer: Viewer, playing: bool) -> None:
        """Start a viewer with the whole screen."""
        ...

    def leave(self, viewer: Viewer) -> None:
        """Forget a viewer whose connection ended."""
        ...


def shipped(package: str, name: str) -> bytes:
    """A file shipped in the game's package (read as data: nothing of the game is imported)."""
    return resources.files(package).joinpath(name).read_bytes()


def from_this_server(connection: HTTPConnection) -> bool:
    """Whether a WebSocket's page is this server's own (its Origin is this Host)."""
    origin, host = connection.headers.get("origin", ""), connection.headers.get("host", "")
    return bool(host) and origin in (f"http://{host}", f"https://{host}")


class HostedPlay:
    """Every hosted game of this web process, and the routes that play, watch and list them."""

    def __init__(
        self,
        engine: Engine,
        options: PlayOptions,
        identity: Identity,
        ended: Ended,
        today: Callable[[], str] = lambda: datetime.now(UTC).date().isoformat(),
    ) -> None:
        self.engine, self.options, self.identity, self.ended, self.today = engine, options, identity, ended, today
        self.games: dict[str, LiveGame] = {}
        self.prepare()
        self.page = shipped("roguelike.frontend.web", "static/index.html")
        self.files = {name: (kind, shipped(*where)) for name, (kind, where) in STATIC.items()}
        self.sweeper: asyncio.Task[None] | None = None
        self.opening = asyncio.Lock()

    def prepare(self) -> None:
        """Ready this process to run games: their committer, and the game in the fork server's preload."""
        self.committer = Committer(self.engine)  # every game's keys, a transaction for all that wait
        game_context()  # the game joins the fork server's preload now: the verifier may start the fork server first

    def new_game(self, row: log.HostedRow) -> LiveGame:
        """The object that runs (or, on a gateway, follows) one live game."""
        game = HostedGame(row, self.engine, self.committer, self.options, self.ended)
        game.on_gone = self.forget
        return game

    def routes(self) -> list[BaseRoute]:
        """The routes to add to the server's application."""
        return [
            Route("/play", self.play_page),
            Route("/lobby", self.lobby),
            Route("/watch/{game}", self.watch_page),
            Route("/static/{name}", self.static),
            WebSocketRoute("/ws/play", self.play_socket),
            WebSocketRoute("/ws/watch/{game}", self.watch_socket),
        ]

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Start the fork server (the game loaded once; what killed games left is swept first) and the idle sweep; on
        the way out end every process."""
        await asyncio.to_thread(forked.start_fork_server)
        self.sweeper = asyncio.create_task(self.sweep())
        try:
            yield
        finally:
            self.sweeper.cancel()
            here = [game for game in self.games.values() if isinstance(game, HostedGame)]
            for game in here:
                game.kill()
            pumps = [game.pump for game in here if game.pump is not None]
            await asyncio.gather(*pumps, return_exceptions=True)
            self.committer.close()

    async def sweep(self) -> None:
        """End the process of every game idle for the idle time (the log keeps it)."""
        while True:
            await asyncio.sleep(min(SWEEP_SECONDS, self.options.idle_seconds / 4))
            now = time.monotonic()
            for game in list(self.games.values()):
                if isinstance(game, HostedGame) and game.idle(now):
                    game.stop()

    async def game_of(self, account: str, daily: bool = False) -> LiveGame:
        """The account's live game (started if it has none), with its process running."""
        async with self.opening:
            row = await asyncio.to_thread(self.start_or_resume, account, daily)
            game = self.games.get(row.id)
            if game is None:
                game = self.games[row.id] = self.new_game(row)
        game.failed_starts = 0  # a new connection tries once more a game whose process kept dying
        await game.ensure_running()
        return game

    def start_or_resume(self, account: str, daily: bool) -> log.HostedRow:
        """The account's live game row (a new one if none)."""
        mode = log.DAILY if daily else log.PLAYED
        day = datetime.fromisoformat(self.today()).date() if daily else None
        return log.start_or_resume(self.engine, account, self.options.epoch, mode, day)

    def forget(self, game: LiveGame) -> None:
        """A game whose process ended for good (the game over, or closed by its player) is let go."""
        if self.games.get(game.row.id) is game and not game.running:
            del self.games[game.row.id]

    async def watched_game(self, game_id: str) -> LiveGame | None:
        """A live game to watch (its process started if it has none), or None."""
        game = self.games.get(game_id)
        if game is None:
            row = await asyncio.to_thread(self.row_of, game_id)
            if row is None or row.status != log.LIVE:
                return None
            async with self.opening:
                game = self.games.get(game_id) or self.games.setdefault(game_id, self.new_game(row))
        await game.ensure_running()
        return game

    def row_of(self, game_id: str) -> log.HostedRow | None:
        """A hosted game's row."""
        with self.engine.connect() as connection:
            return log.game_of(connection, game_id)

    def live_rows(self) -> list[log.HostedRow]:
        """Every live game's row."""
        with self.engine.connect() as connection:
            return log.live_games(connection)

    def refused(self, connection: HTTPConnection) -> tuple[str | None, Response | None]:
        """The account, or the page saying who may play."""
        account = self.identity.account_of(connection)
        if account is None:
            return None, PlainTextResponse("log in to play: /login", status_code=401, headers=HEADERS)
        return account, None

    async def play_page(self, request: Request) -> Response:
        """The client page, once the account's game is started or resumed."""
        account, refusal = self.refused(request)
        if account is None:
            return refusal or PlainTextResponse("", status_code=401)
        await self.game_of(account, daily=request.query_params.get("daily") == "1")
        return HTMLResponse(self.page, headers=HEADERS)

    async def watch_page(self, request: Request) -> Response:
        """The client page, watching a live game."""
        row = await asyncio.to_thread(self.row_of, request.path_params["game"])
        if row is None or row.status != log.LIVE:
            return PlainTextResponse("no such live game", status_code=404, headers=HEADERS)
        return HTMLResponse(self.page, headers=HEADERS)

    async def static(self, request: Request) -> Response:
        """One of the client's fixed files."""
        found = self.files.get(request.path_params["name"])
        if found is None:
            return PlainTextResponse("not found", status_code=404, headers=HEADERS)
        kind, body = found
        return Response(body, media_type=kind, headers={**HEADERS, "Cache-Control": "max-age=3600"})

    async def lobby(self, request: Request) -> Response:
        """The player's own game and every live game."""
        account = self.identity.account_of(request)
        rows = await asyncio.to_thread(self.live_rows)
        return HTMLResponse(lobby_page(account, rows, self.games), headers=HEADERS)

    async def play_socket(self, socket: WebSocket) -> None:
        """The player's connection to the account's game: frames down, keys up."""
        account = self.identity.account_of(socket)
        if account is None or not from_this_server(socket):
            await socket.close(code=POLICY_VIOLATION, reason="log in to play, from this server's page")
            return
        game = await self.game_of(account)
        await serve(socket, game, playing=True)

    async def watch_socket(self, socket: WebSocket) -> None:
        """A spectator's connection: frames down only."""
        game = await self.watched_game(socket.path_params["game"]) if from_this_server(socket) else None
        if game is None:
            await socket.close(code=POLICY_VIOLATION, reason="no such live game")
            return
        crowded = game.admits()
        if crowded is not None:
            await socket.close(code=TRY_AGAIN_LATER, reason=crowded)
            return
        await serve(socket, game, playing=False)


async def serve(socket: WebSocket, game: LiveGame, playing: bool) -> None:
    """Accept, then send frames while reading the client until either side ends (the game goes on)."""
    await socket.accept()
    viewer = Viewer()
    game.join(viewer, playing)
    sender = asyncio.create_task(send_all(socket, viewer))
    try:
        await receive_all(socket, game, viewer, playing)
    finally:
        game.leave(viewer)
        viewer.close("gone")
        await asyncio.gather(sender, return_exceptions=True)


async def receive_all(socket: WebSocket, game: LiveGame, viewer: Viewer, playing: bool) -> None:
    """Hand the player's messages to the game until the client leaves or breaks the rules."""
    limit = RateLimit()
    while viewer.closed is None:
        message = await socket.receive()
        if message["type"] == "websocket.disconnect":
            return
        data = message.get("bytes")
        problem = (
            "only binary messages are spoken here"
            if data is None
            else "message too large"
            if len(data) > MAX_MESSAGE_BYTES
            else "too many messages"
            if not limit.allow()
            else None
        )
        if problem is not None:
            viewer.pending.clear()
            viewer.close(problem, POLICY_VIOLATION)
            return
        if playing and data:
            game.forward(data)


def lobby_page(account: str | None, rows: list[log.HostedRow], games: dict[str, LiveGame]) -> str:
    """The lobby (in the board's and the account pages' look): who is logged in (with log-out), the player's own
    game or links to start one, then every live game with a watch link; every name shown safely."""
    own = next((row for row in rows if row.account == account), None) if account is not None else None
    if account is None:
        mine = "<p><a href='/login'>Log in</a> or <a href='/signup'>sign up</a> to play.</p>"
    elif own is not None:
        mine = f"<p>Your game ({shown(own.mode)}) is live: <a href='/play'>resume it</a>.</p>"
    else:
        mine = "<p><a href='/play'>Start a game</a> or <a href='/play?daily=1'>play today's daily</a>.</p>"
    items = [lobby_line(row, games.get(row.id)) for row in rows]
    listed = "".join(items) or "<li>No live games.</li>"
    body = f"{who(account)}{mine}<h2>Live games</h2><ul>{listed}</ul><p><a href='/board'>The board</a></p>"
    return framed("Hedonic Hypothesis: the lobby", body)


def lobby_line(row: log.HostedRow, game: LiveGame | None) -> str:
    """One live game in the lobby: its account (a link to watch), its mode, who watches, whether it is played."""
    watching = len(game.watchers) if game is not None else 0
    state = "played now" if game is not None and game.player is not None else "nobody at the keys"
    return (
        f"<li><a href='/watch/{shown(row.id)}'>{shown(row.account)}</a>"
        f" &middot; {shown(row.mode)} &middot; {watching} watching &middot; {state}</li>"
    )
