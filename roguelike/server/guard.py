"""What keeps the web process reachable when clients misbehave: a deadline for each request and caps on connections.

uvicorn gives a request no deadline to arrive (only an idle kept-alive connection one), and
takes every connection it is offered: 2,000 half-sent requests held the server's sockets for
minutes and left it unreachable. :func:`guarded` makes uvicorn's HTTP/1.1 protocol close a
connection whose request has not arrived whole within ``request_seconds`` of the connection
(or of its last answer), and answer 503 and close at once past ``most`` connections, or past
``per_client`` from one address. A request that has arrived whole has no deadline here:
answering it is the server's own work.
"""

from __future__ import annotations

import asyncio
import resource
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
    b"Content-Length: 34\r\nConnection: close\r\n\r\nthe server is busy: try it later.\n"
)


class GuardedProtocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a request deadline and connection caps (set by :func:`guarded`)."""

    request_seconds = 60.0
    most = 512
    per_client = 32

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Take the connection, or answer busy and close it when too many are open."""
        super().connection_made(transport)
        self.arriving = self.loop.time()
        self.watch: asyncio.TimerHandle | None = None
        host = self.client[0] if self.client else None
        same = sum(1 for other in self.connections if client_host(other) == host)
        if len(self.connections) > self.most or (host is not None and same > self.per_client):
            transport.write(BUSY)
            transport.close()
            return
        self.watch = self.loop.call_later(self.request_seconds, self.check)

    def check(self) -> None:
        """Close the connection if its request has not arrived whole in time; else look again later."""
        if self.transport.is_closing():
            return
        waited = self.loop.time() - self.arriving
        if self.conn.their_state is not h11.DONE and waited >= self.request_seconds:
            self.transport.close()
            return
        left = self.request_seconds - waited if self.conn.their_state is not h11.DONE else self.request_seconds
        self.watch = self.loop.call_later(max(0.1, left), self.check)

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        """A WebSocket's request has arrived whole: the connection is its socket's now, with no deadline here."""
        if self.watch is not None:
            self.watch.cancel()  # else its check, still due, closed every socket request_seconds after it opened
        super().handle_websocket_upgrade(event)

    def on_response_complete(self) -> None:
        """The next request on this connection has its own deadline."""
        self.arriving = self.loop.time()
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        """Stop watching a closed connection."""
        if getattr(self, "watch", None) is not None:
            self.watch.cancel()  # type: ignore[union-attr]
        super().connection_lost(exc)


def client_host(protocol: object) -> str | None:
    """The address a connection comes from (None if unknown)."""
    client = getattr(protocol, "client", None)
    return str(client[0]) if isinstance(client, tuple) and client else None


def guarded(request_seconds: float, most: int, per_client: int) -> type[GuardedProtocol]:
    """The protocol class with these limits (uvicorn makes one per connection from the class)."""
    limits: dict[str, Any] = {"request_seconds": request_seconds, "most": most, "per_client": per_client}
    return type("Guarded", (GuardedProtocol,), limits)


def room_for(connections: int) -> None:
    """Raise this process's open-file limit (up to its hard limit) to hold the connections and some more."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections * 2 + 256
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(
            resource.RLIMIT_NOFILE, (wanted if hard == resource.RLIM_INFINITY else min(wanted, hard), hard)
        )
