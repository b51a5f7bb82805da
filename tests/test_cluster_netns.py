"""Hosted play on several machines, with machines failing: 20 bot-played games through 100 host kills and
20 partitions, a gateway killed, and a spectator on one gateway watching a game played through the other.

The machines are network namespaces on one bridge (``tests/netns_lab.py``): PostgreSQL and Redis
on ``db``, four hosts and two gateways, each in its own. Every ``KILL_EVERY`` seconds a host is
killed with ``kill -9`` and started again (a new process and consumer, forked by its machine's
forker, which imported what a host runs once: a hundred hosts' imports are not what is tested);
every ``CUT_EVERY`` seconds another has its cable cut for ``CUT_SECONDS`` (long enough for
PostgreSQL to let its session go) and then mended. The chaos is a schedule, not an outcome: players play until it is done and each has
then seen keys answered, and again after a gateway is killed (bounds far above the work, no
clock deciding anything). The players (``bench/cluster_players.py``) press keys a bot chooses
and keep their own copy of each game; a key whose frame does not come is pending until a later
key's frame comes (then the log is final up to that key: the pending key was applied there, in
the order pressed, or never). What must hold:
every game's log is exactly the commands its player saw accepted (none lost, none twice), in
the order pressed; every row of a log was written by the game's owner of the time (its fencing
tokens never go down along the log: a cut-off host that came back wrote nothing after its
game was taken); every game, rebuilt from its log, is the player's; every ended game's replay
verifies; the spectator on the first gateway sees the turn the player on the second reached.
"""

from __future__ import annotations

import math
import threading
import time

import pytest
from sqlalchemy import Engine, select

from bench.cluster_players import ClusterPlayer, Gateways, Spectator
from bench.cluster_site import PORT, START_SECONDS, Site, site
from bench.game_copies import rebuilt
from bench.hosted_players import Tally
from roguelike.server import store
from roguelike.server.child import ChildLimits, verify_bytes
from roguelike.server.hosted import log

HOSTS, GATEWAYS = ("h1", "h2", "h3", "h4"), ("g1", "g2")
GAMES = 20
KILLS, CUTS = 100, 20
KILL_EVERY, CUT_EVERY, CUT_SECONDS = 1.7, 8.5, 6.0  # each host lives ~5-7 s: long enough to play between takeovers
THINK = (0.2, 0.5)
AFTER_KEYS = 5  # keys each player has confirmed after the chaos, and again after a gateway is killed
CHAOS_BOUND = 900.0  # seconds: far above the work (the chaos's schedule is ~3 minutes)


def chaos(running: Site) -> None:
    """Kill hosts and cut others off until every kill and cut is done."""
    deadline = time.monotonic() + CHAOS_BOUND
    next_kill, next_cut, mend_at, cut = time.monotonic(), time.monotonic() + 2.0, 0.0, ""
    turn = 0
    while running.kills < KILLS or running.cuts < CUTS or cut:
        assert time.monotonic() < deadline, f"the chaos was not done in {CHAOS_BOUND:g} s"
        now = time.monotonic()
        if cut and now >= mend_at:
            running.net.mend(cut)
            cut = ""
        if not cut and running.cuts < CUTS and now >= next_cut:
            cut = HOSTS[running.cuts % len(HOSTS)]
            running.net.cut(cut)
            running.cuts += 1
            mend_at, next_cut = now + CUT_SECONDS, now + CUT_EVERY
        if running.kills < KILLS and now >= next_kill:
            turn += 1
            candidates = [host for host in HOSTS if host != cut]
            victim = candidates[turn % len(candidates)]
            running.restart(victim)
            next_kill = now + KILL_EVERY
        time.sleep(0.05)


def watch_through_chaos(
    running: Site, people: Gateways, gateways: list[tuple[str, int]], players: list[ClusterPlayer]
) -> list[object]:
    """The chaos, then a gateway killed, with bot1's game watched through the first gateway: the turns seen."""
    watched = watch_bot1(people, gateways)
    seen: list[object] = []
    stop = threading.Event()
    watching = threading.Thread(target=keep_watching, args=(watched, seen, stop))
    watching.start()
    try:
        chaos(running)
        play_on(players, AFTER_KEYS)
    finally:
        stop.set()
        watching.join()
        watched.close()
    running.restart("g1")  # a gateway dies: its players go on through the other
    play_on(players, AFTER_KEYS)
    return seen


def play_on(players: list[ClusterPlayer], keys: int) -> None:
    """Wait until every player has had ``keys`` more keys confirmed (or has stopped with an error)."""
    deadline = time.monotonic() + CHAOS_BOUND
    goals = [player.confirmed + keys for player in players]
    while any(
        player.confirmed < goal and not player.done.is_set() for player, goal in zip(players, goals, strict=True)
    ):
        assert time.monotonic() < deadline, f"the players did not press {keys} keys in {CHAOS_BOUND:g} s"
        time.sleep(0.1)


