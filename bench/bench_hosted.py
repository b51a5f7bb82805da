"""Hosted play under load, and its kill -9 storm at full size (neither runs in CI).

    python -m bench.bench_hosted load [--clients 50] [--seconds 120]
        a hosted server on loopback (its own process) and N bot-driven WebSocket clients, one
        account and one game each, pressing a key a few times a second: key-to-frame latency
        for the player (p50, p95), the game processes' memory (PSS each), then every game left
        idle: how many processes remain after the idle time.
    python -m bench.bench_hosted resume [--commands 5000]
        rebuilding a game of N logged commands: from the seed, and from its newest save.
    python -m bench.bench_hosted kills [--kills 200]
        tests/test_hosted_crash.py with the issue's 200 kill -9s (CI runs 30).

Figures go to stdout as ``label: value unit``; docs/performance.md keeps them.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from bench.common import ROOT, figure

ACCOUNT_HEADER = "x-bench-account"
KEYS = [b"Period"] * 4 + [b"ArrowLeft", b"ArrowRight", b"ArrowUp", b"ArrowDown"]
KEY_DOWN, KEY_UP = 0x10, 0x14


def serve(port: int, folder: Path, idle_seconds: float) -> None:
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

    config = ServerConfig(store.default_url(str(folder)), workers=1, play=PlayOptions(RULES_EPOCH, idle_seconds))
    server = ScoreServer(config, identity=lambda engine: HeaderIdentity())
    uvicorn.run(server.app, host="127.0.0.1", port=port, log_level="warning", ws_per_message_deflate=False)


def free_port() -> int:
    """A port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


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


def is_game(pid: int) -> bool:
    """Whether a process is a game's (a fork server's child: its parent's command line names the fork server)."""
    with contextlib.suppress(OSError):
        parent = int((Path(f"/proc/{pid}/stat").read_text()).rsplit(")", 1)[1].split()[1])
        return "forkserver" in cmdline(parent)
    return False


def client(port: int, account: str, until: float, latencies: list[float], errors: list[str]) -> None:
    """One bot-driven browser: a key a few times a second, timing each key to the next frame."""
    rng = random.Random(account)
    url, origin = f"ws://127.0.0.1:{port}/ws/play", Origin(f"http://127.0.0.1:{port}")
    try:
        with connect(url, origin=origin, additional_headers={ACCOUNT_HEADER: account}, max_size=None) as ws:
            drain(ws, 2.0)
            while time.monotonic() < until:
                key = rng.choice(KEYS)
                sent = time.perf_counter()
                ws.send(bytes([KEY_DOWN, 0]) + key)
                ws.send(bytes([KEY_UP, 0]) + key)
                if first_frame(ws, 2.0):
                    latencies.append(time.perf_counter() - sent)
                drain(ws, rng.uniform(0.15, 0.35))
    except Exception as error:  # a bench reports what went wrong and goes on with the others
        errors.append(f"{account}: {type(error).__name__}: {error}")


def first_frame(ws: ClientConnection, timeout: float) -> bool:
    """Wait for the next binary frame; whether one came."""
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        try:
            message = ws.recv(timeout=left)
        except TimeoutError:
            return False
        if isinstance(message, bytes):
            return True
    return False


def drain(ws: ClientConnection, seconds: float) -> None:
    """Read whatever comes for a while."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            ws.recv(timeout=left)
        except TimeoutError:
            return


def load(clients: int, seconds: float, idle_seconds: float) -> None:
    """The load test: N games played at once, then left idle."""
    port, folder = free_port(), Path(tempfile.mkdtemp(prefix="hedonic-bench-hosted-"))
    command = [sys.executable, "-m", "bench.bench_hosted", "serve", str(port), str(folder), str(idle_seconds)]
    server = subprocess.Popen(command, cwd=ROOT)
    try:
        time.sleep(4)
        latencies: list[float] = []
        errors: list[str] = []
        until = time.monotonic() + seconds
        threads = [
            threading.Thread(target=client, args=(port, f"bot{index}", until, latencies, errors))
            for index in range(clients)
        ]
        for thread in threads:
            thread.start()
            time.sleep(0.05)
        time.sleep(max(0.0, until - time.monotonic() - 5))
        games = game_processes(server.pid)
        memory = [found for found in (pss_mib(pid) for pid in games) if found is not None]
        for thread in threads:
            thread.join()
        report(clients, seconds, latencies, errors, games, memory)
        time.sleep(idle_seconds + 10)
        figure("game processes left after the idle time", len(game_processes(server.pid)), "processes")
    finally:
        server.terminate()
        server.wait(30)


def report(
    clients: int, seconds: float, latencies: list[float], errors: list[str], games: list[int], memory: list[float]
) -> None:
    """Print the load test's figures."""
    ordered = sorted(latencies)
    figure("clients", clients, "WebSocket players", f"{seconds:g} s")
    figure("keys timed", len(ordered), "keys")
    if ordered:
        figure("key to frame p50", 1000 * statistics.median(ordered), "ms")
        figure("key to frame p95", 1000 * ordered[int(0.95 * (len(ordered) - 1))], "ms")
    figure("game processes while playing", len(games), "processes")
    if memory:
        figure("PSS per game process, mean", statistics.fmean(memory), "MiB")
        figure("PSS per game process, most", max(memory), "MiB")
    for error in errors[:5]:
        print("client error:", error)


def resume(commands: int) -> None:
    """Rebuilding a logged game of N commands, from the seed and from a save."""
    from roguelike.bots.bot import Bot
    from roguelike.core.commands import Command
    from roguelike.core.game import Game
    from roguelike.core.session import Session
    from roguelike.core.snapshot import snapshot_bytes
    from roguelike.saves.savefile import read_save, write_save

    game, bot = Game.new(43, "bench"), Bot()
    session, played = Session(game), list[Command]()
    while len(played) < commands and not game.state.game_over:
        command = bot.choose(game)
        session.apply(command)
        played.append(command)
    figure("commands logged", len(played), "commands", "the bot's game, up to its end")
    started = time.perf_counter()
    rebuilt = Session(Game.new(43, "bench"))
    for command in played:
        rebuilt.apply(command)
    figure("resume from the seed", time.perf_counter() - started, "s")
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "snapshot.save"
        keep = len(played) - len(played) % 500
        again = Session(Game.new(43, "bench"))
        for command in played[:keep]:
            again.apply(command)
        write_save(path, snapshot_bytes(again.game))
        started = time.perf_counter()
        loaded = Session(read_save(path).game(), steps=keep)
        for command in played[keep:]:
            loaded.apply(command)
        figure("resume from the newest save (every 500)", time.perf_counter() - started, "s")


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
    parts.add_parser("resume").add_argument("--commands", type=int, default=5000)
    parts.add_parser("kills").add_argument("--kills", type=int, default=200)
    serving = parts.add_parser("serve")
    serving.add_argument("port", type=int)
    serving.add_argument("folder", type=Path)
    serving.add_argument("idle", type=float)
    args = parser.parse_args()
    if args.part == "load":
        load(args.clients, args.seconds, args.idle_seconds)
    elif args.part == "resume":
        resume(args.commands)
    elif args.part == "kills":
        return kills(args.kills)
    else:
        serve(args.port, args.folder, args.idle)
    return 0


if __name__ == "__main__":
    sys.exit(main())
