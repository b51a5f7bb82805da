"""A hosted-play site of several machines on this one box, for the cluster test and bench.

The machines are network namespaces on one bridge (``tests/netns_lab.py``): PostgreSQL and Redis
on ``db``, hosts and gateways each on their own. :func:`site` starts them all and waits for the
gateways to answer; a :class:`Site` kills (``kill -9``) and starts a machine's process again,
and, for the capacity bench, holds each host and its game processes to a share of the CPU
(a cgroup's quota, as a smaller machine would), and says how much CPU each kind of process has
used (:meth:`Site.cpu`). The cluster test's hosts are forked by a forker on each host's machine
(``forked``), which has imported what a host runs: a host's start without its imports, a fifth
of its CPU from a fresh interpreter (docs/performance.md).

The machines' Python processes keep their compiled modules in one folder for the site
(``PYTHONPYCACHEPREFIX``), written by the first to import a module, as an installed game has
them: on a machine that sets ``PYTHONDONTWRITEBYTECODE`` every host started again (a hundred in
the cluster test) would otherwise compile the server and, in its fork server, the game afresh.
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import Engine

from bench.common import ROOT

if str(ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests"))  # the lab lives with the tests that need it

from netns_lab import Lab, lab, lab_postgres, lab_redis  # noqa: E402
from roguelike.server import store  # noqa: E402

PORT = 8025
START_SECONDS = 120.0
CGROUPS = Path("/sys/fs/cgroup/cpu")
PERIOD_US = 100_000
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Site:
    """The machines' processes, and what was done to them."""

    net: Lab
    db: str
    redis: str
    gateways: tuple[str, ...]
    cpu_share: float | None = None  # each host's CPU, in cores (None: as much as it takes)
    bytecode: str = ""  # the folder of the machines' compiled modules ("": Python's own choice)
    forked: bool = False  # each host started by its machine's forker, which has imported what hosts run
    processes: dict[str, subprocess.Popen[bytes] | ForkedHost] = field(default_factory=dict)
    forkers: dict[str, subprocess.Popen[str]] = field(default_factory=dict)
    kills: int = 0
    cuts: int = 0

    def start(self, machine: str) -> None:
        """Start the host or gateway of a machine (again)."""
        if machine in self.gateways:
            role = ["gateway", self.net.address(machine), str(PORT), self.db, self.redis]
        elif self.forked:
            self.processes[machine] = self.forker(machine).fork(f"{machine}-{self.kills}")
            return
        else:
            role = ["host", self.db, self.redis, f"{machine}-{self.kills}"]
        self.processes[machine] = self.spawn(machine, role, stdout=subprocess.DEVNULL)
        if self.cpu_share is not None and machine not in self.gateways:
            self.limit(machine)

    def spawn(self, machine: str, role: list[str], **popen_kwargs: Any) -> subprocess.Popen[Any]:
        """Start one of ``bench.cluster_serve``'s roles on a machine."""
        env = dict(os.environ)
        if self.bytecode:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = self.bytecode
        argv = [sys.executable, "-m", "bench.cluster_serve", *role]
        return self.net.spawn(machine, argv, cwd=ROOT, env=env, **popen_kwargs)

    def forker(self, machine: str) -> Forker:
        """The machine's forker of hosts (started at its first host)."""
        if machine not in self.forkers:
            pipes = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE, "text": True}
            self.forkers[machine] = self.spawn(machine, ["hosts", self.db, self.redis], **pipes)
        return Forker(self.forkers[machine])

    def limit(self, machine: str) -> None:
        """Hold a host (and every process it forks from now on) to its share of the CPU."""
        group = CGROUPS / f"hedonic-bench-{machine}"
        group.mkdir(exist_ok=True)
        assert self.cpu_share is not None
        (group / "cpu.cfs_period_us").write_text(str(PERIOD_US))
        (group / "cpu.cfs_quota_us").write_text(str(int(self.cpu_share * PERIOD_US)))
        (group / "cgroup.procs").write_text(str(self.processes[machine].pid))

    def kill(self, machine: str) -> None:
        """``kill -9`` a machine's process (its game processes die with it)."""
        process = self.processes[machine]
        process.kill()
        process.wait()

    def restart(self, machine: str) -> None:
        """Kill a machine's process and start it again, as its service manager would."""
        self.kill(machine)
        self.kills += 1
        self.start(machine)

    def cpu(self) -> dict[str, float]:
        """CPU seconds used so far by the processes alive now, by kind: ``host`` and ``gateway`` (the machines'
        own processes), ``games`` (what a host forked: its fork server and game processes), ``postgres``,
        ``redis``."""
        used: dict[str, float] = {}
        own = {
            process.pid: "gateway" if machine in self.gateways else "host"
            for machine, process in self.processes.items()
        }
        for machine in self.net.names:
            for pid in self.net.pids(machine):
                found = process_cpu(pid)
                if found is None:
                    continue
                name, seconds = found
                kind = own.get(pid) or ("games" if machine != "db" else "redis" if "redis" in name else "postgres")
                used[kind] = used.get(kind, 0.0) + seconds
        return used

    def stop(self) -> None:
        """Kill every process, and let the CPU groups go."""
        for process in [*self.processes.values(), *self.forkers.values()]:
            process.kill()
            process.wait()
        for group in CGROUPS.glob("hedonic-bench-*"):
            deadline = time.monotonic() + 10  # the game processes die with their host, a moment later
            while group.exists() and time.monotonic() < deadline:
                with contextlib.suppress(OSError):
                    group.rmdir()
                time.sleep(0.1)


