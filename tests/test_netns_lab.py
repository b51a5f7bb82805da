"""The network lab the hosted-play cluster tests stand on (tests/netns_lab.py), as those tests rely on it.

Machines reach each other and the root namespace reaches them all; PostgreSQL and Redis on "db"
answer another machine; a cut machine's TCP stalls (no refusal, no reset) while the others go on,
and a mended one carries the stalled bytes on; no namespace or cable outlives the lab.
"""

from __future__ import annotations

import errno
import os
import select
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from netns_lab import Lab, ip, lab, lab_postgres, lab_redis
from server_services import wait_for

PORT = 7000
LIMIT = 60.0  # seconds for what must happen (generous: CI at load 10)
STALL = 5.0  # seconds a cut connection must stay silent: longer than ARP's 3 s of asking before "No route to host"

# A machine's echo server: each line it gets comes back with the machine's name in front.
LISTENER = """
import socket, sys, threading
name, address, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
server = socket.create_server((address, port))
def serve(connection):
    with connection:
        while data := connection.recv(1024):
            connection.sendall(name.encode() + b":" + data)
while True:
    threading.Thread(target=serve, args=(server.accept()[0],), daemon=True).start()
"""

# A TCP connect from inside a machine: "connected", "timeout", or "failed" and the errno's name.
CLIENT = """
import errno, socket, sys
try:
    socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=float(sys.argv[3])).close()
    print("connected")
except TimeoutError:
    print("timeout")
except OSError as error:
    print("failed", errno.errorcode.get(error.errno or 0, error.errno))
"""

# PostgreSQL and Redis asked from inside a machine, through the URLs the lab gives.
ASK_SERVERS = """
import sys
import redis
from sqlalchemy import create_engine, text
engine = create_engine(sys.argv[1])
with engine.connect() as connection:
    print(connection.execute(text("SELECT current_user || ' ' || current_setting('max_connections')")).scalar())
engine.dispose()
print("redis", redis.Redis.from_url(sys.argv[2]).ping())
"""


def listen(built: Lab, name: str) -> None:
    """Start machine ``name``'s echo server and wait until the root namespace reaches it."""
    address = built.address(name)
    built.spawn(name, [sys.executable, "-c", LISTENER, name, address, str(PORT)])
    wait_for(lambda: answers(address), LIMIT, f"{name}'s echo server never answered")


def answers(address: str) -> bool:
    """Whether the echo server at ``address`` accepts a connection now."""
    try:
        socket.create_connection((address, PORT), timeout=LIMIT).close()
    except ConnectionRefusedError:
        return False
    return True


def connect_from(built: Lab, name: str, address: str, seconds: float) -> subprocess.Popen[str]:
    """Start a TCP connect from machine ``name`` to ``address`` giving up after ``seconds``."""
    argv = [sys.executable, "-c", CLIENT, address, str(PORT), str(seconds)]
    return built.spawn(name, argv, stdout=subprocess.PIPE, text=True)


def outcome(client: subprocess.Popen[str]) -> str:
    """What a connect started by ``connect_from`` came to."""
    output, _ = client.communicate(timeout=LIMIT + STALL)
    return output.strip()


def echo(connection: socket.socket, words: bytes) -> bytes:
    """Send ``words`` on ``connection`` and read the answer."""
    connection.sendall(words)
    return connection.recv(1024)


def test_machines_reach_each_other_and_the_root_reaches_all() -> None:
    with lab(["h1", "h2"]) as built:
        for name in built.names:
            listen(built, name)
        for name in built.names:
            with socket.create_connection((built.address(name), PORT), timeout=LIMIT) as connection:
                assert echo(connection, b"hello") == f"{name}:hello".encode()
        assert outcome(connect_from(built, "h1", built.address("h2"), LIMIT)) == "connected"
        assert outcome(connect_from(built, "h2", built.address("h1"), LIMIT)) == "connected"


def test_postgres_and_redis_on_db_answer_another_machine() -> None:
    with lab(["db", "h1"]) as built, lab_postgres(built, "db") as cluster, lab_redis(built, "db") as redis_url:
        database = cluster.new_database()
        assert f"@{built.address('db')}:" in database
        assert redis_url.startswith(f"redis://{built.address('db')}:")
        asking = built.spawn("h1", [sys.executable, "-c", ASK_SERVERS, database, redis_url], stdout=subprocess.PIPE)
        output, _ = asking.communicate(timeout=LIMIT)
        assert asking.returncode == 0
        assert output.decode().split("\n")[:2] == ["scores 300", "redis True"]


def test_a_cut_machine_stalls_while_the_others_go_on_and_a_mended_one_carries_on() -> None:
    with lab(["db", "h1", "h2"]) as built:
        listen(built, "db")
        listen(built, "h1")
        held = socket.create_connection((built.address("h1"), PORT), timeout=LIMIT)
        with held, socket.socket() as late:
            assert echo(held, b"before") == b"h1:before"
            built.cut("h1")
            cut_off = connect_from(built, "h1", built.address("db"), STALL)
            still_on = connect_from(built, "h2", built.address("db"), LIMIT)
            late.setblocking(False)
            assert late.connect_ex((built.address("h1"), PORT)) == errno.EINPROGRESS
            held.settimeout(STALL)
            with pytest.raises(TimeoutError):
                echo(held, b"during")  # no reset: the bytes wait in the root's send queue
            assert not select.select([], [late], [], 0)[1]  # still connecting: no refusal either
            assert outcome(cut_off) == "timeout"
            assert outcome(still_on) == "connected"
            built.mend("h1")
            held.settimeout(LIMIT)
            assert held.recv(1024) == b"h1:during"  # retransmitted once the cable is back
            assert select.select([], [late], [], LIMIT)[1]  # the stalled connect's SYN is answered at last
            assert late.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0
        assert outcome(connect_from(built, "h1", built.address("db"), LIMIT)) == "connected"


def test_nothing_outlives_the_lab_even_when_its_test_fails() -> None:
    with pytest.raises(RuntimeError, match="the test failed"), lab(["h1", "h2"]) as built:
        namespaces = built.all_namespaces()
        sleeper = built.spawn("h1", ["sleep", "600"])
        raise RuntimeError("the test failed")
    assert not set(namespaces) & set(ip("netns", "list").split())
    assert not Path(f"/sys/class/net/{built.root_link}").exists()
    assert sleeper.returncode == -9


def test_a_killed_runs_leftovers_go_and_a_living_runs_stay() -> None:
    finished = subprocess.Popen(["true"])
    finished.wait()
    killed_run, its_cable = f"hedonic-lab-{finished.pid}-0-h1", f"hlab{finished.pid:x}-0"
    living_run = f"hedonic-lab-{os.getppid()}-0-h1"
    ip("netns", "add", killed_run)
    ip("link", "add", its_cable, "type", "veth", "peer", "name", f"{its_cable}p")  # whose end went with its run
    ip("netns", "add", living_run)
    try:
        with lab(["h1"]):
            namespaces = ip("netns", "list").split()
            assert killed_run not in namespaces
            assert not Path(f"/sys/class/net/{its_cable}").exists()
            assert living_run in namespaces
    finally:
        if living_run in ip("netns", "list").split():
            ip("netns", "del", living_run)
