"""``hedonic serve``: the score server; ``hedonic serve worker``: a verifier of its queue on any machine.

Both need the server's extra (``pip install 'hedonic-hypothesis[server]'``). docs/server.md
explains the design. Exit status 0, 1 when the address, the queue or a witness key (this
server's, or one given with ``--trust-key``) cannot be had, 2 for a missing extra.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from roguelike.cli.subcommand import Subcommand

if TYPE_CHECKING:
    from roguelike.server.app import ServerConfig
    from roguelike.server.hosted.host import PlayOptions

NO_SERVER = "hedonic serve: the score server needs its extra: pip install 'hedonic-hypothesis[server]'"


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``hedonic serve [worker]``."""
    parser.add_argument(
        "role",
        nargs="?",
        choices=["worker", "gateway", "host"],
        help="'worker': verify the jobs of --queue; 'gateway': hosted play's pages and sockets, its games run by "
        "hosts; 'host': run the games of the gateways (both need --cluster and a PostgreSQL --db)",
    )
    parser.add_argument("--host", default="127.0.0.1", help="the address to serve on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8025, help="the port (default 8025; 0: any)")
    parser.add_argument(
        "--db",
        metavar="URL",
        help="the database (default: a SQLite file in the data folder; PostgreSQL: postgresql+psycopg://user@host/db)",
    )
    parser.add_argument(
        "--queue",
        metavar="URL",
        help="verify on RQ workers through this Redis (redis://host:port/0 or unix:///path/redis.sock)",
    )
    parser.add_argument(
        "--epoch", type=int, help="worker: the rules epoch whose runs it verifies (default: this game's)"
    )
    parser.add_argument(
        "--verifiers",
        type=int,
        default=0,
        metavar="N",
        help="without --queue: verify N runs at once (default: one per core)",
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="a verification's wall-clock and CPU limit (default 60)",
    )
    parser.add_argument(
        "--memory-limit",
        type=int,
        default=1024,
        metavar="MIB",
        help="a verification's address-space limit (default 1024 MiB)",
    )
    parser.add_argument("--max-bytes", type=int, default=8 * 1024 * 1024, help="the largest upload (default 8 MiB)")
    parser.add_argument("--max-commands", type=int, default=50_000, help="the longest replay (default 50000 commands)")
    parser.add_argument(
        "--verifier",
        metavar="COMMAND",
        help="the command that verifies, instead of this game's "
        "(its arguments follow: replay --verify --json --jobs 1 FILE)",
    )
    parser.add_argument(
        "--client-mib",
        type=int,
        default=64,
        metavar="MIB",
        help="what one client address may have kept per hour (default 64 MiB; over it: 429)",
    )
    parser.add_argument(
        "--request-timeout",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="close a connection whose request has not arrived whole in this time (default 60)",
    )
    parser.add_argument(
        "--connections",
        type=int,
        default=512,
        metavar="N",
        help="the most connections at once (default 512; 32 from one address); past it: 503",
    )
    parser.add_argument("--burst", action="store_true", help="worker: stop when the queue is empty")
    parser.add_argument(
        "--trust-key",
        action="append",
        default=[],
        metavar="FILE",
        help="rank as witnessed the runs another server signed with this public key "
        "(its 'hedonic witness key' output; repeatable)",
    )
    parser.add_argument(
        "--play",
        action="store_true",
        help="hosted play: /play, /lobby and /watch, games that live on the server (needs the web extra too)",
    )
    parser.add_argument(
        "--cluster",
        metavar="URL",
        help="gateway, host: the Redis where gateways and hosts meet (redis://host:port/0)",
    )
    parser.add_argument("--name", help="host: its name among the hosts (default: the machine's, and a random part)")
    parser.add_argument(
        "--idle-minutes",
        type=float,
        default=10.0,
        metavar="MINUTES",
        help="--play: end the process of a game with no input this long (its log keeps it; default 10)",
    )
    parser.add_argument(
        "--snapshot-every",
        type=int,
        default=500,
        metavar="N",
        help="--play: keep a game's save every N commands, to rebuild it from (default 500)",
    )
    parser.add_argument(
        "--game-memory",
        type=int,
        default=1024,
        metavar="MIB",
        help="--play: a game process's address-space limit (default 1024 MiB)",
    )
    parser.add_argument(
        "--game-cpu",
        type=float,
        default=3600.0,
        metavar="SECONDS",
        help="--play: a game process's CPU limit; past it the game is rebuilt from its log (default 3600)",
    )


def serve(args: argparse.Namespace) -> int:
    """Run the server, or a worker."""
    try:
        from roguelike.server.serving import run_server, run_worker
    except ImportError:
        print(NO_SERVER, file=sys.stderr)
        return 2
    verifier = shlex.split(args.verifier) if args.verifier else None
    if args.role == "worker":
        if args.queue is None:
            print("hedonic serve worker: give the queue: --queue redis://...", file=sys.stderr)
            return 2
        return run_worker(args.queue, args.epoch or this_epoch(), verifier, args.burst)
    if args.role in ("gateway", "host") and (args.cluster is None or not (args.db or "").startswith("postgresql")):
        print(
            f"hedonic serve {args.role}: give --cluster redis://... and --db postgresql+psycopg://...", file=sys.stderr
        )
        return 2
    if args.role == "host":
        from roguelike.server.cluster.hosting import run_host

        return run_host(config_of(args, verifier), args.cluster, args.name)
    from roguelike.server.serving import Door
    from roguelike.server.witness import WitnessKeyError

    door = Door(args.request_timeout, args.connections, min(32, args.connections))
    identity = None
    if args.play or args.role == "gateway":
        from roguelike.server.hosted.identity import play_identity

        identity = play_identity(server_folder(args))
    try:
        return run_server(config_of(args, verifier), args.host, args.port, door, identity)
    except WitnessKeyError as error:  # this server's witness key, or a --trust-key file, that cannot be used
        print(f"hedonic serve: {error}", file=sys.stderr)
        return 1


def server_folder(args: argparse.Namespace) -> Path:
    """The folder the server keeps its SQLite file and secrets in."""
    from roguelike.storage.datadir import DataDir, data_dir

    folder = DataDir(data_dir(args.data_dir)).server
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def this_epoch() -> int:
    """This game's rules epoch."""
    from roguelike.core.epoch import RULES_EPOCH

    return RULES_EPOCH


def config_of(args: argparse.Namespace, verifier: list[str] | None) -> ServerConfig:
    """The server's configuration from the options."""
    from roguelike.ground.pool import cores
    from roguelike.server.app import ServerConfig
    from roguelike.server.child import MIB, ChildLimits
    from roguelike.server.envelope import Limits
    from roguelike.server.store import default_url
    from roguelike.server.witness import load_public

    folder = server_folder(args)
    url = args.db if args.db is not None else default_url(str(folder))
    return ServerConfig(
        url,
        Limits(args.max_bytes, args.max_commands),
        ChildLimits(args.time_limit, args.memory_limit * MIB),
        args.verifiers or cores(),
        args.queue,
        tuple(verifier or ()),
        this_epoch(),
        args.client_mib * MIB,
        str(folder),
        tuple(load_public(Path(path)) for path in args.trust_key),
        play_options(args),
        args.cluster if args.role == "gateway" else None,
    )


def play_options(args: argparse.Namespace) -> PlayOptions | None:
    """Hosted play's options, when ``--play`` asks for it."""
    if not args.play and args.role not in ("gateway", "host"):
        return None
    from roguelike.server.child import MIB
    from roguelike.server.hosted.host import PlayOptions

    return PlayOptions(
        this_epoch(), args.idle_minutes * 60, max(1, args.snapshot_every), args.game_memory * MIB, args.game_cpu
    )


SERVE = Subcommand("serve", "the score server: verify uploaded score files and publish the boards", configure, serve)
