"""Hosted play on several machines, timed: takeovers, key-to-frame latency, and what a second host adds.

The machines are network namespaces on this box (bench/cluster_site.py); the players are
bench/cluster_players.py's, one account and one game each, pressing their next key 0.15-0.35 s
after the last one's frame came. Run as root.

    python -m bench.bench_cluster takeover [--games 10] [--kills 10] [--cuts 5]
        three hosts, two gateways: a host holding games is killed (kill -9; started again), or
        its cable cut; for each of its games, the time from the kill (or cut) to the new
        owner's first frame in the game's out-stream (Redis's own clock stamps it): what the
        player's next frame waits for.
    python -m bench.bench_cluster latency [--games 50] [--hosts 2] [--gateways 2] [--seconds 120]
        key to the frame showing its effect, through a gateway, Redis, a host and back (p50, p95),
        and the CPU a key costs each kind of process over the timed seconds (hosts, gateways, the
        games' processes, PostgreSQL, Redis, the players): the figure load does not stretch.
    python -m bench.bench_cluster capacity [--share 0.4] [--target-ms 60]
        each host held to ``share`` of a core (a cgroup's quota, as a smaller machine): with one
        host, then two, the most games whose key-to-frame p95 stays within the target.

Figures go to stdout as ``label: value unit``; docs/performance.md keeps them.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, select

from bench.cluster_players import ClusterPlayer, Gateways
from bench.cluster_site import PORT, Site, site
from bench.common import figure
from bench.hosted_players import Tally
from roguelike.server.cluster import streams
from roguelike.server.cluster.gateway import is_keyframe
from roguelike.server.hosted import log, owners

THINK = (0.15, 0.35)
WARM_SECONDS = 15.0
TAKEOVER_LIMIT = 30.0  # seconds a takeover is waited for before it counts as never


@contextmanager
def playing(running: Site, engine: Engine, games: int) -> Iterator[Tally]:
    """``games`` players playing until the block ends; their tally."""
    people = Gateways([(running.net.address(gateway), PORT) for gateway in running.gateways], engine, running.redis)
    tally = Tally()
    players = [ClusterPlayer(people, f"bot{index}", THINK, tally, first=index) for index in range(games)]
    threads = [threading.Thread(target=player.run, args=(time.monotonic() + 24 * 3600,)) for player in players]
    for thread in threads:
        thread.start()
        time.sleep(0.05)
    try:
        yield tally
    finally:
        for player in players:
            player.stop.set()
        for thread in threads:
            thread.join()


def owned_by(engine: Engine) -> dict[str, list[str]]:
    """Each host's live games (by the fencing table's newest owner)."""
    with engine.connect() as connection:
        rows = connection.execute(
            select(owners.hosted_owners.c.game, owners.hosted_owners.c.host)
            .join(log.hosted_games, log.hosted_games.c.id == owners.hosted_owners.c.game)
            .where(log.hosted_games.c.status == log.LIVE)
        ).all()
    found: dict[str, list[str]] = {}
    for game, host in rows:
        found.setdefault(host.rsplit("-", 1)[0], []).append(game)
    return found


def new_screen_at(redis: Any, game: str, since_ms: int) -> float | None:
    """When (ms, Redis's clock) the first whole screen after ``since_ms`` entered a game's out-stream."""
    for entry_id, fields in redis.xrange(streams.out_stream(game), min=f"{since_ms}-0"):
        kind, payload = streams.entry(fields)
        if kind == streams.FRAME and is_keyframe(payload):
            return float(entry_id.split(b"-")[0])
    return None


def takeovers(redis: Any, games: list[str], since_ms: int) -> list[float]:
    """Seconds from ``since_ms`` to each game's new owner's first screen (waited for up to the limit)."""
    deadline = time.monotonic() + TAKEOVER_LIMIT
    found: dict[str, float] = {}
    while len(found) < len(games) and time.monotonic() < deadline:
        for game in games:
            if game not in found and (at := new_screen_at(redis, game, since_ms)) is not None:
                found[game] = (at - since_ms) / 1000
        time.sleep(0.05)
    return [found.get(game, TAKEOVER_LIMIT) for game in games]


def redis_now_ms(redis: Any) -> int:
    """Redis's clock, in ms (the out-streams' ids are stamped with it)."""
    seconds, micros = redis.time()
    return int(seconds) * 1000 + int(micros) // 1000


def takeover(games: int, kills: int, cuts: int) -> None:
    """Time takeovers after kill -9s and cable cuts."""
    from redis import Redis

    hosts = ("h1", "h2", "h3")
    with site(hosts, ("g1", "g2")) as (running, engine), playing(running, engine, games):
        redis = Redis.from_url(running.redis)
        time.sleep(WARM_SECONDS)
        after_kill: list[float] = []
        for _ in range(kills):
            victim, held = busiest(engine, hosts)
            since = redis_now_ms(redis)
            running.restart(victim)
            after_kill += takeovers(redis, held, since)
            time.sleep(2.0)
        after_cut: list[float] = []
        for _ in range(cuts):
            victim, held = busiest(engine, hosts)
            since = redis_now_ms(redis)
            running.net.cut(victim)
            after_cut += takeovers(redis, held, since)
            running.net.mend(victim)
            time.sleep(5.0)
    report("takeover after kill -9", after_kill)
    report("takeover after a cable cut", after_cut)


def busiest(engine: Engine, hosts: tuple[str, ...]) -> tuple[str, list[str]]:
    """The host holding the most live games, and those games."""
    held = owned_by(engine)
    victim = max(hosts, key=lambda host: len(held.get(host, [])))
    return victim, held.get(victim, [])


def report(label: str, seconds: list[float]) -> None:
    """Median, 95th percentile and worst of some durations."""
    if not seconds:
        print(f"{label}: nothing timed")
        return
    ordered = sorted(seconds)
    figure(f"{label}, median", statistics.median(ordered), "s", f"{len(ordered)} games")
    figure(f"{label}, p95", ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], "s")
    figure(f"{label}, worst", ordered[-1], "s")


def latency_of(tally: Tally) -> tuple[float, float, int]:
    """p50 and p95 of key-to-frame, in ms, and how many keys were timed."""
    ordered = sorted(tally.latencies)
    if not ordered:
        return float("inf"), float("inf"), 0
    return ordered[len(ordered) // 2] * 1000, ordered[int(0.95 * (len(ordered) - 1))] * 1000, len(ordered)


def timed_round(
    running: Site, engine: Engine, games: int, seconds: float, cpu: dict[str, float] | None = None
) -> tuple[float, float, int, int]:
    """``games`` players for ``seconds`` (after a warm-up): p50, p95 (ms), keys timed, errors; ``cpu`` is given
    the CPU seconds each kind of process used over the timed seconds (the players: this process)."""
    with playing(running, engine, games) as tally:
        time.sleep(WARM_SECONDS)
        tally.latencies.clear()
        before, players = running.cpu(), time.process_time()
        time.sleep(seconds)
        p50, p95, keys = latency_of(tally)
        if cpu is not None:
            cpu.update({kind: used - before.get(kind, 0.0) for kind, used in running.cpu().items()})
            cpu["players"] = time.process_time() - players
        return p50, p95, keys, len(tally.errors)


def latency(games: int, hosts: int, seconds: float, gateways: int) -> None:
    """Key to frame with N games over some hosts, through some gateways."""
    names = tuple(f"h{index + 1}" for index in range(hosts))
    cpu: dict[str, float] = {}
    with site(names, tuple(f"g{index + 1}" for index in range(gateways))) as (running, engine):
        p50, p95, keys, errors = timed_round(running, engine, games, seconds, cpu)
    label = f"key to frame with {games} games over {hosts} hosts and {gateways} gateways"
    figure(f"{label}, p50", p50, "ms", f"{keys} keys, {errors} errors")
    figure(f"{label}, p95", p95, "ms")
    for kind in ("host", "gateway", "games", "postgres", "redis", "players"):
        figure(f"CPU a key, {kind}", 1000 * cpu.get(kind, 0.0) / max(keys, 1), "ms")


def capacity(share: float, target_ms: float, seconds: float, step: int) -> None:
    """The most games one host, then two, hold within the target p95, each held to ``share`` of a core."""
    held: dict[int, int] = {}
    for hosts in (1, 2):
        names = tuple(f"h{index + 1}" for index in range(hosts))
        with site(names, ("g1",), cpu_share=share) as (running, engine):
            games = step
            while True:
                p50, p95, keys, errors = timed_round(running, engine, games, seconds)
                print(
                    f"{hosts} host(s), {games} games: p50 {p50:.1f} ms, p95 {p95:.1f} ms, {keys} keys, {errors} errors"
                )
                if p95 > target_ms or errors:
                    break
                held[hosts] = games
                games += step
        figure(f"games {hosts} host(s) of {share:g} core hold at p95 <= {target_ms:g} ms", held.get(hosts, 0), "games")
    if held.get(1):
        figure("two hosts hold, against one", held.get(2, 0) / held[1], "x")


def main() -> int:
    """Run the part asked for."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parts = parser.add_subparsers(dest="part", required=True)
    taking = parts.add_parser("takeover")
    taking.add_argument("--games", type=int, default=10)
    taking.add_argument("--kills", type=int, default=10)
    taking.add_argument("--cuts", type=int, default=5)
    timing = parts.add_parser("latency")
    timing.add_argument("--games", type=int, default=50)
    timing.add_argument("--hosts", type=int, default=2)
    timing.add_argument("--seconds", type=float, default=120.0)
    timing.add_argument("--gateways", type=int, default=2)
    sizing = parts.add_parser("capacity")
    sizing.add_argument("--share", type=float, default=0.4)
    sizing.add_argument("--target-ms", type=float, default=60.0)
    sizing.add_argument("--seconds", type=float, default=30.0)
    sizing.add_argument("--step", type=int, default=4)
    args = parser.parse_args()
    if args.part == "takeover":
        takeover(args.games, args.kills, args.cuts)
    elif args.part == "latency":
        latency(args.games, args.hosts, args.seconds, args.gateways)
    else:
        capacity(args.share, args.target_ms, args.seconds, args.step)
    return 0


if __name__ == "__main__":
    sys.exit(main())
