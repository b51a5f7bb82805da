"""The web frontend in-process: the browser's protocol against the real server and game."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
import tcod.console
import tcod.event
from starlette.websockets import WebSocketDisconnect

import roguelike.frontend.web.site
from helpers import player_xy
from roguelike.frontend import frames
from roguelike.frontend.web.guard import Guard, RateLimit
from roguelike.frontend.web.live import LiveGame
from roguelike.saves import Games
from roguelike.screens.base import App, Screen, Transition
from roguelike.screens.ingame import InGameScreen
from web_helpers import BASE, ORIGIN, PLAY_TOKEN, SOCKET, WATCH_TOKEN, connect, live_game, new_game, served


def player_at(rows: list[str]) -> tuple[int, int]:
    """Where the @ is on the map rows."""
    for y, row in enumerate(rows[:21]):
        if "@" in row:
            return row.index("@"), y
    raise AssertionError("no @ on the map")


def test_a_client_starts_with_a_keyframe_of_the_whole_screen(tmp_path: Path) -> None:
    live = live_game(tmp_path)
    with served(live) as client, connect(client) as player:
        first = player.messages[0]
        assert first[0] == frames.KEYFRAME and len(first) == 5 + 80 * 25 * 10
        assert "H E D O N I C" in "\n".join(player.rows())
        assert player.rows() == frames.text_rows(frames.cells_of(live.console))


def test_keys_from_the_browser_play_the_same_game_which_autosaves(tmp_path: Path) -> None:
    live = live_game(tmp_path)
    with served(live) as client, connect(client) as player:
        new_game(player)
        screen = live.app.stack[-1]
        assert isinstance(screen, InGameScreen)
        for count in (1, 2, 3):
            player.press("Period")  # wait: a turn passes whatever is around
            player.until(
                lambda rows: (
                    screen.game.state.turn == count
                    and player.cells is not None
                    and (player.cells == live.screenful.cells).all()
                )
            )
        for code in ("KeyL", "KeyH", "KeyJ", "KeyK", "Numpad6", "ArrowLeft", "Numpad2", "ArrowUp"):
            player.press(code)
            player.until(lambda rows: player_at(rows) == player_xy(screen.game))
        player.until(lambda rows: player.cells is not None and (player.cells == live.screenful.cells).all())
    saves = Games(tmp_path).saves()
    assert [save.name for save in saves] == ["Ann"]  # autosaved every turn, closed with the server


def test_diffs_carry_only_the_cells_that_changed(tmp_path: Path) -> None:
    live = live_game(tmp_path)
    with served(live) as client, connect(client) as player:
        new_game(player)
        before = player.cells
        assert before is not None
        player.press("Period")  # wait a turn
        message = player.frame()
        assert message[0] == frames.DIFF
        assert len(message) < 5 + 80 * 25 * 10
        assert player.cells is not None and (player.cells != before).any()


def test_typed_text_names_the_character(tmp_path: Path) -> None:
    live = live_game(tmp_path)
    with served(live) as client, connect(client) as player:
        new_game(player, "Zoë")
        screen = live.app.stack[-1]
        assert isinstance(screen, InGameScreen) and screen.game.state.name == "Zoë"


def test_the_player_is_told_how_many_watch(tmp_path: Path) -> None:
    live = live_game(tmp_path)
    with served(live) as client, connect(client) as player:
        with connect(client, "/ws/watch/g1"):
            player.press("ArrowDown")  # the title menu's selection moves: a frame follows the note
            player.frame()
            assert {"watchers": 1, "title": "at the title screen"} in player.notes


@pytest.mark.parametrize("origin", [None, "http://evil.example", "http://127.0.0.1:9999"])
def test_a_socket_from_another_page_is_refused(tmp_path: Path, origin: str | None) -> None:
    with served(live_game(tmp_path)) as client:
        headers = {} if origin is None else {"origin": origin}
        with pytest.raises(WebSocketDisconnect) as refused:
            client.websocket_connect(f"{SOCKET}/ws/play?token={PLAY_TOKEN}", headers=headers).__enter__()
        assert refused.value.code == 1008


def test_on_loopback_a_foreign_host_name_is_refused(tmp_path: Path) -> None:
    with served(live_game(tmp_path)) as client:
        assert client.get(f"/?token={PLAY_TOKEN}", headers={"host": "rebound.example:8026"}).status_code == 403
        assert client.get(f"/?token={PLAY_TOKEN}").status_code == 200
        with pytest.raises(WebSocketDisconnect):
            client.websocket_connect(
                f"ws://rebound.example:8026/ws/play?token={PLAY_TOKEN}",
                headers={"origin": "http://rebound.example:8026"},
            ).__enter__()


def test_beyond_loopback_every_page_and_socket_needs_the_token(tmp_path: Path) -> None:
    with served(live_game(tmp_path), Guard(False, "sesame", "seen")) as client:
        assert client.get("/").status_code == 403
        assert client.get("/?token=wrong").status_code == 403
        page = client.get("/?token=sesame")
        assert page.status_code == 200 and "/watch/g1?token=seen" in page.text
        assert client.get("/static/client.js").status_code == 200  # the client itself is no secret
        with pytest.raises(WebSocketDisconnect):
            client.websocket_connect(f"{SOCKET}/ws/watch/g1", headers=dict(ORIGIN)).__enter__()
        with connect(client, "/ws/watch/g1?token=sesame") as spectator:
            assert "H E D O N I C" in "\n".join(spectator.rows())


@pytest.mark.parametrize(
    "message",
    [
        b"",
        b"\x99",
        b"\x10\x00Key H",
        b"\x11" + b"x" * 40,
        b"\x13\x01\x01\x09",
        b"\x11\xff\xfe",
        b"\x10" + b"\x00" + b"A" * 70,
    ],
)
def test_a_malformed_or_oversized_message_ends_the_connection(tmp_path: Path, message: bytes) -> None:
    with served(live_game(tmp_path)) as client, connect(client) as player:
        player.socket.send_bytes(message)
        code, reason = player.ended()
        assert code == 1008 and reason


def test_a_flood_of_messages_ends_the_connection(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The bucket's clock stands still: on a loaded machine the 400 messages could otherwise
    # trickle in slower than the bucket refills, and the test would wait for ever.
    monkeypatch.setattr(roguelike.frontend.web.site, "RateLimit", functools.partial(RateLimit, clock=lambda: 0.0))
    with served(live_game(tmp_path)) as client, connect(client, "/ws/watch/g1") as spectator:
        for _ in range(400):
            spectator.socket.send_bytes(b"\x12\x01\x01")
        assert spectator.ended() == (1008, "too many messages")


def test_text_messages_are_not_spoken(tmp_path: Path) -> None:
    with served(live_game(tmp_path)) as client, connect(client) as player:
        player.socket.send_text("../../etc/passwd")
        assert player.ended() == (1008, "only binary messages are spoken here")


def test_no_route_serves_a_file_a_client_names(tmp_path: Path) -> None:
    with served(live_game(tmp_path)) as client:
        assert client.get("/static/client.js").text.startswith("// Hedonic Hypothesis")
        for path in (
            "/static/..%2f..%2fsetup.cfg",
            "/static/../__init__.py",
            "/static/index.html%00",
            "/watch/..%2f..",
            "/static/frames.py",
        ):
            assert client.get(path).status_code == 404, path


def test_the_front_page_lists_the_live_game(tmp_path: Path) -> None:
    live = live_game(tmp_path)
    with served(live) as client:
        page = client.get(BASE + f"/?token={WATCH_TOKEN}")
        assert f'href="/watch/g1?token={WATCH_TOKEN}"' in page.text and "at the title screen" in page.text
        assert "default-src 'self'" in page.headers["content-security-policy"]
        assert client.get(f"/watch/g1?token={WATCH_TOKEN}").status_code == 200
        assert client.get(f"/watch/nope?token={WATCH_TOKEN}").status_code == 404


class Exploding(Screen):
    """A screen whose next key breaks the game."""

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """Break on a key."""
        if isinstance(event, tcod.event.KeyDown):
            raise RuntimeError("the floor gave way")
        return None

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """A word on the screen."""
        console.print(0, 0, "steady")


def test_a_crash_is_reported_and_shown_to_every_viewer(tmp_path: Path) -> None:
    live = LiveGame(App(Exploding()), "g1")
    with served(live) as client, connect(client) as player, connect(client, "/ws/watch/g1") as spectator:
        player.press("KeyA")
        assert player.ended()[0] == 1001 and spectator.ended()[0] == 1001
        told = [note["closed"] for note in player.notes if "closed" in note]
        assert len(told) == 1 and "crash" in str(told[0]).lower()
    assert isinstance(live.crash, RuntimeError) and not live.app.running
    report = re.search(r"(\S+crash-\S+\.txt)", str(told[0]))
    assert report is not None and "the floor gave way" in Path(report[1]).read_text(encoding="utf-8")
