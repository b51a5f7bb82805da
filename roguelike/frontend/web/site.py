"""The web server: the client page, the list of live games, and a WebSocket per viewer.

Routes (every one behind the :class:`~roguelike.frontend.web.guard.Guard`: playing needs the
play token, watching either token):

- ``/``: the live games, each with a link to watch it (and, for the player, the link to play);
- ``/play`` and ``/watch/GAME``: the client page (the same page: it reads its own address);
- ``/static/client.js``, ``/static/font.ttf``: the client and the game's font, fixed files;
- ``/ws/play`` and ``/ws/watch/GAME``: the frames, and the player's keys.

A client names nothing but a live game's id: there is no way to ask for a file.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
from collections.abc import AsyncIterator, Mapping
from importlib import resources

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket

from roguelike.frontend.web.guard import MAX_MESSAGE_BYTES, OPEN, PLAY, WATCH, Guard, RateLimit
from roguelike.frontend.web.keycodes import BadMessage, decode
from roguelike.frontend.web.live import POLICY_VIOLATION, TRY_AGAIN_LATER, LiveGame, Viewer
from roguelike.ground.sockets import send_all

POLICY = "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'"
HEADERS = {
    "Content-Security-Policy": POLICY,
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
}


def package_file(package: str, name: str) -> bytes:
    """A file shipped inside the game's package."""
    return resources.files(package).joinpath(name).read_bytes()


STATIC = {
    "client.js": ("text/javascript; charset=utf-8", ("roguelike.frontend.web", "static/client.js")),
    "font.ttf": ("font/ttf", ("roguelike", "data/fonts/DejaVuSansMono.ttf")),
}


class WebServer:
    """The live games of this process, served to browsers."""

    def __init__(self, games: Mapping[str, LiveGame], guard: Guard, player_game: str | None = None) -> None:
        self.games = dict(games)
        self.guard = guard
        self.player_game = player_game if player_game is not None else next(iter(self.games), None)
        self.page = package_file("roguelike.frontend.web", "static/index.html")
        self.files = {name: (kind, package_file(*where)) for name, (kind, where) in STATIC.items()}
        self.tasks: list[asyncio.Task[None]] = []
        self.app = Starlette(
            routes=[
                Route("/", self.index),
                Route("/play", self.client_page),
                Route("/watch/{game}", self.client_page),
                Route("/static/{name}", self.static),
                WebSocketRoute("/ws/play", self.play_socket),
                WebSocketRoute("/ws/watch/{game}", self.watch_socket),
            ],
            lifespan=self.lifespan,
        )

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        """Run every live game while the server runs; on the way out the screens save."""
        self.tasks = [asyncio.create_task(game.run()) for game in self.games.values()]
        try:
            yield
        finally:
            for task in self.tasks:
                task.cancel()
            await asyncio.gather(*self.tasks, return_exceptions=True)

    def refused(self, request: Request, access: str) -> Response | None:
        """A 403 saying why, when the guard does not let the request in."""
        reason = self.guard.refusal(request.headers, request.query_params, access)
        return None if reason is None else PlainTextResponse(reason, status_code=403, headers=HEADERS)

    async def index(self, request: Request) -> Response:
        """The live games, with who watches each."""
        refused = self.refused(request, WATCH)
        if refused is not None:
            return refused
        play = self.player_game if self.guard.may_play(request.query_params) else None
        return HTMLResponse(index_page(list(self.games.values()), play, self.guard), headers=HEADERS)

    async def client_page(self, request: Request) -> Response:
        """The page that plays or watches (a game that is not live: 404)."""
        game = request.path_params.get("game")
        refused = self.refused(request, PLAY if game is None else WATCH)
        if refused is not None:
            return refused
        if game is not None and game not in self.games:
            return PlainTextResponse("no such live game", status_code=404, headers=HEADERS)
        return HTMLResponse(self.page, headers=HEADERS)

    async def static(self, request: Request) -> Response:
        """One of the client's fixed files."""
        refused = self.refused(request, OPEN)
        if refused is not None:
            return refused
        found = self.files.get(request.path_params["name"])
        if found is None:
            return PlainTextResponse("not found", status_code=404, headers=HEADERS)
        kind, body = found
        return Response(body, media_type=kind, headers={**HEADERS, "Cache-Control": "max-age=3600"})

    async def play_socket(self, socket: WebSocket) -> None:
        """The player's connection: frames down, keys up."""
        game = self.games.get(self.player_game or "")
        await self.serve(socket, game, playing=True)

    async def watch_socket(self, socket: WebSocket) -> None:
        """A spectator's connection: frames down; whatever comes up is only counted against the limits."""
        await self.serve(socket, self.games.get(socket.path_params["game"]), playing=False)

    async def serve(self, socket: WebSocket, game: LiveGame | None, playing: bool) -> None:
        """Check, accept, then send frames while reading the client until either side ends."""
        reason = self.guard.socket_refusal(socket.headers, socket.query_params, PLAY if playing else WATCH)
        if reason is None and (game is None or not game.app.running):
            reason = "no such live game"
        if reason is not None or game is None:
            await socket.close(code=POLICY_VIOLATION, reason=reason)
            return
        crowded = None if playing else game.admits()
        if crowded is not None:
            await socket.close(code=TRY_AGAIN_LATER, reason=crowded)
            return
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
    """Hand the player's keys to the game until the client leaves or breaks the rules."""
    limit = RateLimit()
    while viewer.closed is None:
        message = await socket.receive()
        if message["type"] == "websocket.disconnect":
            return
        problem = take_message(message.get("bytes"), game if playing else None, limit)
        if problem is not None:
            viewer.pending.clear()
            viewer.close(problem, POLICY_VIOLATION)
            return


def take_message(data: bytes | None, game: LiveGame | None, limit: RateLimit) -> str | None:
    """Check one client message and pass its event to the game (if playing); why not, if not."""
    if data is None:
        return "only binary messages are spoken here"
    if len(data) > MAX_MESSAGE_BYTES:
        return "message too large"
    if not limit.allow():
        return "too many messages"
    if game is None:
        return None
    try:
        event = decode(data)
    except BadMessage as error:
        return str(error)
    if event is not None:
        game.events.put_nowait(event)
    return None


def index_page(games: list[LiveGame], player_game: str | None, guard: Guard) -> str:
    """The list of live games as a small page: watch links carry the watch token, the play link (for the player) the play token."""
    watch = f"?token={html.escape(guard.watch_token)}"
    rows = (
        "".join(
            f'<li><a href="/watch/{html.escape(game.id)}{watch}">{html.escape(game.title)}</a>'
            f" &middot; {len(game.watchers)} watching &middot; {'played now' if game.player else 'nobody at the keys'}</li>"
            for game in games
            if game.app.running
        )
        or "<li>No live games.</li>"
    )
    play = f'<p><a href="/play?token={html.escape(guard.play_token)}">Play</a></p>' if player_game is not None else ""
    return (
        f"<!doctype html><html lang=en><head><meta charset=utf-8><title>Hedonic Hypothesis: live games</title>"
        f"</head><body style='background:#111;color:#ddd;font-family:monospace'><h1>Hedonic Hypothesis</h1>"
        f"{play}<h2>Live games</h2><ul>{rows}</ul></body></html>"
    )
