"""Several machines on one box for the hosted-play cluster tests: network namespaces on one bridge.

``lab(["db", "h1", "h2"])`` makes a namespace per machine and a "switch" namespace holding a
Linux bridge; each machine is joined to the bridge by a veth pair (its own end is ``lab0``) and
has an address on a private /24, and the root namespace (pytest, the bot players) gets a cable
and an address too, so the test reaches every machine's servers. ``cut`` sets a machine's
cable down at the switch and ``mend`` sets it up again: TCP to and from it stalls, with no
reset and no refusal, as when a real cable is pulled.

Every address has a permanent neighbour entry everywhere (the MACs are ours, derived from the
addresses): no ARP is ever asked, so a cut machine's connects time out instead of failing with
"No route to host" three seconds later when ARP gives up.

The bridge lives in a namespace of its own so the root namespace's firewall (Docker's FORWARD
DROP, br_netfilter) never sees the lab's frames. It needs root and iproute2's ``ip``; both are
checked first, naming what is missing. Names carry the pid: pytest-xdist workers never clash,
and the leftovers of a killed run are removed by the next lab.
"""

from __future__ import annotations

import fcntl
import ipaddress
import os
import re
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from ipaddress import IPv4Network
from itertools import count
from pathlib import Path
from typing import Any

from server_services import Postgres, postgres_cluster, redis_server

PREFIX = "hedonic-lab"  # namespaces: hedonic-lab-PID-SERIAL-NAME
ROOT_LINK = "hlab"  # the root namespace's cable: hlabPIDHEX-SERIAL (at most 15 characters)
INSIDE = "lab0"  # a machine's own end of its cable
PORT = "p-"  # the switch's end of a machine's cable: p-NAME
SUBNETS = IPv4Network("10.213.0.0/16")  # one /24 of it per lab
LOCK = Path("/run/hedonic-netns-lab.lock")  # choosing a free /24 is one lab at a time on this machine
ROOT_HOST = 254  # the root namespace's address in the /24; the machines take 1, 2, ...
SETTLE = 60.0  # seconds a link may take to come up (generous: CI at load 10)
NAME = re.compile(r"[a-z][a-z0-9]{0,12}")
RESERVED = {"root", "switch"}
LEFTOVER = re.compile(rf"{PREFIX}-(\d+)-(\d+)-")
LEFTOVER_LINK = re.compile(rf"{ROOT_LINK}([0-9a-f]+)-(\d+)")

serials = count()
live: set[tuple[int, int]] = set()  # (pid, serial) of this process's labs now open


@dataclass
class Lab:
    """Open namespaces: a machine's address, a command run inside it, its cable cut and mended."""

    pid: int
    serial: int
    subnet: IPv4Network
    names: tuple[str, ...]
    spawned: list[subprocess.Popen[Any]] = field(default_factory=list)

    @property
    def prefix(self) -> str:
        """What every namespace of this lab is named with."""
        return f"{PREFIX}-{self.pid}-{self.serial}"

    @property
    def switch(self) -> str:
        """The namespace holding the bridge."""
        return f"{self.prefix}-switch"

    @property
    def root_link(self) -> str:
        """The root namespace's end of its cable to the switch."""
        return f"{ROOT_LINK}{self.pid:x}-{self.serial}"

    @property
    def root_address(self) -> str:
        """The root namespace's address on the lab's subnet."""
        return str(self.subnet[ROOT_HOST])

    def namespace(self, name: str) -> str:
        """The network namespace of machine ``name``."""
        self.check(name)
        return f"{self.prefix}-{name}"

    def address(self, name: str) -> str:
        """Machine ``name``'s IPv4 address."""
        self.check(name)
        return str(self.subnet[self.names.index(name) + 1])

    def enter(self, name: str) -> list[str]:
        """The command prefix that runs a program inside machine ``name`` (as root: setns needs it)."""
        return [ip_program(), "netns", "exec", self.namespace(name)]

    def spawn(self, name: str, argv: Sequence[str], **popen_kwargs: Any) -> subprocess.Popen[Any]:
        """Start ``argv`` inside machine ``name``; the lab kills it (and its children) on exit if still running."""
        process: subprocess.Popen[Any] = subprocess.Popen([*self.enter(name), *argv], **popen_kwargs)
        self.spawned.append(process)
        return process

    def pids(self, name: str) -> list[int]:
        """The processes running inside machine ``name`` now."""
        return [int(pid) for pid in ip("netns", "pids", self.namespace(name)).split()]

    def cut(self, name: str) -> None:
        """Pull machine ``name``'s cable at the switch: nothing reaches it or leaves it, nothing is refused."""
        self.check(name)
        ip("-n", self.switch, "link", "set", PORT + name, "down")

    def mend(self, name: str) -> None:
        """Plug machine ``name``'s cable back in and wait until both ends carry frames again."""
        self.check(name)
        ip("-n", self.switch, "link", "set", PORT + name, "up")
        wait_up([(self.switch, PORT + name), (self.namespace(name), INSIDE)])

    def check(self, name: str) -> None:
        """Fail naming the machines when ``name`` is none of them."""
        if name not in self.names:
            raise KeyError(f"no machine {name!r} in the lab (it has {', '.join(self.names)})")

    def all_namespaces(self) -> list[str]:
        """Every namespace of the lab, the switch's last."""
        return [f"{self.prefix}-{name}" for name in self.names] + [self.switch]

    def mac(self, host: int) -> str:
        """The MAC of the host numbered ``host`` in the /24: locally administered, unique on this machine."""
        third = self.subnet.network_address.packed[2]
        return f"02:68:6c:{third:02x}:00:{host:02x}"


