"""Helpers for the hosted games' tests: a server with hosted play over a SQLite file, and an identity of our own."""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

from sqlalchemy import Engine
from starlette.applications import Starlette
from starlette.requests import HTTPConnection
from starlette.testclient import TestClient

from roguelike.core.epoch import RULES_EPOCH
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.server import store
from roguelike.server.hosted import log
from roguelike.server.hosted.host import HostedGame, PlayOptions, Times
from roguelike.server.hosted.playing import command_of
from roguelike.server.hosted.routes import HostedPlay
from web_helpers import Client

BASE = "http://127.0.0.1:8025"
SOCKET = "ws://127.0.0.1:8025"
ACCOUNT_HEADER = "x-test-account"
TURN = re.compile(r"Turn (\d+)")


class HeaderIdentity:
    """The account a request names in a header (the tests' stand-in for the accounts' signed cookie)."""

    def account_of(self, connection: HTTPConnection) -> str | None:
        """The header's account, if any."""
        return connection.headers.get(ACCOUNT_HEADER) or None


class Hosted:
    """A hosted server under test: its play, its engine, and every game it ended."""

    def __init__(self, folder: Path, **options: float) -> None:
        self.engine: Engine = store.open_engine(store.default_url(str(folder)))
        self.ended: list[tuple[str, str, bytes, Times]] = []
        self.play = HostedPlay(self.engine, PlayOptions(RULES_EPOCH, **options), HeaderIdentity(), self.on_ended)  # type: ignore[arg-type]

        @contextlib.asynccontextmanager
        async def lifespan(app: Starlette) -> AsyncIterator[None]:
            async with self.play.running():
                yield

        self.app = Starlette(routes=self.play.routes(), lifespan=lifespan)

    async def on_ended(self, game: str, account: str, replay: bytes, times: Times) -> None:
        """Keep what an ended game handed on."""
        self.ended.append((game, account, replay, times))

    def game(self, game: str) -> HostedGame:
        """A game this server runs (KeyError if it has no such game now)."""
        found = self.found(game)
        if found is None:
            raise KeyError(game)
        return found

    def found(self, game: str) -> HostedGame | None:
        """A game this server runs, or None."""
        found = self.play.games.get(game)
        assert found is None or isinstance(found, HostedGame)
        return found

    def commands(self, game: str) -> list[bytes]:
        """The game's log."""
        with self.engine.connect() as connection:
            return log.commands_of(connection, game)

    def live(self) -> list[log.HostedRow]:
        """Every live game."""
        with self.engine.connect() as connection:
            return log.live_games(connection)


@contextlib.contextmanager
def serving(folder: Path, **options: float) -> Iterator[tuple[Hosted, TestClient]]:
    """A hosted server and a client of it on the loopback address."""
    hosted = Hosted(folder, **options)
    with TestClient(hosted.app, base_url=BASE) as client:
        yield hosted, client
    hosted.engine.dispose()


def as_account(account: str) -> dict[str, str]:
    """The headers of a page of this server, signed in as ``account``."""
    return {ACCOUNT_HEADER: account, "origin": BASE}


@contextlib.contextmanager
def player(client: TestClient, account: str, path: str = "/ws/play") -> Iterator[Client]:
    """The account's connection from this server's page, with its first frame taken."""
    with client.websocket_connect(f"{SOCKET}{path}", headers=as_account(account)) as socket:
        connection = Client(socket)
        connection.frame()
        yield connection


def turn_shown(rows: list[str]) -> int | None:
    """The turn the panel shows, if it shows one."""
    found = next((TURN.search(row) for row in rows if TURN.search(row)), None)
    return None if found is None else int(found.group(1))


def replayed(hosted: Hosted, game: str) -> Game:
    """The game its log makes: the seed, then every accepted command (what any resume must match)."""
    row = next(row for row in hosted.live() if row.id == game)
    rebuilt = Game.new(row.seed, row.account)
    session = Session(rebuilt)
    for data in hosted.commands(game):
        session.apply(command_of(data))
    return rebuilt


def settled(hosted: Hosted, connection: Client, game: str, commands: int) -> int:
    """Take frames until the log holds ``commands`` commands and the screen shows the turn they lead to; that turn."""
    for _ in range(2000):
        logged = hosted.commands(game)
        if len(logged) >= commands:
            turn = replayed(hosted, game).state.turn
            connection.until(lambda rows: turn_shown(rows) == turn)
            return turn
        connection.frame()
    raise AssertionError(f"the log never reached {commands} commands")
