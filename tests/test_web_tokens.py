"""Who may play a ``--web`` game and who may only watch (issue 47: R11, R18).

Any user of the machine can reach 127.0.0.1, so loopback needs a token too: the play
token plays (and watches), the watch token only watches, and a watch link never plays.
The address the game opens in the browser carries the play token, through a page only
this user can read.
"""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from roguelike.frontend.web.run import WebOptions, address, launch_page
from web_helpers import ORIGIN, PLAY_TOKEN, SOCKET, WATCH_TOKEN, connect, live_game, served


def refused_socket(client: TestClient, path: str) -> tuple[int, str]:
    """The close code and reason of a socket the server refuses."""
    with pytest.raises(WebSocketDisconnect) as refused:
        client.websocket_connect(f"{SOCKET}{path}", headers=dict(ORIGIN)).__enter__()
    return refused.value.code, refused.value.reason


@pytest.mark.parametrize("token", ["", "?token=", "?token=guess", "?token=%C3%A9t%C3%A9"])
def test_on_loopback_nothing_but_the_clients_files_answers_without_a_token(tmp_path: Path, token: str) -> None:
    with served(live_game(tmp_path)) as client:
        for page in ("/", "/play", "/watch/g1"):
            assert client.get(page + token).status_code == 403, page
        assert client.get("/static/client.js").status_code == 200
        for path in ("/ws/play", "/ws/watch/g1"):
            assert refused_socket(client, path + token)[0] == 1008, path


def test_a_watch_link_watches_and_never_plays(tmp_path: Path) -> None:
    live = live_game(tmp_path)
    with served(live) as client:
        assert client.get(f"/watch/g1?token={WATCH_TOKEN}").status_code == 200
        assert client.get(f"/play?token={WATCH_TOKEN}").status_code == 403
        code, reason = refused_socket(client, f"/ws/play?token={WATCH_TOKEN}")
        assert code == 1008 and "watch link" in reason and live.player is None
        listing = client.get(f"/?token={WATCH_TOKEN}").text
        assert f"/watch/g1?token={WATCH_TOKEN}" in listing and "/play" not in listing and PLAY_TOKEN not in listing
        with connect(client, f"/ws/watch/g1?token={WATCH_TOKEN}") as spectator:
            assert "H E D O N I C" in "\n".join(spectator.rows())


def test_the_play_token_plays_and_its_listing_hands_out_only_watch_links(tmp_path: Path) -> None:
    live = live_game(tmp_path)
    with served(live) as client:
        listing = client.get(f"/?token={PLAY_TOKEN}").text
        assert f'href="/play?token={PLAY_TOKEN}"' in listing and f"/watch/g1?token={WATCH_TOKEN}" in listing
        assert client.get(f"/play?token={PLAY_TOKEN}").status_code == 200
        with connect(client, f"/ws/play?token={PLAY_TOKEN}"):
            assert live.player is not None


def test_the_browser_is_opened_on_the_play_address_through_a_page_only_this_user_reads() -> None:
    guard = WebOptions().guard()
    play = address("127.0.0.1", 8026, "/play", guard.play_token)
    page = launch_page(play)
    try:
        assert stat.S_IMODE(page.stat().st_mode) == 0o600 and stat.S_IMODE(page.parent.stat().st_mode) == 0o700
        assert f'url={play}"' in page.read_text() and guard.play_token in play
    finally:
        page.unlink()
        page.parent.rmdir()