@contextmanager
def lab(names: Sequence[str]) -> Iterator[Lab]:
    """Machines ``names`` on one switch, the root namespace on it too; all of it removed on exit, even on failure."""
    check_names(names)
    check_tools()
    pid = os.getpid()
    serial = next(serials)
    with LOCK.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released on close: then our /24 is on the root's routes
        sweep_leftovers()
        built = Lab(pid, serial, free_subnet(), tuple(names))
        live.add((pid, serial))
        try:
            build(built)
        except BaseException:
            tear_down(built)
            raise
    try:
        wait_up([(built.namespace(name), INSIDE) for name in names] + [("", built.root_link)])
        yield built
    finally:
        tear_down(built)


def lab_postgres(lab: Lab, name: str) -> AbstractContextManager[Postgres]:
    """A private PostgreSQL cluster on machine ``name``: TCP at its address, 300 connections, role ``scores``."""
    return postgres_cluster(enter=lab.enter(name), address=lab.address(name), max_connections=300)


def lab_redis(lab: Lab, name: str) -> AbstractContextManager[str]:
    """A private redis-server on machine ``name`` (nothing saved); its ``redis://ADDRESS:6379/0`` URL."""
    return redis_server(enter=lab.enter(name), address=lab.address(name))


def check_names(names: Sequence[str]) -> None:
    """Fail on a name that cannot make a short interface name, a reserved one or a repeated one."""
    for name in names:
        if not NAME.fullmatch(name) or name in RESERVED:
            raise ValueError(f"bad machine name {name!r}: 1-13 of a-z0-9, a letter first, not root or switch")
    if len(set(names)) != len(names) or not 0 < len(names) < ROOT_HOST - 1:
        raise ValueError(f"machine names must be distinct, 1 to {ROOT_HOST - 2} of them: {list(names)}")


def check_tools() -> None:
    """Fail naming what the lab needs and lacks: root, iproute2's ``ip``."""
    if os.geteuid() != 0:
        raise RuntimeError("the network lab needs root (ip netns, veth pairs, a bridge): run the tests as root")
    ip_program()


def ip_program() -> str:
    """iproute2's ``ip`` (in /usr/sbin, which a user's PATH may lack)."""
    found = shutil.which("ip", path=f"{os.environ.get('PATH', '')}:/usr/sbin:/sbin")
    if found is None:
        raise RuntimeError("ip is missing: install Debian's iproute2 package (apt-get install iproute2)")
    return found


