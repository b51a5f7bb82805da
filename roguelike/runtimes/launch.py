"""Running a runtime's child so that none of it outlives its time: the child runs in a session of
its own, and at the time limit (or when this process is interrupted) the child and everything
it started are killed together and reaped; on Linux it also dies with this process.

The time limit is this process's own pending alarm (``ITIMER_REAL``: a score server's
work-horse sets it before it verifies, and dies when it rings). While the child runs the alarm
is taken over; the child's whole group is killed when it would have rung, and then it rings as
it would have. A child that shares this terminal (watching a replay) stays in this process's
group, so that the keys, Ctrl-C and the window's size reach it.
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence

from roguelike.runtimes.store import RuntimeTrouble

PR_SET_PDEATHSIG = 1


def run_guarded(command: Sequence[str], env: dict[str, str], capture: bool) -> subprocess.CompletedProcess[str]:
    """Run a child until it ends or this process's alarm would ring; RuntimeTrouble at the limit."""
    alarm = take_alarm()
    started = time.monotonic()
    own_group = capture and hasattr(os, "killpg")
    pipe = subprocess.PIPE if capture else None
    try:
        with subprocess.Popen(
            list(command),
            env=env,
            text=True,
            stdin=subprocess.DEVNULL if capture else None,
            stdout=pipe,
            stderr=pipe,
            start_new_session=own_group,
            preexec_fn=death_with_parent() if own_group else None,
        ) as child:
            try:
                out, err = child.communicate(timeout=alarm[0] if alarm else None)
            except subprocess.TimeoutExpired:
                end(child, own_group)
                raise RuntimeTrouble(
                    f"over its time limit ({alarm[0] if alarm else 0:.3g} s): the runtime's child "
                    "and all it started were killed"
                ) from None
            except BaseException:
                end(child, own_group)
                raise
            return subprocess.CompletedProcess(list(command), child.returncode, out, err)
    finally:
        give_alarm_back(alarm, time.monotonic() - started)


def take_alarm() -> tuple[float, float] | None:
    """This process's pending alarm (seconds left, interval), stopped for now; None when none is set."""
    if not hasattr(signal, "setitimer"):
        return None
    left, interval = signal.getitimer(signal.ITIMER_REAL)
    if left <= 0:
        return None
    signal.setitimer(signal.ITIMER_REAL, 0)
    return left, interval


def give_alarm_back(alarm: tuple[float, float] | None, spent: float) -> None:
    """Set the alarm again for the time it had left (at once when that is spent: it rings as it would have)."""
    if alarm is not None:
        signal.setitimer(signal.ITIMER_REAL, max(alarm[0] - spent, 0.001), alarm[1])


def end(child: subprocess.Popen[str], own_group: bool) -> None:
    """Kill the child (with everything it started, when it leads a group of its own) and reap it."""
    try:
        if own_group:
            os.killpg(child.pid, signal.SIGKILL)
        else:
            child.kill()
    except ProcessLookupError:
        pass
    child.wait()


def death_with_parent() -> Callable[[], None] | None:
    """What a child runs before it starts, on Linux: ask to be killed when this process dies."""
    if not sys.platform.startswith("linux"):
        return None
    prctl = ctypes.CDLL(None, use_errno=True).prctl
    parent = os.getpid()

    def bind() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:  # this process died before the request was made
            os._exit(1)

    return bind
