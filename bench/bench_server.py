"""The score server, measured on loopback. Figures go in docs/performance.md ("Score server").

Run: ``python -m bench.bench_server [--uploads 200] [--clients 20] [--jobs 600]``.

Replays: six bot games (seeds 33-38, default bot, to their deaths) and their prefixes. The
server keeps one run per game (its epoch, seed, name and commands: issue 47's R3), so the
uploads of a figure are distinct games: the prefixes whose lengths are nearest the figure's
command count (for 600 of about 100 commands: lengths 50-150, six of each), each verifying as
a game in progress, or over when it is the whole game. Every server is ``hedonic serve`` in
its own process on a fresh SQLite file; clients are threads using urllib.

1. **Verdict of a 1,000-command replay**: uploaded alone to an idle server, the time from
   the upload to the verdict (polled every 20 ms), ``REPEATS`` times.
2. **Load**: ``--uploads`` 100-command replays from ``--clients`` concurrent clients, each
   uploading then polling its run; verdicts a second over the whole, p50 / p95 upload-to-verdict.
3. **Workers**: ``--jobs`` ``--commands``-command (default 100) replays through a private redis-server (unix socket)
   and RQ, with one worker, then two: all uploaded while no worker runs, then the workers
   started and the runs polled one at a time in queue order (so the bench's clients take no
   core from the workers); verdicts a second from the workers' start, and the ratio.
4. **kill -9**: ``KILL_UPLOADS`` uploads; the server killed with runs pending and restarted, one worker killed mid-work
   and another started; runs lost (accepted but not verified in the end). A run is decided
   at most once by construction (only a pending run takes a verdict; its hash is the key).
5. **A job lost with its worker**: a worker whose prover spins on one file
   (``tests/runaway_worker.py``) takes it, a second worker waits, the first is killed with
   ``kill -9`` mid-job; seconds from the kill to the second worker's verdict, ``REPEATS`` times.
6. **The board of many runs**: ``--ranked`` (100,000) verified, ranked runs written straight
   into a fresh SQLite file as a server before the standings wrote them (made-up scores, turns,
   names and dates: only the verdicts are read), the database opened once (the seconds its
   standings take to work out from the verdicts), then ``GET /board.json``, ``GET /board``
   (HTML), both the first page (100 entries), and ``GET /board.json?page=500`` on
   ``hedonic serve``, ``REPEATS`` times each: seconds a request, and the answer's size.
"""

from __future__ import annotations

import argparse
import json
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from bench.common import ROOT, figure, machine
from roguelike.bots.headless import play_bot
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.replay.fileformat import Replay, read_replay, replay_bytes
from roguelike.replay.recorder import recording_observers

REPEATS = 5
DECIDED_WITHIN = 600  # seconds a run may stay pending before the bench gives up on it (a queue of 600 runs included)
KILL_UPLOADS = 60  # uploads pending when the server and a worker are killed


def bot_games(root: Path, seeds: range = range(33, 39)) -> list[Replay]:
    """The default bot's games of these seeds, each to its death."""
    games = []
    for seed in seeds:
        game = Game.new(seed, "Ann")
        session = Session(game, recording_observers(root, game, f"ann-{seed}"))
        play_bot(session, 5000)
        session.close()
        games.append(read_replay(root / "replays" / f"ann-{seed}.replay"))
    return games


def copies(games: list[Replay], commands: int, count: int) -> list[bytes]:
    """``count`` distinct games of about ``commands`` commands: the games' prefixes of the lengths nearest it."""
    nearest = sorted(
        (abs(length - commands), length, index)
        for index, game in enumerate(games)
        for length in range(1, len(game.steps) + 1)
    )[:count]
    return [replay_bytes(replace(games[index], steps=games[index].steps[:length])) for _, length, index in nearest]