@dataclass
class Forker:
    """A machine's ``bench.cluster_serve hosts`` process: each host it forks is a process of its own."""

    process: subprocess.Popen[str]

    def fork(self, name: str) -> ForkedHost:
        """A new host named ``name``."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{name}\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        assert answer.strip().isdigit(), f"the forker of {name} answered {answer!r} (exit status {self.process.poll()})"
        return ForkedHost(int(answer))


@dataclass
class ForkedHost:
    """A host forked by a machine's forker, which reaps it when it dies."""

    pid: int
    handle: int = -1  # a pidfd: the kill and the wait reach this process, never a later one given its number

    def __post_init__(self) -> None:
        self.handle = os.pidfd_open(self.pid)

    def kill(self) -> None:
        """``kill -9`` the host."""
        if self.handle >= 0:
            with contextlib.suppress(ProcessLookupError):
                signal.pidfd_send_signal(self.handle, signal.SIGKILL)

    def wait(self) -> None:
        """Wait until the host is gone (its forker reaps it at once)."""
        if self.handle < 0:
            return
        ended, _, _ = select.select([self.handle], [], [], START_SECONDS)
        assert ended, f"host process {self.pid} outlived its kill -9 by {START_SECONDS:g} s"
        os.close(self.handle)
        self.handle = -1


def process_cpu(pid: int) -> tuple[str, float] | None:
    """A process's name and the CPU seconds it has used (user and system), or None if it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    name, rest = stat[stat.index("(") + 1 : stat.rindex(")")], stat[stat.rindex(")") + 2 :].split()
    return name, (int(rest[11]) + int(rest[12])) / CLOCK_TICKS


def answers(address: str) -> bool:
    """Whether a gateway serves its lobby."""
    try:
        with urllib.request.urlopen(f"http://{address}:{PORT}/lobby", timeout=5) as reply:
            return int(reply.status) == 200
    except OSError:
        return False


@contextmanager
def site(
    hosts: Sequence[str], gateways: Sequence[str], cpu_share: float | None = None, forked: bool = False
) -> Iterator[tuple[Site, Engine]]:
    """Every machine up: the database, the hosts (``forked``: by their machines' forkers), the gateways
    answering; all of it gone after."""
    with ExitStack() as stack:
        bytecode = tempfile.mkdtemp(prefix="hedonic-site-bytecode-")
        stack.callback(shutil.rmtree, bytecode, ignore_errors=True)  # last: once the lab has ended every process
        net = stack.enter_context(lab(["db", *hosts, *gateways]))
        postgres = stack.enter_context(lab_postgres(net, "db"))
        redis = stack.enter_context(lab_redis(net, "db"))
        db = postgres.new_database()
        engine = store.open_engine(db)
        stack.callback(engine.dispose)
        running = Site(net, db, redis, tuple(gateways), cpu_share, bytecode, forked)
        stack.callback(running.stop)
        for machine in (*hosts, *gateways):
            running.start(machine)
        deadline = time.monotonic() + START_SECONDS
        while not all(answers(net.address(gateway)) for gateway in gateways):
            assert time.monotonic() < deadline, "the gateways did not start"
            time.sleep(0.2)
        yield running, engine