def tokens_rise(engine: Engine, game: str) -> bool:
    """Whether a game's log was written by its owners in turn (tokens never go down along the log)."""
    with engine.connect() as connection:
        tokens = connection.execute(
            select(log.hosted_inputs.c.token).where(log.hosted_inputs.c.game == game).order_by(log.hosted_inputs.c.seq)
        ).scalars()
        seen = [token for token in tokens if token is not None]
    return seen == sorted(seen) and len(seen) > 0


@pytest.mark.long(220)
def test_games_outlive_killed_and_cut_off_hosts_and_gateways() -> None:
    with site(HOSTS, GATEWAYS, forked=True) as (running, engine):
        gateways = [(running.net.address(gateway), PORT) for gateway in GATEWAYS]
        people = Gateways(gateways, engine, running.redis)
        tally = Tally()
        players = [ClusterPlayer(people, f"bot{index}", THINK, tally, first=index) for index in range(GAMES)]
        threads = [threading.Thread(target=player.run, args=(math.inf,)) for player in players]
        for thread in threads:
            thread.start()
        try:
            seen = watch_through_chaos(running, people, gateways, players)
        finally:
            for player in players:
                player.stop.set()
            for thread in threads:
                thread.join()
        assert running.kills == KILLS + 1 and running.cuts == CUTS
        assert tally.errors == [], "\n".join(tally.errors)
        assert len(tally.games) >= GAMES and tally.keys > 20 * GAMES
        turns = {turn for turn in seen if isinstance(turn, int)}
        assert len(turns) > 1, f"the spectator on the first gateway did not see bot1's game go on: {seen[-3:]}"
        check_logs(engine, tally)
        check_spectator(engine, gateways[0][0])


def watch_bot1(people: Gateways, gateways: list[tuple[str, int]]) -> Spectator:
    """Watch bot1's game (its player starts on the second gateway) through the first gateway."""
    deadline = time.monotonic() + START_SECONDS
    while (row := live_of(people, "bot1")) is None:
        assert time.monotonic() < deadline, "bot1 started no game"
        time.sleep(0.2)
    return Spectator(*gateways[0], row.id)


def keep_watching(watched: Spectator, seen: list[object], stop: threading.Event) -> None:
    """Take the spectator's frames (a spectator that reads nothing is dropped as too slow), noting each turn
    (and, last, why the watching ended early, if it did)."""
    while not stop.is_set():
        try:
            turn = watched.turn(0.5)
        except Exception as error:  # noqa: BLE001 (the watched game ended, or its gateway went: what was seen stands)
            seen.append(repr(error))
            return
        if turn is not None and (not seen or seen[-1] != turn):
            seen.append(turn)


def live_of(people: Gateways, account: str) -> log.HostedRow | None:
    """An account's live game."""
    assert people.engine is not None
    with people.engine.connect() as connection:
        return log.live_game_of(connection, account)


def check_logs(engine: Engine, tally: Tally) -> None:
    """Each log is its player's commands, written by owners in turn; ended games' replays verify."""
    for played in tally.games:
        with engine.connect() as connection:
            logged = log.commands_of(connection, played.id)
            row = log.game_of(connection, played.id)
        assert row is not None
        assert logged == played.commands, f"{played.id}: the log is not what its player saw accepted"
        if logged:
            assert tokens_rise(engine, played.id), f"{played.id}: a host wrote after its game was taken"
        assert rebuilt(row, logged).state.game_over == played.ended
        if played.ended:
            assert row.status == log.ENDED and row.replay_hash is not None
            with engine.connect() as connection:
                replay = store.replay_of(connection, row.replay_hash)
            if replay is not None:  # kept as a run (a host killed between the end and the keeping keeps none)
                assert verify_bytes(replay, ChildLimits())["verdict"] == store.VERIFIED


def check_spectator(engine: Engine, address: str) -> None:
    """A spectator joining a live game through a restarted gateway sees the turn its log is at."""
    with engine.connect() as connection:
        rows = log.live_games(connection)
        assert rows, "no game is live at the end"
        commands = log.commands_of(connection, rows[0].id)
    watcher = Spectator(address, PORT, rows[0].id)
    expected = rebuilt(rows[0], commands).state.turn
    deadline = time.monotonic() + START_SECONDS
    try:
        while watcher.turn(1.0) != expected:
            assert time.monotonic() < deadline, "a spectator joining through the restarted gateway never saw the turn"
    finally:
        watcher.close()
