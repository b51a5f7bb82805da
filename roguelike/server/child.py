"""Verify one replay in a child process with a time limit and resource limits; its JSON verdict.

The child is ``hedonic replay --verify --json --jobs 1 FILE`` (the game's own verifier: another
rules epoch's replay goes on through that epoch's runtime). It runs in a session of its own
with limits set before it starts (``resource.setrlimit`` in ``preexec_fn``): address space,
CPU seconds, file size and core dumps; it dies with its parent (``PR_SET_PDEATHSIG``), and it is
killed with everything it started when it outlives its wall-clock limit. A hostile file
costs one killed child: the verdict says so and the server goes on.
"""

from __future__ import annotations

import ctypes
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

KILLED, FAILED = "killed", "failed"
PR_SET_PDEATHSIG = 1
MIB = 1024 * 1024
RUNNING: set[subprocess.Popen[bytes]] = set()  # the children under way, so a stopping server can end them
RUNNING_LOCK = threading.Lock()
MEMORY_SIGNS = ("MemoryError", "failed to map segment", "Cannot allocate memory")


@dataclass(frozen=True)
class ChildLimits:
    """What one verification may cost: wall-clock and CPU seconds, memory and written bytes."""

    seconds: float = 60.0
    memory_bytes: int = 1024 * MIB
    file_bytes: int = 64 * MIB

    def to_plain(self) -> dict[str, float]:
        """The limits as JSON (an RQ job's argument)."""
        return {"seconds": self.seconds, "memory_bytes": self.memory_bytes, "file_bytes": self.file_bytes}

    @classmethod
    def from_plain(cls, plain: dict[str, Any]) -> ChildLimits:
        """Limits from :meth:`to_plain`."""
        return cls(float(plain["seconds"]), int(plain["memory_bytes"]), int(plain["file_bytes"]))


def default_verifier() -> list[str]:
    """The command that verifies: this interpreter running the game's command line."""
    return [sys.executable, "-m", "roguelike"]


def limiter(limits: ChildLimits) -> Callable[[], None]:
    """What the child runs before the verifier starts: its limits, and death with its parent."""
    cpu = max(1, int(limits.seconds + 0.999))

    def limit() -> None:
        limit_self(limits, cpu)
        die_with_parent()

    return limit


def limit_self(limits: ChildLimits, cpu: int | None = None) -> None:
    """Set the limits on this process (a child about to run the verifier, or an RQ work-horse)."""
    seconds = cpu if cpu is not None else max(1, int(limits.seconds + 0.999))
    used = int(sum(resource.getrusage(resource.RUSAGE_SELF)[:2]))  # a fresh fork has used none
    resource.setrlimit(resource.RLIMIT_CPU, (used + seconds, used + seconds + 1))  # SIGXCPU, then SIGKILL
    resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_bytes, limits.file_bytes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def die_with_parent() -> None:
    """Ask Linux to kill this process when its parent dies (a killed server leaves no verifier behind)."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def memory_verdict(limits: ChildLimits) -> dict[str, Any]:
    """The verdict of a verification over its memory limit."""
    return {"verdict": KILLED, "detail": f"over its memory limit ({limits.memory_bytes // MIB} MiB)"}


def verify_bytes(data: bytes, limits: ChildLimits, verifier: Sequence[str] | None = None) -> dict[str, Any]:
    """Verify a replay's bytes in a child (through a temporary file); the verdict as a JSON object."""
    with tempfile.TemporaryDirectory(prefix="hedonic-serve-") as scratch:
        path = Path(scratch) / "upload.replay"
        path.write_bytes(data)
        command = [*(verifier or default_verifier()), "replay", "--verify", "--json", "--jobs", "1", str(path)]
        return run_child(command, limits)


def run_child(command: list[str], limits: ChildLimits) -> dict[str, Any]:
    """Run the verifier under its limits; its verdict, or why it gave none."""
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "PYTHONHASHSEED": "0"}
    with subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        preexec_fn=limiter(limits),
        start_new_session=True,
    ) as child:
        with RUNNING_LOCK:
            RUNNING.add(child)
        try:
            out, err = child.communicate(timeout=limits.seconds)
        except subprocess.TimeoutExpired:
            kill_group(child)
            return {"verdict": KILLED, "detail": f"over its time limit ({limits.seconds:g} s): killed"}
        finally:
            with RUNNING_LOCK:
                RUNNING.discard(child)
    return verdict_of(child.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), limits)


def end_all() -> None:
    """Kill every child under way (the server is stopping: their runs stay pending)."""
    with RUNNING_LOCK:
        running = list(RUNNING)
    for child in running:
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def kill_group(child: subprocess.Popen[bytes]) -> None:
    """Kill the child and whatever it started, and reap it."""
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    child.communicate()


def verdict_of(status: int, out: str, err: str, limits: ChildLimits) -> dict[str, Any]:
    """The child's JSON verdict, or a verdict saying how it died."""
    if status in (-signal.SIGXCPU, -signal.SIGKILL):
        return {"verdict": KILLED, "detail": f"over its CPU limit ({limits.seconds:g} s): killed"}
    if any(sign in err for sign in MEMORY_SIGNS):
        return memory_verdict(limits)
    try:
        found = json.loads(out.splitlines()[0])
    except (IndexError, ValueError):
        found = None
    if not isinstance(found, dict) or not isinstance(found.get("verdict"), str):
        last = (err.strip().splitlines() or [f"exit status {status}"])[-1]
        return {"verdict": FAILED, "detail": f"the verifier gave no verdict: {last[:300]}"}
    return found
