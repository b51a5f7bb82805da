"""Run a gateway's Redis client, or a whole host: ``hedonic serve gateway`` and ``hedonic serve host``.

A gateway is the score server with hosted play whose games are followed, not run
(:class:`~roguelike.server.cluster.gateway.GatewayPlay`); it is served by
:func:`roguelike.server.serving.run_server`. A host serves no page: :func:`run_host` runs a
:class:`~roguelike.server.cluster.gamehost.GameHost` until SIGTERM or Ctrl-C, with the score
server's store and verifier for the games that end on it (their replays are kept and verified as
uploads are; a daily game is certified with the server's key, which every host and gateway of one
site share through the data folder, or not at all).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys

from roguelike.server.app import ScoreServer, ServerConfig


def run_host(config: ServerConfig, cluster_url: str, name: str | None) -> int:
    """Run games for the gateways until told to stop (waiting for Redis first if it cannot be reached); 1 if the
    database is not PostgreSQL."""
    from roguelike.server.cluster.gamehost import host_name
    from roguelike.server.serving import hushed_logging, queue_trouble, wait_for_queue

    trouble = queue_trouble(cluster_url)
    if trouble is not None:  # a host started while its network is down waits for it, as a worker does
        print(f"hedonic serve host: cannot reach {cluster_url} yet: {trouble}; waiting for it", file=sys.stderr)
        wait_for_queue(cluster_url)
    hushed_logging()
    chosen = name or host_name()
    try:
        asyncio.run(host_main(config, cluster_url, chosen))
    except ValueError as error:  # not PostgreSQL
        print(f"hedonic serve host: {error}", file=sys.stderr)
        return 1
    return 0


async def host_main(config: ServerConfig, cluster_url: str, name: str) -> None:
    """The host's life: its store, verifier, owner session and games, until a signal."""
    from sqlalchemy import create_engine

    from roguelike.server.cluster.gamehost import GameHost
    from roguelike.server.cluster.ownership import OwnerSession, connect_args, libpq_url
    from roguelike.server.cluster.streams import cluster_redis
    from roguelike.server.forked import start_fork_server
    from roguelike.server.hosted.host import game_context

    if config.play is None:
        raise ValueError("a host runs hosted games: it needs the play options")
    libpq_url(config.db_url)  # PostgreSQL or nothing: advisory locks and fencing need it
    game_context()  # the game joins the fork server's preload before the verifier may start it
    server = ScoreServer(config)  # its engine made the tables: the host's own engines need not look again
    engine = create_engine(config.db_url, pool_pre_ping=True, connect_args=connect_args())
    # The keys' writer's own connections, not pinged at each use as the store's are: a batch of keys is then one
    # round trip. One broken fails its batch (those keys are refused, never accepted) and is replaced; a break
    # that loses the owner session ends every game here anyway.
    keys = create_engine(config.db_url, pool_size=2, connect_args=connect_args())
    redis = cluster_redis(cluster_url)
    host = GameHost(engine, redis, OwnerSession(config.db_url), config.play, server.upload_ended, name, keys)
    print(f"hedonic serve host {name}: running games for the gateways of {cluster_url}", flush=True)
    await server.verifier.start()
    await asyncio.to_thread(start_fork_server)  # the games' (started already if it verifies): killed games swept
    task = asyncio.create_task(host.run())
    for number in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(number, task.cancel)
    try:
        with contextlib.suppress(asyncio.CancelledError):
            await task
    finally:
        await server.verifier.stop()
        await redis.aclose()
        engine.dispose()
        keys.dispose()
        server.engine.dispose()