class Served:
    """``hedonic serve ARGS`` in a process; its address."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "roguelike", "serve", "--port", "0", *args],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        line = self.process.stdout.readline() if self.process.stdout else ""
        self.base = line.split("/board")[0].split()[-1]

    def stop(self, sign: int = signal.SIGINT) -> None:
        """Stop it (SIGINT) or kill it (SIGKILL), and reap."""
        self.process.send_signal(sign)
        self.process.wait(timeout=30)


def post(base: str, data: bytes) -> str:
    """Upload; the run's hash."""
    with urllib.request.urlopen(urllib.request.Request(f"{base}/runs", data=data, method="POST"), timeout=60) as got:
        return str(json.loads(got.read())["hash"])


def status(base: str, digest: str) -> str:
    """A run's status."""
    with urllib.request.urlopen(f"{base}/runs/{digest}", timeout=60) as got:
        return str(json.loads(got.read())["status"])


def until_decided(base: str, digest: str) -> str:
    """Poll a run every 20 ms until it has a verdict (at most ``DECIDED_WITHIN`` s); the verdict."""
    deadline = time.monotonic() + DECIDED_WITHIN
    while (found := status(base, digest)) == "pending":
        if time.monotonic() > deadline:
            raise TimeoutError(f"run {digest[:16]} still pending after {DECIDED_WITHIN} s")
        time.sleep(0.02)
    return found


def upload_and_wait(base: str, data: bytes) -> float:
    """Seconds from an upload to its verdict (which must be verified)."""
    start = time.perf_counter()
    verdict = until_decided(base, post(base, data))
    assert verdict == "verified", verdict
    return time.perf_counter() - start


def one_verdict(folder: Path, files: list[bytes]) -> None:
    """Figure 1: a 1,000-command replay's upload-to-verdict on an idle server."""
    server = Served("--db", f"sqlite:///{folder}/latency.sqlite")
    times = [upload_and_wait(server.base, data) for data in files[:REPEATS]]
    server.stop()
    figure(
        "1,000-command replay, upload to verdict (median)",
        statistics.median(times),
        "s",
        f"max {max(times):.2f} s of {len(times)}",
    )


def crowd(base: str, files: list[bytes], clients: int) -> tuple[float, list[float]]:
    """Upload every file from ``clients`` threads, each waiting for its verdict; wall seconds and each wait."""
    waits: list[float] = []
    todo = list(files)
    lock = threading.Lock()

    def client() -> None:
        while True:
            with lock:
                if not todo:
                    return
                data = todo.pop()
            took = upload_and_wait(base, data)
            with lock:
                waits.append(took)

    start = time.perf_counter()
    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - start, waits


def load(folder: Path, files: list[bytes], clients: int) -> None:
    """Figure 2: many 100-command uploads from concurrent clients."""
    server = Served("--db", f"sqlite:///{folder}/load.sqlite")
    wall, waits = crowd(server.base, files, clients)
    server.stop()
    ordered = sorted(waits)
    figure(
        f"100-command replays, {len(files)} uploads from {clients} clients",
        len(files) / wall,
        "verdicts/s",
        f"p50 {statistics.median(ordered):.2f} s, p95 {ordered[int(len(ordered) * 0.95) - 1]:.2f} s upload to verdict",
    )


def with_workers(folder: Path, url: str, files: list[bytes], workers: int, name: str) -> float:
    """Verdicts a second through the queue with ``workers`` RQ workers."""
    from redis import Redis
    from rq import Worker

    from roguelike.core.epoch import RULES_EPOCH
    from tests.server_services import wait_for

    server = Served("--queue", url, "--db", f"sqlite:///{folder}/{name}.sqlite")
    digests = [post(server.base, data) for data in files]  # queued while no worker runs
    start = time.perf_counter()
    started = [Served("worker", "--queue", url, "--epoch", str(RULES_EPOCH)) for _ in range(workers)]
    wait_for(lambda: len(Worker.all(connection=Redis.from_url(url))) >= workers, 60, "workers did not start")
    for digest in digests:  # in queue order, one request at a time: the bench takes no core from the workers
        assert until_decided(server.base, digest) == "verified"
    wall = time.perf_counter() - start
    for process in (server, *started):
        process.stop()
    return len(files) / wall


