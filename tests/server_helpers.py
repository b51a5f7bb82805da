"""Fixtures and helpers of the score server's tests: a database of each kind, an app in-process, uploads."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from conftest import ROOT
from roguelike.server.app import ScoreServer, ServerConfig
from server_services import Postgres, postgres_cluster

CORPUS = sorted((ROOT / "replays").glob("*.replay"))


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """A private PostgreSQL cluster for this test process."""
    with postgres_cluster() as cluster:
        yield cluster


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database's URL: a SQLite file, then a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/scores.sqlite"
    cluster: Postgres = request.getfixturevalue("postgres")
    return cluster.new_database()


@pytest.fixture
def served(database: str) -> Iterator[TestClient]:
    """The score server on that database, in this process, verifying in children."""
    with TestClient(ScoreServer(ServerConfig(database)).app) as client:
        yield client


def distinct_files(count: int) -> list[bytes]:
    """``count`` distinct games, each short to verify: a corpus game's first 1, 2, ... commands (the server
    keeps one run per game, so files differing only in their header's game id would be one run)."""
    from dataclasses import replace

    from roguelike.replay.fileformat import read_replay, replay_bytes

    replay = read_replay(next(path for path in CORPUS if path.name == "death-exhaustion.replay"))
    assert count < len(replay.steps)
    return [replay_bytes(replace(replay, steps=replay.steps[:number])) for number in range(1, count + 1)]


def played_bytes(path: Path) -> bytes:
    """A corpus game as a played game's file: its header's bot origin left out, so the board ranks it."""
    from dataclasses import replace

    from roguelike.replay.fileformat import header_bytes, read_replay

    replay = read_replay(path)
    return header_bytes(replace(replay.header, origin=None), replay.format) + path.read_bytes()[replay.ends[0] :]


def upload(client: TestClient, data: bytes) -> str:
    """Upload a file that must be accepted; its hash."""
    answer = client.post("/runs", content=data)
    assert answer.status_code == 202, answer.text
    return str(answer.json()["hash"])


def verdict(client: TestClient, digest: str, seconds: float = 120) -> dict[str, Any]:
    """A run's status once it is no longer pending."""
    return wait_json(client, f"/runs/{digest}", lambda run: run["status"] != "pending", seconds)


def wait_json(client: TestClient, path: str, done: Callable[[dict[str, Any]], bool], seconds: float) -> dict[str, Any]:
    """GET a JSON path until ``done`` holds (AssertionError after ``seconds``)."""
    deadline = time.monotonic() + seconds
    while True:
        found: dict[str, Any] = client.get(path).json()
        if done(found):
            return found
        assert time.monotonic() < deadline, f"{path} still {found}"
        time.sleep(0.05)


class ServerProcess:
    """``hedonic serve`` (or ``hedonic serve worker``, or ``command``) in a process of its own."""

    def __init__(self, *args: str, command: list[str] | None = None) -> None:
        import os
        import subprocess
        import sys

        self.process = subprocess.Popen(
            command or [sys.executable, "-m", "roguelike", "serve", *args],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=dict(os.environ),
        )
        self.first_line = self.process.stdout.readline() if self.process.stdout else ""
        assert self.first_line, self.process.stderr.read() if self.process.stderr else "no output"

    @property
    def base(self) -> str:
        """The server's address (``http://127.0.0.1:PORT``)."""
        import re

        found = re.search(r"(http://[^/]+)/board", self.first_line)
        assert found, self.first_line
        return found.group(1)

    def children(self) -> list[int]:
        """The process ids of this process's children (its verifiers)."""
        found = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == self.process.pid:
                found.append(int(stat.parent.name))
        return found

    def kill(self) -> None:
        """kill -9, and reap."""
        self.process.kill()
        self.process.communicate()

    def stop(self) -> None:
        """Ctrl-C, and reap."""
        import signal

        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.communicate(timeout=20)
            except Exception:
                self.kill()


def post(base: str, data: bytes) -> dict[str, Any]:
    """Upload over HTTP; the answer's JSON."""
    import json
    import urllib.request

    request = urllib.request.Request(f"{base}/runs", data=data, method="POST")
    with urllib.request.urlopen(request, timeout=60) as answer:
        answered: dict[str, Any] = json.loads(answer.read())
    return answered


def get(base: str, path: str) -> dict[str, Any]:
    """GET a JSON path over HTTP."""
    import json
    import urllib.request

    with urllib.request.urlopen(f"{base}{path}", timeout=60) as answer:
        answered: dict[str, Any] = json.loads(answer.read())
    return answered


def wait_http(base: str, digests: list[str], seconds: float) -> dict[str, dict[str, Any]]:
    """Each run's status over HTTP once none is pending."""
    deadline = time.monotonic() + seconds
    while True:
        runs = {digest: get(base, f"/runs/{digest}") for digest in digests}
        if all(run["status"] != "pending" for run in runs.values()):
            return runs
        assert time.monotonic() < deadline, {digest: run["status"] for digest, run in runs.items()}
        time.sleep(0.1)
