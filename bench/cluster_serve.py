"""The roles of hosted play on several machines, for the cluster bench and tests: accounts named by a header.

``python -m bench.cluster_serve gateway ADDRESS PORT DB CLUSTER`` serves a gateway whose accounts
are named by the bench's header (as ``bench.bench_hosted serve`` does for one machine);
``python -m bench.cluster_serve host DB CLUSTER NAME [IDLE_SECONDS]`` runs a host (what
``hedonic serve host`` runs, with the bench's play options).
``python -m bench.cluster_serve hosts DB CLUSTER`` imports what a host runs once, then forks a host for
each name it reads on its standard input and prints the host's process id (see :func:`hosts`).
"""

from __future__ import annotations

import importlib
import os
import signal
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from roguelike.server.hosted.host import PlayOptions

SNAPSHOT_EVERY = 500
# What run_host and host_main import as a host starts (they import them where used, so a gateway need not).
HOST_MODULES = (
    "roguelike.server.app",
    "roguelike.server.serving",
    "roguelike.server.cluster.hosting",
    "roguelike.server.cluster.gamehost",
    "roguelike.server.cluster.ownership",
    "roguelike.server.cluster.streams",
    "roguelike.server.hosted.host",
    "roguelike.server.forked",
    "multiprocessing.forkserver",
    "sqlalchemy",
    "psycopg",
)


def options(idle_seconds: float) -> PlayOptions:
    """Hosted play's options for the bench."""
    from roguelike.core.epoch import RULES_EPOCH
    from roguelike.server.hosted.host import PlayOptions

    return PlayOptions(RULES_EPOCH, idle_seconds, SNAPSHOT_EVERY)


def gateway(address: str, port: int, db: str, cluster: str) -> None:
    """Serve a gateway until killed."""
    import uvicorn
    from starlette.requests import HTTPConnection

    from bench.hosted_players import ACCOUNT_HEADER
    from roguelike.server.app import ScoreServer, ServerConfig

    class HeaderIdentity:
        def account_of(self, connection: HTTPConnection) -> str | None:
            return connection.headers.get(ACCOUNT_HEADER) or None

    config = ServerConfig(db, workers=1, play=options(600.0), cluster_url=cluster)
    server = ScoreServer(config, identity=lambda engine: HeaderIdentity())
    uvicorn.run(server.app, host=address, port=port, log_level="warning", ws_per_message_deflate=False)


def host(db: str, cluster: str, name: str, idle_seconds: float) -> int:
    """Run a host until killed."""
    from roguelike.server.app import ServerConfig
    from roguelike.server.cluster.hosting import run_host

    config = ServerConfig(db, workers=1, play=options(idle_seconds))
    return run_host(config, cluster, name)


def hosts(db: str, cluster: str) -> int:
    """Fork a host for each name read from standard input, printing its process id, until the input ends.

    What a host imports (the score server, SQLAlchemy, redis-py: about 0.5 s of CPU) is imported here
    once, so a host started again after a ``kill -9`` begins at ``run_host`` at once, a process of its
    own with its own connections, consumer name and fork server, as a machine's service manager would
    start it, only without the import. The cluster test starts a hundred hosts this way.
    """
    for module in HOST_MODULES:
        importlib.import_module(module)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps each killed host at once
    for line in sys.stdin:
        child = os.fork()
        if child == 0:
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # a host waits for its own children
            quiet = os.open(os.devnull, os.O_RDWR)
            os.dup2(quiet, 0)  # the commands and the process ids are this process's, not the host's
            os.dup2(quiet, 1)
            os._exit(host(db, cluster, line.strip(), 600.0))
        print(child, flush=True)
    return 0


def main(argv: list[str]) -> int:
    """Run the role the arguments name."""
    if argv[:1] == ["gateway"] and len(argv) == 5:
        gateway(argv[1], int(argv[2]), argv[3], argv[4])
        return 0
    if argv[:1] == ["host"] and len(argv) in (4, 5):
        return host(argv[1], argv[2], argv[3], float(argv[4]) if len(argv) == 5 else 600.0)
    if argv[:1] == ["hosts"] and len(argv) == 3:
        return hosts(argv[1], argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
