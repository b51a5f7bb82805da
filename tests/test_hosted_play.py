"""Hosted play through its routes: a game that survives dropped sockets, second tabs and idling, and the lobby."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from hosted_helpers import BASE, HeaderIdentity, as_account, player, replayed, serving, settled, turn_shown
from roguelike.core.epoch import RULES_EPOCH
from roguelike.frontend import frames
from roguelike.server import store
from roguelike.server.accountpages import shown
from roguelike.server.app import ScoreServer, ServerConfig
from roguelike.server.hosted import log
from roguelike.server.hosted.host import HostedGame, PlayOptions

DROPS = 50


def test_dropping_the_socket_mid_game_resumes_at_the_same_turn_every_time(tmp_path: Path) -> None:
    with serving(tmp_path) as (hosted, client):
        assert client.get("/play", headers=as_account("ann")).status_code == 200
        (game,) = [row.id for row in hosted.live()]
        for drop in range(DROPS):
            with player(client, "ann") as tab:
                tab.press("Period", text=".")
                turn = settled(hosted, tab, game, drop + 1)
            with player(client, "ann") as tab:
                assert turn_shown(tab.rows()) == turn  # the keyframe of the resumed game, at once
        assert [row.id for row in hosted.live()] == [game]
        assert len(hosted.commands(game)) == DROPS


def test_a_second_tab_takes_over_the_one_game_and_never_starts_another(tmp_path: Path) -> None:
    with serving(tmp_path) as (hosted, client):
        with player(client, "ann") as first:
            (game,) = [row.id for row in hosted.live()]
            first.press("Period", text=".")
            settled(hosted, first, game, 1)
            with player(client, "ann") as second:
                code, reason = first.ended()
                assert (code, reason) == (1008, "the game was opened in another tab")
                second.press("Period", text=".")
                turn = settled(hosted, second, game, 2)
                assert client.get("/play", headers=as_account("ann")).status_code == 200  # a laggy "continue"
                assert [row.id for row in hosted.live()] == [game]
                assert turn == replayed(hosted, game).state.turn


def test_an_idle_game_ends_its_process_and_resumes_from_its_log(tmp_path: Path) -> None:
    with serving(tmp_path, idle_seconds=0.4, snapshot_every=2) as (hosted, client):
        with player(client, "ann") as tab:
            (game,) = [row.id for row in hosted.live()]
            for count in range(1, 6):
                tab.press("Period", text=".")
                turn = settled(hosted, tab, game, count)
            hosted_game = hosted.game(game)
            deadline = time.monotonic() + 20
            while hosted_game.running and time.monotonic() < deadline:
                time.sleep(0.05)
            assert not hosted_game.running  # no process for an idle game; the player is still connected
            tab.press("Period", text=".")  # the next key rebuilds it from the newest save and the log after it
            assert settled(hosted, tab, game, 6) > turn
        with hosted.engine.connect() as connection:
            assert log.newest_snapshot(connection, game) is not None


def test_a_key_pressed_while_an_idle_games_process_is_ending_starts_it_again_and_is_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    taken_in = HostedGame.gone
    let_go = threading.Event()  # the process's end is taken in only once the key has come

    async def held_gone(game: HostedGame, status: int | None) -> None:
        await asyncio.to_thread(let_go.wait, 120)
        await taken_in(game, status)

    monkeypatch.setattr(HostedGame, "gone", held_gone)
    with serving(tmp_path, idle_seconds=0.4) as (hosted, client), player(client, "ann") as tab:
        (game,) = [row.id for row in hosted.live()]
        tab.press("Period", text=".")
        settled(hosted, tab, game, 1)
        hosted_game = hosted.game(game)
        until(lambda: hosted_game.stopping, "the idle game asked to end")
        assert hosted_game.running  # asked to end for idling, its end not yet taken in
        pressed_before = hosted_game.last_input
        tab.press("Period", text=".")
        until(lambda: hosted_game.last_input != pressed_before, "the key reaching the game")
        let_go.set()
        until(lambda: len(hosted.commands(game)) == 2, "the key accepted into the log")
        assert settled(hosted, tab, game, 2) == replayed(hosted, game).state.turn


def until(done: Callable[[], bool], what: str) -> None:
    """Wait for ``done`` (a bound far above the work: a machine at load 10 passes)."""
    deadline = time.monotonic() + 120
    while not done():
        assert time.monotonic() < deadline, f"waited 120 s for {what}"
        time.sleep(0.01)


def test_a_daily_game_never_shows_its_seed_and_the_lobby_escapes_names(tmp_path: Path) -> None:
    name = "<b>x</b>'\x1b[31m;--"
    with serving(tmp_path) as (hosted, client):
        assert client.get("/play?daily=1", headers=as_account(name)).status_code == 200
        (row,) = hosted.live()
        assert row.mode == log.DAILY
        with player(client, name) as tab:
            for count in range(2, 5):  # the first command marks the game a daily
                tab.press("Period", text=".")
                settled(hosted, tab, row.id, count)
            screens, cells = [], None
            for message in tab.messages:  # every screen the browser was sent
                cells = frames.apply(cells, message)
                screens.append("\n".join(frames.text_rows(cells)))
            assert len(screens) > 3 and not [screen for screen in screens if str(row.seed) in screen]
            lobby = client.get("/lobby", headers=as_account("bob")).text
        assert shown(name) in lobby and name not in lobby and "\x1b" not in lobby  # escaped, ESC shown as U+FFFD
        assert str(row.seed) not in lobby
        assert client.get("/play").status_code == 401  # nobody signed in


def test_an_ended_game_is_kept_as_a_run_and_verified_as_uploads_are(tmp_path: Path) -> None:
    config = ServerConfig(store.default_url(str(tmp_path)), workers=1, play=PlayOptions(RULES_EPOCH))
    server = ScoreServer(config, identity=lambda engine: HeaderIdentity())
    assert server.hosted is not None
    with TestClient(server.app, base_url=BASE) as client, player(client, "ann") as tab:
        with server.engine.connect() as connection:
            (row,) = log.live_games(connection)
        for _ in range(2000):  # waiting out the craving ends a game in a few hundred turns
            with server.engine.connect() as connection:
                found = log.game_of(connection, row.id)
            if found is not None and found.status == log.ENDED:
                break
            tab.press("Period")
            tab.frame()
            time.sleep(0.02)  # a human rate: the socket's limit is 120 messages a second
        assert found is not None and found.replay_hash is not None
        for _ in range(600):
            run = client.get(f"/runs/{found.replay_hash}")
            if run.status_code == 200 and run.json()["status"] != "pending":
                break
            time.sleep(0.1)
        assert run.json()["status"] == "verified"
        assert client.get("/play", headers=as_account("ann")).status_code == 200
        with server.engine.connect() as connection:
            assert [live.id for live in log.live_games(connection)] != [row.id]  # the next /play starts a new game


def test_a_spectator_joining_late_gets_the_players_screen_and_follows_it(tmp_path: Path) -> None:
    with serving(tmp_path) as (hosted, client), player(client, "ann") as tab:
        (row,) = hosted.live()
        for count in range(1, 4):
            tab.press("Period", text=".")
            turn = settled(hosted, tab, row.id, count)
        assert "ann" in client.get("/lobby").text and client.get(f"/watch/{row.id}").status_code == 200
        with player(client, "bob", f"/ws/watch/{row.id}") as spectator:
            assert turn_shown(spectator.rows()) == turn  # the keyframe of the player's screen
            tab.press("Period", text=".")
            after = settled(hosted, tab, row.id, 4)
            spectator.until(lambda rows: turn_shown(rows) == after)
            spectator.press("Period", text=".")  # a spectator's keys play nothing
        assert len(hosted.commands(row.id)) == 4
        assert client.get("/watch/nosuchgame").status_code == 404


def test_a_killed_game_is_rebuilt_at_once_for_its_player_with_a_one_line_notice(tmp_path: Path) -> None:
    with serving(tmp_path) as (hosted, client), player(client, "ann") as tab:
        (row,) = hosted.live()
        tab.press("Period", text=".")
        turn = settled(hosted, tab, row.id, 1)
        os.kill(hosted.game(row.id).process.pid, signal.SIGKILL)
        rows = tab.until(lambda rows: any("rebuilt from the server's log" in line for line in rows))
        assert sum("rebuilt from the server's log" in line for line in rows) == 1
        assert turn_shown(rows) == turn
        tab.press("Period", text=".")
        assert settled(hosted, tab, row.id, 2) > turn


def test_a_game_process_runs_under_its_memory_and_cpu_limits(tmp_path: Path) -> None:
    with serving(tmp_path, memory_bytes=900 * 1024 * 1024, cpu_seconds=1800) as (hosted, client):
        with player(client, "ann") as tab:
            (row,) = hosted.live()
            tab.until(lambda rows: turn_shown(rows) == 0)  # the game's own first frame: its limits are set
            limits = Path(f"/proc/{hosted.game(row.id).process.pid}/limits").read_text()
    address = next(line for line in limits.splitlines() if line.startswith("Max address space"))
    cpu = next(line for line in limits.splitlines() if line.startswith("Max cpu time"))
    assert address.split()[3] == str(900 * 1024 * 1024)
    assert 1800 <= int(cpu.split()[3]) <= 1810
