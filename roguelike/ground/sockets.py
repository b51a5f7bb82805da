"""A viewer's messages onto its WebSocket: the sending half of every socket the web frontend and hosted play serve.

Starlette is imported here only: the modules that import this one (``frontend/web/site.py``,
``server/hosted/routes.py``) run with the ``web`` or ``server`` extra installed.
"""

from __future__ import annotations

from starlette.websockets import WebSocket, WebSocketDisconnect

from roguelike.ground.fanout import Viewer


async def send_all(socket: WebSocket, viewer: Viewer) -> None:
    """Send the viewer's messages in order, then close with the reason it was closed for."""
    try:
        while (message := await viewer.next()) is not None:
            if isinstance(message, bytes):
                await socket.send_bytes(message)
            else:
                await socket.send_text(message)
        await socket.close(code=viewer.code, reason=(viewer.closed or "")[:100])
    except (WebSocketDisconnect, RuntimeError, OSError):
        viewer.close("gone")  # the client went away, or the socket is already closed
