"""Verification in processes forked from a fork server that has the game loaded already.

Starting an interpreter and importing the game costs about 0.35 s of CPU, most of a short
replay's verification. So by default the server starts Python's ``forkserver`` once, with the
game's prover preloaded (``roguelike.scores.proof``: the web process itself still never
imports the game), and each run is verified in a process forked from it for that run alone:
the process sets its limits on itself (CPU, address space, file size), dies with the fork
server (which dies with the server), proves the replay exactly as ``hedonic replay --verify
--json`` does, and sends back the verdict as JSON bytes (nothing coming back is unpickled).
Past its wall-clock limit it is killed. ``--verifier COMMAND`` uses a child command instead.
The fork server's last preload, :mod:`roguelike.server.prefork`, keeps the pages its children
share shared (hosted play forks its games from the same fork server). Its socket's folder is held
while this process lives, and starting it sweeps what killed servers and games left behind
(:mod:`roguelike.server.leftovers`).
"""

from __future__ import annotations

import json
import multiprocessing
import signal
import threading
from multiprocessing.connection import Connection
from multiprocessing.context import ForkServerContext
from typing import Any

from roguelike.server import leftovers
from roguelike.server.child import FAILED, KILLED, ChildLimits

PRELOAD = ["roguelike.server.job", "roguelike.scores.proof"]
PREFORK = "roguelike.server.prefork"  # imported last: its children share what the preloads made (its docstring)
MAX_VERDICT_BYTES = 1024 * 1024
GRACE_SECONDS = 2.0  # past the time limit: the process's own alarm goes first and ends its runtime's group
UNDER_WAY: set[Any] = set()  # the processes verifying now, so a stopping server can end them
UNDER_WAY_LOCK = threading.Lock()


def fork_server() -> ForkServerContext:
    """The fork server's context, the game preloaded in it, then settled for forking (``PREFORK``); the folder of
    its socket marked as this process's while it lives."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([*PRELOAD, PREFORK])
    leftovers.hold_mp_temp()
    return context


def start_fork_server() -> None:
    """Sweep what killed servers and games left, then start the fork server now (it loads the game once), not at
    the first upload."""
    from multiprocessing import forkserver

    fork_server()
    leftovers.sweep()
    forkserver.ensure_running()


def verify_forked(data: bytes, limits: ChildLimits) -> dict[str, Any]:
    """Verify a replay's bytes in a process forked for it; its verdict."""
    from roguelike.server.job import verify_and_send

    context = fork_server()
    reader, writer = context.Pipe(duplex=False)
    process = context.Process(target=verify_and_send, args=(data, limits.to_plain(), writer), daemon=True)
    with UNDER_WAY_LOCK:
        UNDER_WAY.add(process)
    try:
        process.start()
        writer.close()
        return outcome(process, reader, limits)
    finally:
        with UNDER_WAY_LOCK:
            UNDER_WAY.discard(process)
        reader.close()


def outcome(process: Any, reader: Connection, limits: ChildLimits) -> dict[str, Any]:
    """The verdict the process sends, or how it died."""
    try:
        sent = reader.recv_bytes(MAX_VERDICT_BYTES) if reader.poll(limits.seconds + GRACE_SECONDS) else None
    except (EOFError, OSError):
        sent = b""
    if sent is None:
        process.kill()
        process.join()
        return {"verdict": KILLED, "detail": f"over its time limit ({limits.seconds:g} s): killed"}
    process.join(10)
    if not sent:
        return died(process.exitcode, limits)
    found = json.loads(sent)
    return found if isinstance(found, dict) else {"verdict": FAILED, "detail": "the verifier sent no verdict"}


def died(status: int | None, limits: ChildLimits) -> dict[str, Any]:
    """The verdict of a process that sent nothing."""
    if status in (-signal.SIGXCPU, -signal.SIGKILL):
        return {"verdict": KILLED, "detail": f"over its CPU limit ({limits.seconds:g} s): killed"}
    if status == -signal.SIGALRM:  # its own alarm (job.alarm_at_limit), the parent's wait not over yet
        return {"verdict": KILLED, "detail": f"over its time limit ({limits.seconds:g} s): killed"}
    return {"verdict": FAILED, "detail": f"the verifier gave no verdict (exit status {status})"}


def end_forked() -> None:
    """Kill every process verifying now (the server is stopping: their runs stay pending)."""
    with UNDER_WAY_LOCK:
        running = list(UNDER_WAY)
    for process in running:
        if process.pid is not None:
            process.kill()