def ip(*words: str, batch: Sequence[str] = ()) -> str:
    """Run ``ip`` (with ``batch``: its lines, one command a line, read from stdin); its output, or why it failed."""
    argv = [ip_program(), *words] + (["-batch", "-"] if batch else [])
    result = subprocess.run(argv, input="".join(f"{line}\n" for line in batch), capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed: {result.stderr.strip()}\n" + "\n".join(batch))
    return result.stdout


def build(lab: Lab) -> None:
    """Make the namespaces, the bridge, the cables, the addresses and the neighbour entries."""
    root_mac = lab.mac(ROOT_HOST)
    try:
        ip(
            batch=[f"netns add {namespace}" for namespace in lab.all_namespaces()]
            + [f"link add {lab.root_link} address {root_mac} type veth peer name {PORT}root netns {lab.switch}"]
            + plug_in(lab, lab.root_link, ROOT_HOST)
        )
    except RuntimeError as error:
        raise RuntimeError(f"no namespaces or no veth pair (/run/netns, module veth, CONFIG_VETH): {error}") from None
    try:
        ip("-n", lab.switch, "link", "add", "switch", "type", "bridge")
    except RuntimeError as error:
        raise RuntimeError(f"the kernel made no Linux bridge (module bridge, CONFIG_BRIDGE): {error}") from None
    ip("-n", lab.switch, batch=switch_lines(lab))
    for host, name in enumerate(lab.names, 1):
        ip("-n", lab.namespace(name), batch=["link set lo up"] + plug_in(lab, INSIDE, host))


def switch_lines(lab: Lab) -> list[str]:
    """The switch's commands: a cable per machine, every port on the bridge and up."""
    lines = ["link set switch up", f"link set {PORT}root master switch up"]
    for host, name in enumerate(lab.names, 1):
        lines.append(
            f"link add {PORT}{name} type veth peer name {INSIDE} address {lab.mac(host)} netns {lab.namespace(name)}"
        )
        lines.append(f"link set {PORT}{name} master switch up")
    return lines


def plug_in(lab: Lab, link: str, host: int) -> list[str]:
    """A namespace's commands for its end of a cable: its address, up, every other host's MAC known for good."""
    lines = [f"addr add {lab.subnet[host]}/{lab.subnet.prefixlen} dev {link}", f"link set {link} up"]
    for other in [*range(1, len(lab.names) + 1), ROOT_HOST]:
        if other != host:
            lines.append(f"neigh replace {lab.subnet[other]} lladdr {lab.mac(other)} dev {link} nud permanent")
    return lines


def wait_up(links: Sequence[tuple[str, str]]) -> None:
    """Wait until each (namespace, link) ("" is the root namespace) is up with a carrier (RuntimeError after SETTLE s)."""
    deadline = time.monotonic() + SETTLE
    for namespace, link in links:
        while "state UP" not in ip(*(["-n", namespace] if namespace else []), "-o", "link", "show", link):
            if time.monotonic() > deadline:
                raise RuntimeError(f"{link} in {namespace or 'the root namespace'} did not come up in {SETTLE} s")
            time.sleep(0.02)


def free_subnet() -> IPv4Network:
    """A /24 of SUBNETS that no route or address of the root namespace touches, tried from one the pid picks."""
    taken = root_networks()
    subnets = list(SUBNETS.subnets(new_prefix=24))[1:-1]
    start = os.getpid() % len(subnets)
    for subnet in subnets[start:] + subnets[:start]:
        if not any(subnet.overlaps(network) for network in taken):
            return subnet
    raise RuntimeError(f"every /24 of {SUBNETS} is in use in the root namespace")


def root_networks() -> list[IPv4Network]:
    """The IPv4 networks of the root namespace's routes and addresses (the default route aside)."""
    words = ip("-4", "route", "show").split() + ip("-4", "-o", "addr", "show").split()
    networks = []
    for word in words:
        if re.fullmatch(r"\d+\.\d+\.\d+\.\d+(/\d+)?", word):
            networks.append(ipaddress.ip_interface(word).network)
    return [network for network in networks if isinstance(network, IPv4Network) and network.prefixlen > 0]


def sweep_leftovers() -> None:
    """Remove the namespaces and root cables of labs whose process is dead (a run killed before its clean-up)."""
    for namespace in ip("netns", "list").split():
        found = LEFTOVER.match(namespace)
        if found and dead(int(found[1]), int(found[2])):
            stop_everything_in(namespace)
            ip("netns", "del", namespace)
    for link in os.listdir("/sys/class/net"):
        found = LEFTOVER_LINK.fullmatch(link)
        if found and dead(int(found[1], 16), int(found[2])):
            ip("link", "del", link)


def dead(pid: int, serial: int) -> bool:
    """Whether the lab (pid, serial) is nobody's now: its process is gone, or it is ours and closed."""
    if pid == os.getpid():
        return (pid, serial) not in live
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def tear_down(lab: Lab) -> None:
    """Kill what runs inside the lab, delete the root's cable and every namespace (what exists of them)."""
    existing = set(ip("netns", "list").split())
    namespaces = [namespace for namespace in lab.all_namespaces() if namespace in existing]
    for namespace in namespaces:
        stop_everything_in(namespace)
    for process in lab.spawned:
        process.wait(SETTLE)
    if os.path.exists(f"/sys/class/net/{lab.root_link}"):
        ip("link", "del", lab.root_link)
    for namespace in namespaces:
        ip("netns", "del", namespace)
    live.discard((lab.pid, lab.serial))


def stop_everything_in(namespace: str) -> None:
    """SIGKILL every process in ``namespace`` until none is left (a zombie holds no namespace)."""
    deadline = time.monotonic() + SETTLE
    while pids := [int(pid) for pid in ip("netns", "pids", namespace).split()]:
        if time.monotonic() > deadline:
            raise RuntimeError(f"processes {pids} in {namespace} outlived SIGKILL for {SETTLE} s")
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.02)
