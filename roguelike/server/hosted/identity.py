"""Who plays a hosted game: the server's accounts.

:class:`~roguelike.server.hosted.routes.Identity` is all hosted play asks of accounts
(``account_of(connection) -> str | None``); :class:`roguelike.server.accounts.Accounts`
satisfies it and brings its sign-up, log-in and log-out pages, which the server serves beside
the hosted routes.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from sqlalchemy import Engine

from roguelike.server.hosted.routes import Identity


def play_identity(folder: Path) -> Callable[[Engine], Identity]:
    """The server's accounts, their session key kept in ``folder``."""

    def accounts(engine: Engine) -> Identity:
        from roguelike.server.accounts import Accounts

        return Accounts(engine, folder, home="/lobby")

    return accounts
