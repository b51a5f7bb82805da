"""Hosted play's figures: under load, resuming a long game, and its kill -9 storm.

CI runs the load (tests/test_hosted_load.py, with the same players: bench/hosted_players.py) and the
storm (tests/test_hosted_crash.py) as tests, asserting what a player relies on; these print figures.

    python -m bench.bench_hosted load [--clients 50] [--seconds 120]
        a hosted server on loopback (its own process) and N bot-driven WebSocket clients, one
        account each (bench/hosted_players.py), each pressing its next key 0.15-0.35 s after the
        last one's frame came: key-to-frame latency for the player (p50, p95), the game
        processes' memory (PSS each), then every game left idle: how many processes remain
        after the idle time.
    python -m bench.bench_hosted resume [--commands 5000] [--repeats 5]
        a game of N commands the careful bot really played, logged: rebuilt in-process from the
        seed and from its newest save, and resumed through the server (``/play`` to the first
        frame showing its turn), from the seed and from the save (bench/resume_hosted.py).
    python -m bench.bench_hosted kills [--kills 200]
        tests/test_hosted_crash.py with another number of kill -9s (CI runs the issue's 200).

Figures go to stdout as ``label: value unit``; docs/performance.md keeps them.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.common import ROOT, figure
from bench.hosted_players import ACCOUNT_HEADER, Served, Tally, play_all

THINK = (0.15, 0.35)  # seconds between a key's frame and the next key: a quick player


def serve(port: int, folder: Path, idle_seconds: float, snapshot_every: int) -> None:
    """Run a hosted server whose accounts are named by a header (the bench's own identity)."""
    import uvicorn
    from starlette.requests import HTTPConnection

    from roguelike.core.epoch import RULES_EPOCH
    from roguelike.server import store
    from roguelike.server.app import ScoreServer, ServerConfig
    from roguelike.server.hosted.host import PlayOptions

    class HeaderIdentity:
        def account_of(self, connection: HTTPConnection) -> str | None:
            return connection.headers.get(ACCOUNT_HEADER) or None

    config = ServerConfig(
        store.default_url(str(folder)), workers=1, play=PlayOptions(RULES_EPOCH, idle_seconds, snapshot_every)
    )
    server = ScoreServer(config, identity=lambda engine: HeaderIdentity())
    uvicorn.run(server.app, host="127.0.0.1", port=port, log_level="warning", ws_per_message_deflate=False)


def descendants(pid: int) -> list[int]:
    """Every process under ``pid``."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                stat = (entry / "stat").read_text()
                parent = int(stat.rsplit(")", 1)[1].split()[1])
                parents.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        children = parents.get(todo.pop(), [])
        found += children
        todo += children
    return found


def pss_mib(pid: int) -> float | None:
    """A process's proportional set size in MiB."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024
    return None


def game_processes(server: int) -> list[int]:
    """The server's game processes (forked from its fork server: the processes running the game's loop)."""
    return [pid for pid in descendants(server) if is_game(pid)]


def cmdline(pid: int) -> str:
    """A process's command line."""
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
    return ""


def parent_of(pid: int) -> int | None:
    """A process's parent, if it is still there."""
    with contextlib.suppress(OSError):
        return int((Path(f"/proc/{pid}/stat").read_text()).rsplit(")", 1)[1].split()[1])
    return None


def is_game(pid: int) -> bool:
    """Whether a process is a game's (a fork server's child: its parent's command line names the fork server)."""
    parent = parent_of(pid)
    return parent is not None and "forkserver" in cmdline(parent)


def load(clients: int, seconds: float, idle_seconds: float) -> None:
    """The load test: N games played at once (bench/hosted_players.py's players), then left idle."""
    with Served(Path(tempfile.mkdtemp(prefix="hedonic-bench-hosted-")), idle_seconds) as served:
        assert served.process is not None
        server = served.process.pid
        measured: list[list[float]] = []

        def memory_near_the_end() -> None:
            time.sleep(max(0.0, seconds - 5))
            games = game_processes(server)
            measured.append([float(len(games))] + [found for found in map(pss_mib, games) if found is not None])

        watcher = threading.Thread(target=memory_near_the_end)
        watcher.start()
        tally = play_all(served, clients, seconds, THINK, drop_chance=0.0)
        watcher.join()
        games, *memory = measured[0]
        report(clients, seconds, tally, int(games), memory)
        time.sleep(idle_seconds + 10)
        figure("game processes left after the idle time", len(game_processes(server)), "processes")


def report(clients: int, seconds: float, tally: Tally, games: int, memory: list[float]) -> None:
    """Print the load test's figures."""
    ordered = sorted(tally.latencies)
    figure("clients", clients, "WebSocket players", f"{seconds:g} s")
    figure("keys pressed", tally.keys, "keys", f"{tally.unshown} showing nothing by themselves")
    if ordered:
        figure("key to frame p50", 1000 * statistics.median(ordered), "ms")
        figure("key to frame p95", 1000 * ordered[int(0.95 * (len(ordered) - 1))], "ms")
    figure("games ended while playing", sum(game.ended for game in tally.games), "games")
    figure("game processes while playing", games, "processes")
    if memory:
        figure("PSS per game process, mean", statistics.fmean(memory), "MiB")
        figure("PSS per game process, most", max(memory), "MiB")
    for error in tally.errors[:5]:
        print("client error:", error)


def resume(commands: int, repeats: int) -> None:
    """Resuming a logged game of N real commands (bench/resume_hosted.py)."""
    from bench.resume_hosted import measure

    measure(commands, repeats)


def kills(count: int) -> int:
    """The kill -9 storm at full size: the CI test told the number."""
    env = {**os.environ, "HOSTED_KILLS": str(count)}
    test = ["tests/test_hosted_crash.py", "-p", "no:xdist", "-q"]
    return subprocess.call([sys.executable, "-m", "pytest", *test], cwd=ROOT, env=env)


def main() -> int:
    """Run the part asked for."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parts = parser.add_subparsers(dest="part", required=True)
    loading = parts.add_parser("load")
    loading.add_argument("--clients", type=int, default=50)
    loading.add_argument("--seconds", type=float, default=120.0)
    loading.add_argument("--idle-seconds", type=float, default=20.0)
    resuming = parts.add_parser("resume")
    resuming.add_argument("--commands", type=int, default=5000)
    resuming.add_argument("--repeats", type=int, default=5)
    parts.add_parser("kills").add_argument("--kills", type=int, default=200)
    serving = parts.add_parser("serve")
    serving.add_argument("port", type=int)
    serving.add_argument("folder", type=Path)
    serving.add_argument("idle", type=float)
    serving.add_argument("--snapshot-every", type=int, default=500)
    args = parser.parse_args()
    if args.part == "load":
        load(args.clients, args.seconds, args.idle_seconds)
    elif args.part == "resume":
        resume(args.commands, args.repeats)
    elif args.part == "kills":
        return kills(args.kills)
    else:
        serve(args.port, args.folder, args.idle, args.snapshot_every)
    return 0


if __name__ == "__main__":
    sys.exit(main())
