"""Hosted play under a bounded load: 50 bot-driven browsers (WebSocket clients) for the issue's 2 minutes.

The server is ``hedonic serve``'s own application with hosted play (``bench.bench_hosted serve``, in a
process of its own on a loopback port); the players are :mod:`bench.hosted_players`, which the load
bench drives too. Each player is one account: it presses a key only once the frame answering the
last one came (each key's command is known from the player's own copy of its game, and so is what
the screen must show after it), drops its socket now and then, and starts a new game when one ends.

What a player relies on is asserted, never a time: every key is answered by a frame showing its
effect (within a bound far above the work), the log holds exactly the commands the keys made, in
order (none lost, none applied twice, none from nowhere), the server's own game is the log's
replay (its newest save is the state the log makes at that command), every ended game's replay
verifies, no player met an error, and the server still plays afterwards (its game processes forked
from a fork server that has the game loaded). The two minutes fit CI:
about 2 minutes 20 seconds of one worker, at a player's pace (a key every 0.5 to 1.5 s once the
last is answered) that keeps the 50 games from taking both of CI's cores from the other worker.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from bench.bench_hosted import cmdline, game_processes, parent_of
from bench.game_copies import rebuilt
from bench.hosted_players import PlayedGame, Player, Served, Tally, play_all
from roguelike.core.snapshot import checksum
from roguelike.saves.savefile import read_save
from roguelike.server.hosted import log
from roguelike.server.hosted.gameproc import PLAYING

CLIENTS = 50
SECONDS = 120.0
THINK = (0.5, 1.5)  # seconds between a key's frame and the next key
DROPS = 0.01  # the chance, after each key, that the socket is dropped and the game resumed
SNAPSHOT_EVERY = 20
VERDICT_SECONDS = 600.0  # the ended games' verification: a bound far above the work


@pytest.mark.long(125)
def test_fifty_bot_driven_browsers_for_two_minutes_lose_no_key_and_apply_none_twice(tmp_path: Path) -> None:
    with Served(tmp_path / "server", snapshot_every=SNAPSHOT_EVERY) as served:
        tally = play_all(served, CLIENTS, SECONDS, THINK, DROPS)
        assert_games_fork_from_the_game_loaded(served)
        assert tally.errors == []
        played = {game.account for game in tally.games if game.commands}
        assert played == {f"bot{index}" for index in range(CLIENTS)}  # every player was answered
        assert_one_game_at_a_time(served, tally)
        for game in tally.games:
            assert served.commands(game.id) == game.commands, f"{game.account}'s game {game.id} is not its keys"
        assert_saves_are_the_logs_state(served, tally.games, tmp_path)
        assert_ended_games_verify(served, [game for game in tally.games if game.ended])
        assert_still_plays(served)


def assert_games_fork_from_the_game_loaded(served: Served) -> None:
    """The live games' processes fork from a fork server that loaded the game once (no import each, pages shared)."""
    assert served.process is not None
    games = game_processes(served.process.pid)
    assert games  # the games still live keep their processes until idle
    assert all(PLAYING in cmdline(parent_of(pid) or 0) for pid in games)


def assert_one_game_at_a_time(served: Served, tally: Tally) -> None:
    """The log has exactly the players' games: a dropped socket resumed the same game, never a second one."""
    assert served.engine is not None
    with served.engine.connect() as connection:
        rows = [log.HostedRow.of(row) for row in connection.execute(log.hosted_games.select())]
    assert sorted(row.id for row in rows) == sorted(game.id for game in tally.games)
    ended = {game.id for game in tally.games if game.ended}
    assert {row.id for row in rows if row.status == log.ENDED} == ended
    assert len({row.account for row in rows if row.status == log.LIVE}) == len(rows) - len(ended)


def assert_saves_are_the_logs_state(served: Served, games: list[PlayedGame], scratch: Path) -> None:
    """Each live game's newest save (made by its own process) is the state its log makes at that command."""
    compared = 0
    assert served.engine is not None
    for game in games:
        with served.engine.connect() as connection:
            row = log.game_of(connection, game.id)
            newest = log.newest_snapshot(connection, game.id)
        assert row is not None
        if row.status != log.LIVE or newest is None:
            continue
        seq, data = newest
        path = scratch / f"{game.id}.save"
        path.write_bytes(data)
        assert read_save(path).checksum == checksum(rebuilt(row, game.commands[:seq])), f"game {game.id} at {seq}"
        compared += 1
    assert compared > 0


def assert_ended_games_verify(served: Served, ended: list[PlayedGame]) -> None:
    """Every ended game's replay was kept as a run and verified as an upload is."""
    for game in ended:
        row = served.game_row(game.id)
        assert row is not None and row.replay_hash is not None
        deadline = time.monotonic() + VERDICT_SECONDS
        while (status := run_status(served, row.replay_hash)) in (None, "pending") and time.monotonic() < deadline:
            time.sleep(0.5)
        assert status == "verified", f"{game.account}'s game {game.id}: {status}"


def run_status(served: Served, digest: str) -> str | None:
    """A run's status on the server, or None if it has none yet."""
    code, body = served.get(f"/runs/{digest}")
    return str(json.loads(body)["status"]) if code == 200 else None


def assert_still_plays(served: Served) -> None:
    """After the load the server shows its lobby, and a newcomer's game takes keys and answers them."""
    assert served.get("/lobby")[0] == 200
    tally = Tally()
    newcomer = Player(served, "newcomer", THINK, 0.0, tally)
    row, game = newcomer.open_game()
    played = PlayedGame(row.id, "newcomer")
    for _ in range(3):
        newcomer.press_one(game, played)
    newcomer.hang_up()
    assert tally.errors == [] and served.commands(row.id) == played.commands
