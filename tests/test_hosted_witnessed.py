"""Hosted play end to end, as `hedonic serve --play` wires it: a newcomer signs up, plays today's daily in the
browser, and the game ends as a verified run in the witnessed tier, its certificate this server's."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from hosted_helpers import BASE, SOCKET
from roguelike.core.epoch import RULES_EPOCH
from roguelike.server import store
from roguelike.server.app import ScoreServer, ServerConfig
from roguelike.server.hosted import log
from roguelike.server.hosted.host import PlayOptions
from roguelike.server.hosted.identity import play_identity
from roguelike.server.witness import WITNESSED, certificate_from, raw_public, server_key, verify
from web_helpers import Client

PASSWORD = "correct horse battery"
MOST_PRESSES = 3000  # waiting out the craving ends a game in a few hundred turns


@pytest.fixture
def served(tmp_path: Path) -> ScoreServer:
    """The score server with hosted play and its accounts, on SQLite in ``tmp_path``."""
    config = ServerConfig(
        store.default_url(str(tmp_path)), workers=1, folder=str(tmp_path), play=PlayOptions(RULES_EPOCH)
    )
    return ScoreServer(config, identity=play_identity(tmp_path))


def play_to_the_end(server: ScoreServer, client: TestClient) -> log.HostedRow:
    """Wait (one key at a human rate) in the account's live game until it ends; the ended game's row."""
    cookie = "; ".join(f"{name}={value}" for name, value in client.cookies.items())
    with client.websocket_connect(f"{SOCKET}/ws/play", headers={"origin": BASE, "cookie": cookie}) as socket:
        tab = Client(socket)
        tab.frame()
        with server.engine.connect() as connection:
            (row,) = log.live_games(connection)
        for _ in range(MOST_PRESSES):
            with server.engine.connect() as connection:
                found = log.game_of(connection, row.id)
            if found is not None and found.status == log.ENDED:
                return found
            tab.press("Period", text=".")
            tab.frame()
            time.sleep(0.02)  # the socket closes a connection past 120 messages a second
    raise AssertionError("the daily game never ended")


def verdict_of(client: TestClient, digest: str) -> dict[str, object]:
    """The run's status once its verification is over."""
    for _ in range(1200):
        answer = client.get(f"/runs/{digest}")
        if answer.status_code == 200 and answer.json()["status"] != "pending":
            return dict(answer.json())
        time.sleep(0.1)
    raise AssertionError("the run was never verified")


def test_a_newcomer_signs_up_plays_the_daily_and_it_ranks_witnessed(served: ScoreServer, tmp_path: Path) -> None:
    with TestClient(served.app, base_url=BASE) as client:
        assert client.get("/play").status_code in (303, 401, 403)  # no account, no game
        signed_up = client.post("/signup", data={"name": "Ann", "password": PASSWORD, "again": PASSWORD})
        assert signed_up.url.path == "/lobby" and "Ann" in signed_up.text
        assert client.get("/play?daily=1").status_code == 200
        ended = play_to_the_end(served, client)
        assert ended.mode == log.DAILY and ended.replay_hash is not None
        run = verdict_of(client, ended.replay_hash)
        assert run["status"] == "verified" and run["tier"] == "witnessed"
        board = client.get(f"/board.json?daily={ended.day}").json()
        (entry,) = board["witnessed"]
        assert entry["hash"] == ended.replay_hash and entry["witness"]["account"] == "Ann"
        assert board["ranked"] == []  # witnessed, not a plain upload
        exported = client.get(f"/runs/{ended.replay_hash}/replay").content
        certified = served.certified(ended.replay_hash)
    assert certified is not None
    replay, certificate = certified
    assert replay == exported and certificate.seed == ended.seed and certificate.daily == ended.day
    assert datetime.fromisoformat(certificate.ended.replace("Z", "+00:00")) <= datetime.now(UTC)
    mine = raw_public(server_key(tmp_path).public_key())
    assert verify(certificate_from(certificate.file_bytes()), replay, {mine}).kind == WITNESSED
