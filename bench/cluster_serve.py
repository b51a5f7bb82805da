"""The roles of hosted play on several machines, for the cluster bench and tests: accounts named by a header.

``python -m bench.cluster_serve gateway ADDRESS PORT DB CLUSTER`` serves a gateway whose accounts
are named by the bench's header (as ``bench.bench_hosted serve`` does for one machine);
``python -m bench.cluster_serve host DB CLUSTER NAME [IDLE_SECONDS]`` runs a host (what
``hedonic serve host`` runs, with the bench's play options).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from roguelike.server.hosted.host import PlayOptions

SNAPSHOT_EVERY = 500


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


def main(argv: list[str]) -> int:
    """Run the role the arguments name."""
    if argv[:1] == ["gateway"] and len(argv) == 5:
        gateway(argv[1], int(argv[2]), argv[3], argv[4])
        return 0
    if argv[:1] == ["host"] and len(argv) in (4, 5):
        return host(argv[1], argv[2], argv[3], float(argv[4]) if len(argv) == 5 else 600.0)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
