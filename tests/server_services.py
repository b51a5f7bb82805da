"""Private PostgreSQL and Redis servers for the server's tests: unix sockets in temporary folders.

PostgreSQL is Debian's (``postgresql``: initdb and pg_ctl from /usr/lib/postgresql/*/bin), a
cluster of our own with a role of our own; Redis is Debian's ``redis-server``. Both are
installed by .ci/run; a missing one fails the tests with the package to install.

By default neither opens a TCP port. The cluster tests (tests/netns_lab.py) start them inside a
network namespace instead: ``enter`` is the command prefix that runs a program there (``ip netns
exec NS``) and ``address`` the namespace's address they then also listen on, by TCP.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from itertools import count
from pathlib import Path
from typing import TypedDict

ROLE = "scores"
POSTGRES_PORT = 5432  # each namespace has ports of its own: the defaults never clash
REDIS_PORT = 6379


def postgres_program(name: str) -> str:
    """One of PostgreSQL's server programs, the newest version installed."""
    found = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"), key=lambda path: int(path.parts[-3]))
    if not found:
        raise RuntimeError(f"{name} is missing: install Debian's postgresql package (apt-get install postgresql)")
    return str(found[-1])


def redis_program() -> str:
    """Debian's redis-server."""
    found = shutil.which("redis-server")
    if found is None:
        raise RuntimeError(
            "redis-server is missing: install Debian's redis-server package (apt-get install redis-server)"
        )
    return found


class Owner(TypedDict, total=False):
    """Whom a PostgreSQL program runs as (nobody named: ourselves)."""

    user: str
    group: str


def as_owner() -> Owner:
    """Run PostgreSQL as ``postgres`` when we are root (it refuses to run as root)."""
    if os.geteuid() != 0:
        return {}
    return {"user": "postgres", "group": "postgres"}


class Postgres:
    """A running private cluster: new empty databases owned by our role, on demand."""

    def __init__(
        self, folder: Path, enter: Sequence[str] = (), address: str = "", max_connections: int | None = None
    ) -> None:
        self.folder = folder
        self.socket = folder / "socket"
        self.data = folder / "data"
        self.numbers = count(1)
        self.enter = tuple(enter)
        self.address = address
        self.max_connections = max_connections

    def admin_url(self) -> str:
        """The superuser's connection to the maintenance database."""
        return f"postgresql+psycopg://hedonic@/postgres?host={self.socket}"

    def new_database(self) -> str:
        """A fresh database owned by the role the server uses; its URL."""
        from sqlalchemy import create_engine, text

        name = f"runs_{os.getpid()}_{next(self.numbers)}"
        engine = create_engine(self.admin_url(), isolation_level="AUTOCOMMIT")
        with engine.connect() as connection:
            connection.execute(text(f"CREATE DATABASE {name} OWNER {ROLE}"))
        engine.dispose()
        if self.address:
            return f"postgresql+psycopg://{ROLE}@{self.address}:{POSTGRES_PORT}/{name}"
        return f"postgresql+psycopg://{ROLE}@/{name}?host={self.socket}"


@contextmanager
def postgres_cluster(
    enter: Sequence[str] = (), address: str = "", max_connections: int | None = None
) -> Iterator[Postgres]:
    """Start a private cluster (initdb, pg_ctl) on a unix socket (and TCP at ``address``); stop and remove it after.

    With ``address`` the postmaster runs through ``enter`` (into a network namespace) and trusts
    every client on the subnets it is directly connected to.
    """
    folder = Path(tempfile.mkdtemp(prefix="hedonic-pg-"))
    cluster = Postgres(folder, enter, address, max_connections)
    cluster.socket.mkdir()
    owner = as_owner()
    if owner:
        uid = pwd.getpwnam("postgres").pw_uid
        for path in (folder, cluster.socket):
            os.chown(path, uid, -1)
    data = cluster.data
    subprocess.run(
        [postgres_program("initdb"), "-D", str(data), "-U", "hedonic", "--auth=trust", "-E", "UTF8", "--no-sync"],
        check=True,
        capture_output=True,
        **owner,
    )
    if address:
        trust_neighbours(cluster)
    start_postgres(cluster)
    try:
        make_role(cluster)
        yield cluster
    finally:
        subprocess.run(
            [postgres_program("pg_ctl"), "-D", str(data), "-m", "immediate", "stop"], capture_output=True, **owner
        )
        shutil.rmtree(folder, ignore_errors=True)


def trust_neighbours(cluster: Postgres) -> None:
    """Let any client on the server's own subnets in by TCP, as the unix socket lets anyone in."""
    with (cluster.data / "pg_hba.conf").open("a", encoding="utf-8") as rules:
        rules.write("host all all samenet trust\n")


def start_postgres(cluster: Postgres) -> None:
    """Start the cluster's postmaster on its data folder (again, after a kill: it recovers first) and wait for it."""
    options = f"-c listen_addresses='{cluster.address}' -k {cluster.socket} -F -c fsync=off"
    if cluster.max_connections is not None:
        options += f" -c max_connections={cluster.max_connections}"
    argv = [postgres_program("pg_ctl"), "-D", str(cluster.data), "-w", "-l", str(cluster.folder / "log")]
    argv += ["-o", options, "start"]
    if not cluster.enter:
        subprocess.run(argv, check=True, capture_output=True, **as_owner())
        return
    subprocess.run([*cluster.enter, *as_owner_words(), *argv], check=True, capture_output=True)


def as_owner_words() -> list[str]:
    """The words that drop root to ``postgres`` after ``ip netns exec`` (which itself needs root)."""
    if not as_owner():
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        raise RuntimeError("setpriv is missing: install Debian's util-linux package (apt-get install util-linux)")
    return [setpriv, "--reuid=postgres", "--regid=postgres", "--init-groups"]


def make_role(cluster: Postgres) -> None:
    """The role the server connects as: it may log in and owns its databases, nothing more."""
    from sqlalchemy import create_engine, text

    engine = create_engine(cluster.admin_url(), isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(text(f"CREATE ROLE {ROLE} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE"))
    engine.dispose()


@contextmanager
def redis_server(enter: Sequence[str] = (), address: str = "") -> Iterator[str]:
    """A private redis-server on a unix socket (nothing saved); its URL.

    With ``address`` it runs through ``enter`` (into a network namespace) and the URL is TCP's
    at that address; without, it opens no TCP port.
    """
    folder = Path(tempfile.mkdtemp(prefix="hedonic-redis-"))
    socket = folder / "redis.sock"
    tcp = ["--port", str(REDIS_PORT), "--bind", address, "--protected-mode", "no"] if address else ["--port", "0"]
    server = subprocess.Popen(
        [
            *enter,
            redis_program(),
            *tcp,
            "--unixsocket",
            str(socket),
            "--unixsocketperm",
            "700",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(folder),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(lambda: socket.exists(), 60, "redis-server did not open its socket")
        yield f"redis://{address}:{REDIS_PORT}/0" if address else f"unix://{socket}"
    finally:
        server.kill()
        server.wait()
        shutil.rmtree(folder, ignore_errors=True)


def wait_for(ready: Callable[[], object], seconds: float, why: str) -> None:
    """Wait until ``ready()`` is true (AssertionError saying why after ``seconds``)."""
    deadline = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > deadline:
            raise AssertionError(why)
        time.sleep(0.02)
