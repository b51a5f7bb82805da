"""The server stays reachable when clients misbehave (issue 47: R5): a request that does not arrive in time
is closed (a WebSocket, whose request has arrived, is not), connections past the caps are answered busy, and
a repeated error is logged a few times, not thousands."""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.error import HTTPError

import uvicorn
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket
from websockets.asyncio.client import connect

from roguelike.server.guard import guarded
from roguelike.server.quota import Hush
from server_helpers import ServerProcess, get
from server_services import wait_for

HALF_SENT = b"POST /runs HTTP/1.1\r\nHost: here\r\nContent-Length: 1000\r\n\r\nHHREPLAY"


def address(base: str) -> tuple[str, int]:
    """The host and port of ``http://host:port``."""
    host, port = base.removeprefix("http://").rsplit(":", 1)
    return host, int(port)


def half_sent(base: str) -> socket.socket:
    """A connection that sends the start of an upload and then nothing more."""
    connection = socket.create_connection(address(base), timeout=120)
    connection.sendall(HALF_SENT)
    return connection


def test_a_request_that_does_not_arrive_in_time_is_closed(tmp_path: Path) -> None:
    server = ServerProcess("--db", f"sqlite:///{tmp_path}/runs.sqlite", "--port", "0", "--request-timeout", "1")
    try:
        slow = [half_sent(server.base) for _ in range(3)]
        silent = socket.create_connection(address(server.base), timeout=120)
        answers = [connection.recv(100) for connection in (*slow, silent)]  # far above the 1 s: a machine at load
        assert answers == [b""] * 4  # closed by the server, nothing answered
        assert get(server.base, "/board.json")["ranked"] == []
    finally:
        server.stop()


def test_connections_past_the_cap_are_answered_busy_and_the_server_stays_reachable(tmp_path: Path) -> None:
    server = ServerProcess(
        "--db", f"sqlite:///{tmp_path}/runs.sqlite", "--port", "0", "--connections", "6", "--request-timeout", "600"
    )
    try:
        held = [half_sent(server.base) for _ in range(6)]
        extra = socket.create_connection(address(server.base), timeout=120)
        busy = extra.recv(200)
        assert busy.startswith(b"HTTP/1.1 503") and extra.recv(200) == b""
        for connection in held:
            connection.close()
        wait_for(lambda: answers(server.base), 60, "the server stayed busy after the held connections went")
    finally:
        server.stop()


def test_a_websocket_is_not_closed_at_the_request_deadline() -> None:
    """A hosted game's socket stays open: every one was cut request_seconds after it opened."""
    with echo_server(request_seconds=0.5) as base:
        asyncio.run(held_socket_echoes(base))


async def held_socket_echoes(base: str) -> None:
    """A socket opened first still echoes once a silent connection opened after it is closed at its deadline."""
    async with connect(base.replace("http://", "ws://") + "/echo") as held:
        with socket.create_connection(address(base), timeout=120) as late:  # its deadline falls after the socket's
            assert await asyncio.to_thread(late.recv, 100) == b""
        await held.send(b"still here")
        assert await held.recv() == b"still here"


@contextmanager
def echo_server(request_seconds: float) -> Iterator[str]:
    """uvicorn with the server's guard, serving a WebSocket that echoes, in a thread; its address."""

    async def echo(connection: WebSocket) -> None:
        await connection.accept()
        while (message := await connection.receive())["type"] != "websocket.disconnect":
            await connection.send_bytes(message.get("bytes") or b"")

    listening = socket.create_server(("127.0.0.1", 0))
    app = Starlette(routes=[WebSocketRoute("/echo", echo)])
    config = uvicorn.Config(app, http=guarded(request_seconds, 512, 32), log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    try:
        wait_for(lambda: server.started, 60, "the echo server did not start")
        yield f"http://127.0.0.1:{listening.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(60)


def answers(base: str) -> bool:
    """Whether the board answers (not 503: the server may not have seen the closed ones go yet)."""
    try:
        ranked: list[object] = get(base, "/board.json")["ranked"]
        return ranked == []
    except HTTPError as error:
        assert error.code == 503
        return False


class Written(logging.Handler):
    """The messages a handler was given."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def test_a_repeated_error_is_logged_a_few_times_a_minute_then_counted() -> None:
    now = [0.0]
    written = Written()
    written.addFilter(Hush(most=5, window=60, clock=lambda: now[0]))
    log = logging.getLogger("hedonic.test.hush")
    log.propagate = False
    log.addHandler(written)
    for _ in range(10_000):
        log.error("socket.accept() out of system resource")
    log.error("another kind of trouble")
    now[0] += 60
    log.error("socket.accept() out of system resource")
    log.removeHandler(written)
    assert written.lines[:6] == ["socket.accept() out of system resource"] * 5 + ["another kind of trouble"]
    assert written.lines[6:] == [
        "socket.accept() out of system resource [9995 more like this were not logged in the last 60 s]"
    ]
