"""Who plays a hosted game: the server's accounts once they are wired in, else one local player.

:class:`~roguelike.server.hosted.routes.Identity` is all hosted play asks of accounts
(``account_of(connection) -> str | None``; ``roguelike.server.accounts.Accounts`` satisfies it
and brings its sign-up and log-in pages). A server without accounts plays, on a loopback address
only, as one account, ``local`` (this machine's own player); on any other address
``hedonic serve --play`` refuses to start rather than let anyone claim any game.
"""

from __future__ import annotations

import importlib
import importlib.util
import ipaddress
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import Engine
from starlette.requests import HTTPConnection

from roguelike.server.hosted.routes import Identity

LOCAL = "local"
ACCOUNTS = "roguelike.server.accounts"


class LocalIdentity:
    """Every connection is this machine's one player (only ever served on loopback)."""

    def account_of(self, connection: HTTPConnection) -> str | None:
        """The one local account."""
        return LOCAL


def is_loopback(host: str) -> bool:
    """Whether a listening address is this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def has_accounts() -> bool:
    """Whether this server has accounts."""
    return importlib.util.find_spec(ACCOUNTS) is not None


def play_identity(host: str, folder: Path) -> Callable[[Engine], Identity] | None:
    """Who plays: the accounts when the server has them, else the one local player on loopback (None elsewhere)."""
    if not has_accounts():
        return (lambda engine: LocalIdentity()) if is_loopback(host) else None

    def accounts(engine: Engine) -> Identity:
        found: Identity = importlib.import_module(ACCOUNTS).Accounts(engine, folder)
        return found

    return accounts