def scaling(folder: Path, files: list[bytes], commands: int) -> None:
    """Figure 3: one worker, then two."""
    from tests.server_services import redis_server

    with redis_server() as url:
        one = with_workers(folder, url, files[: len(files) // 2], 1, "one")
        two = with_workers(folder, url, files[len(files) // 2 :], 2, "two")
    size = f"{len(files) // 2} replays of {commands:,} commands"
    figure("queue, one worker", one, "verdicts/s", size)
    figure("queue, two workers", two, "verdicts/s", f"{two / one:.2f}x one; {size}")


def lost_and_twice(folder: Path, files: list[bytes]) -> None:
    """Figure 4: runs lost or decided twice across kill -9 of the server and of a worker."""
    from roguelike.core.epoch import RULES_EPOCH
    from roguelike.server import store
    from tests.server_services import redis_server

    url_db = f"sqlite:///{folder}/kills.sqlite"
    half = len(files) // 2
    with redis_server() as url:
        workers = [Served("worker", "--queue", url, "--epoch", str(RULES_EPOCH)) for _ in range(2)]
        server = Served("--queue", url, "--db", url_db, "--verifiers", "1")
        digests = [post(server.base, data) for data in files[:half]]
        time.sleep(0.5)
        server.stop(signal.SIGKILL)
        # its horse dies with it; the server enqueues again a job whose heartbeat stopped
        workers[0].stop(signal.SIGKILL)
        workers.append(Served("worker", "--queue", url, "--epoch", str(RULES_EPOCH)))
        server = Served("--queue", url, "--db", url_db)
        digests += [post(server.base, data) for data in files[half:]]
        verdicts = [until_decided(server.base, digest) for digest in digests]
        for process in (server, *workers[1:]):
            process.stop()
    engine = store.open_engine(url_db)
    with engine.connect() as connection:
        rows = len(list(store.decided_runs(connection, None, None)))
    lost = sum(verdict != "verified" for verdict in verdicts)
    figure(
        "kill -9 of the server and of a worker: runs lost",
        lost,
        "runs",
        f"{len(digests)} uploaded, {rows} runs verified in the database",
    )


def lost_job(folder: Path, data: bytes) -> None:
    """Figure 5: seconds from kill -9 of a worker mid-job to another worker's verdict."""
    import hashlib

    from redis import Redis
    from rq import Worker
    from rq.job import Job, JobStatus
    from rq.serializers import JSONSerializer

    from roguelike.core.epoch import RULES_EPOCH
    from roguelike.server.queue import job_id
    from tests.server_services import redis_server, wait_for

    def workers_up(url: str, count: int) -> None:
        wait_for(lambda: len(Worker.all(connection=Redis.from_url(url))) >= count, 60, "workers did not start")

    def started(url: str, digest: str) -> bool:
        found = Job.fetch_many([job_id(digest)], Redis.from_url(url), serializer=JSONSerializer)[0]
        return found is not None and found.get_status(refresh=False) == JobStatus.STARTED

    took = []
    for attempt in range(REPEATS):
        with redis_server() as url:
            doomed = subprocess.Popen(
                [sys.executable, "-m", "tests.runaway_worker", url, str(RULES_EPOCH), hashlib.sha256(data).hexdigest()],
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
            )
            workers_up(url, 1)
            server = Served("--queue", url, "--db", f"sqlite:///{folder}/lost-{attempt}.sqlite")
            digest = post(server.base, data)
            wait_for(lambda: started(url, digest), 60, "the runaway worker never started the job")
            rescuer = Served("worker", "--queue", url, "--epoch", str(RULES_EPOCH))
            workers_up(url, 2)
            doomed.kill()
            doomed.wait()
            killed = time.perf_counter()
            assert until_decided(server.base, digest) == "verified"
            took.append(time.perf_counter() - killed)
            for process in (server, rescuer):
                process.stop()
    figure(
        "a job lost with its worker (kill -9 mid-job): kill to verdict (median)",
        statistics.median(took),
        "s",
        f"{min(took):.2f}-{max(took):.2f} s of {len(took)}; 100-command replay",
    )


def big_board(folder: Path, ranked: int) -> None:
    """Figure 6: the board's answer with ``ranked`` ranked runs."""
    from roguelike.server import store

    url = f"sqlite:///{folder}/board.sqlite"
    engine = store.open_engine(url)
    with engine.begin() as connection:
        connection.execute(store.runs.insert(), made_up_rows(ranked))
    engine.dispose()
    start = time.perf_counter()
    store.open_engine(url).dispose()  # works out the standings of runs decided without them
    figure(f"standings of {ranked:,} runs decided before them, at start-up", time.perf_counter() - start, "s")
    server = Served("--db", url)
    for path in ("/board.json", "/board", "/board.json?page=500"):
        times, size = [], 0
        for _ in range(REPEATS):
            start = time.perf_counter()
            with urllib.request.urlopen(f"{server.base}{path}", timeout=600) as got:
                size = len(got.read())
            times.append(time.perf_counter() - start)
        figure(
            f"GET {path} with {ranked:,} ranked runs (median)",
            statistics.median(times) * 1000,
            "ms",
            f"{min(times) * 1000:.1f}-{max(times) * 1000:.1f} ms of {len(times)}; {size / 2**10:.1f} KiB",
        )
    server.stop()


def made_up_rows(ranked: int) -> list[dict[str, object]]:
    """``ranked`` verified, ranked runs as a server wrote them before the standings (one in ten a daily)."""
    import random

    draw = random.Random(47)
    rows = []
    for number in range(ranked):
        score, turns = draw.randrange(10, 5000), draw.randrange(50, 3000)
        daily = f"2026-11-{draw.randrange(1, 29):02d}" if number % 10 == 0 else None
        verdict = {
            "verdict": "verified",
            "score": score,
            "ranked": True,
            "turns": turns,
            "name": f"Player{number % 997}",
            "origin": "daily" if daily else "played",
            "daily": daily,
            "cause": "exhaustion",
            "feats": [],
            "recorded": f"2026-11-{draw.randrange(1, 29):02d}T12:00:00+00:00",
        }
        rows.append(
            {
                "hash": f"{number:064x}",
                "received": "2026-11-28T00:00:00Z",
                "epoch": 12,
                "commands": turns,
                "size": 1000,
                "status": "verified",
                "verdict": json.dumps(verdict),
                "score": score,
                "ranked": True,
                "name": verdict["name"],
                "origin": verdict["origin"],
                "daily": daily,
                "decided": "2026-11-28T00:00:00Z",
                "game": f"{number:064x}",
            }
        )
    return rows


def main() -> None:
    """Every figure."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--uploads", type=int, default=200)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=600)
    parser.add_argument("--commands", type=int, default=100, help="commands in each replay of the workers' figure")
    parser.add_argument("--ranked", type=int, default=100_000, help="ranked runs on the board's figure")
    parser.add_argument("--only", choices=["verdict", "load", "workers", "kills", "lost", "board"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-server-") as scratch:
        folder = Path(scratch)
        print(machine(folder), flush=True)
        games = bot_games(folder / "data") if args.only != "board" else []
        steps: dict[str, Callable[[], None]] = {
            "verdict": lambda: one_verdict(folder, copies(games, 1000, REPEATS)),
            "load": lambda: load(folder, copies(games, 100, args.uploads), args.clients),
            "workers": lambda: scaling(folder, copies(games, args.commands, args.jobs), args.commands),
            "kills": lambda: lost_and_twice(folder, copies(games, 100, KILL_UPLOADS)),
            "lost": lambda: lost_job(folder, copies(games, 100, 1)[0]),
            "board": lambda: big_board(folder, args.ranked),
        }
        for name, step in steps.items():
            if args.only in (None, name):
                step()
        print(machine(folder), flush=True)


if __name__ == "__main__":
    main()
