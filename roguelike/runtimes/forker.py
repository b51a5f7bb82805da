"""Runtime children forked from one process that imported their libraries once.

Every runtime child imports the same libraries before its runtime's code (numpy, tcod, esper,
msgpack and a few standard modules: about 0.3 s of CPU each time, more than compiling the
game's own modules). Inside :func:`shared_imports`, a captured child (a verification) is forked
instead from a *forker*: a process started exactly as a fresh child is (``python -I -B``, the
child's environment, a session of its own, dying with this process) that imported those
libraries, nothing of any game, froze what it made (:func:`gc.freeze`, as the score server's
fork server does: no collection in a fork visits and so copies it), and then waits. Each run forks it; the fork takes the run's folder and command line and
runs the same boot as a fresh child (:data:`~roguelike.runtimes.dispatch.BOOT`: the
runtime's code first on the path, imported from its ``.py`` files only), so each epoch's code
is still imported afresh, in a process of its own, from the state a fresh child has once those
libraries are imported.

At this process's time limit the forker's whole group (the forker, its fork and all the fork
started) is killed, as :mod:`.launch` does for a fresh child, and the next run starts another
forker. A forker serves one interpreter and one environment; it ends with the block, or with
the process that started it (a forked worker's, with the worker). Where a process cannot fork,
where ``python`` is a frozen build (whose entry point stands in for a child, not for a forker),
or where a forker ended before forking, the child is started fresh.
"""

from __future__ import annotations

import io
import json
import locale
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from roguelike.runtimes.launch import death_with_parent, give_alarm_back, take_alarm
from roguelike.runtimes.store import RuntimeTrouble

# What every epoch's game imports before it verifies a turn, beside its own packages (epochs 1 to 16).
LIBRARIES = ("numpy", "numpy.typing", "tcod", "esper", "msgpack", "platformdirs")
STANDARD = ("argparse", "bz2", "hashlib", "lzma", "shlex", "shutil", "tempfile")
PRELOADED = LIBRARIES + STANDARD
# The forker: import the libraries, then fork once a request (a line: folder, command line); the fork
# runs the boot as ``python -I -B -c BOOT`` would, the forker reports "started" and then its exit status.
FORKER = """\
import json, os, sys
boot, (requests, replies, out, err), preloaded = sys.argv[1], map(int, sys.argv[2:6]), json.loads(sys.argv[6])
for name in preloaded:
    try:
        __import__(name)
    except Exception:
        pass  # its fork fails to import it as a fresh child would, and says so
import gc
gc.collect()  # nothing left for the collector is frozen; what is frozen no collection in a fork visits,
gc.freeze()  # and so copies: a fork's exit (its last collection) costs 23 ms, not 57
prctl = None
if sys.platform.startswith("linux"):
    import ctypes
    prctl = ctypes.CDLL(None, use_errno=True).prctl
forker = os.getpid()
reader = open(requests, "rb", closefd=False)
while True:
    line = reader.readline()
    if not line:
        os._exit(0)
    folder, argv = json.loads(line)
    pid = os.fork()
    if pid == 0:
        break
    os.write(replies, b"started\\n")
    os.write(replies, b"%d\\n" % os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
if prctl is not None:
    prctl(1, 9, 0, 0, 0)  # PR_SET_PDEATHSIG, SIGKILL: die with the forker, as it dies with its parent
    if os.getppid() != forker:
        os._exit(1)
os.dup2(out, 1)
os.dup2(err, 2)
for fd in (requests, replies, out, err):
    os.close(fd)
os.chdir(folder)
sys.argv = ["-c", *argv]
exec(compile(boot, "<string>", "exec"), {"__name__": "__main__", "__builtins__": __builtins__})
"""


class Gone(Exception):
    """The forker ended before it forked: the run never started."""


class Forker:
    """One forker process and the pipes and files it works through."""

    def __init__(self, python: Path, env: dict[str, str], boot: str) -> None:
        self.python = python
        self.boot = boot
        self.pending = b""
        self.out, self.err = tempfile.TemporaryFile(), tempfile.TemporaryFile()  # unlinked: nothing to clean
        requests, self.requests = os.pipe()
        self.replies, replies = os.pipe()
        fds = (requests, replies, self.out.fileno(), self.err.fileno())
        try:
            self.process = subprocess.Popen(
                [str(python), "-I", "-B", "-c", FORKER, boot, *map(str, fds), json.dumps(PRELOADED)],
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                pass_fds=fds,
                start_new_session=True,
                preexec_fn=death_with_parent(),
            )
        except OSError:
            self.close_files()
            raise
        finally:
            os.close(requests)
            os.close(replies)

    def run(self, code: Path, argv: Sequence[str]) -> subprocess.CompletedProcess[str]:
        """Run ``hedonic ARGV`` with a runtime's code in a fork, guarded as :func:`.launch.run_guarded` is;
        :class:`Gone` when the forker was gone before forking."""
        for file in (self.out, self.err):
            file.seek(0)
            file.truncate()
        request = memoryview((json.dumps([os.getcwd(), [str(code), *argv]]) + "\n").encode())
        try:
            while request:
                request = request[os.write(self.requests, request) :]
        except OSError:
            raise Gone from None
        alarm = take_alarm()
        started = time.monotonic()
        try:
            status = self.status(started + alarm[0] if alarm else None)
        except TimeoutError:
            self.end()
            raise RuntimeTrouble(
                f"over its time limit ({alarm[0] if alarm else 0:.3g} s): the runtime's child "
                "and all it started were killed"
            ) from None
        except BaseException:
            self.end()
            raise
        finally:
            give_alarm_back(alarm, time.monotonic() - started)
        command = [str(self.python), "-I", "-B", "-c", self.boot, str(code), *argv]
        return subprocess.CompletedProcess(command, status, text_of(self.out), text_of(self.err))

    def status(self, deadline: float | None) -> int:
        """The fork's exit status, once it has ended (TimeoutError at the deadline)."""
        if self.line(deadline) != "started":
            self.end()
            raise Gone
        ended = self.line(deadline)
        if ended is None or not ended.lstrip("-").isdigit():
            self.end()
            raise RuntimeTrouble("the runtime's child ended with its forker (killed from outside?)")
        return int(ended)

    def line(self, deadline: float | None) -> str | None:
        """The forker's next line (None when it has ended)."""
        while b"\n" not in self.pending:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not select.select([self.replies], [], [], wait)[0]:
                raise TimeoutError
            chunk = os.read(self.replies, 4096)
            if not chunk:
                return None
            self.pending += chunk
        line, _, self.pending = self.pending.partition(b"\n")
        return line.decode()

    def alive(self) -> bool:
        """Whether the forker still waits for runs."""
        return self.process.poll() is None and self.requests >= 0

    def end(self) -> None:
        """Kill the forker with its whole group (its fork and all that started) and reap it."""
        if self.process.returncode is None:  # not reaped yet: the group is still its own
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.close()

    def close(self) -> None:
        """Stop the forker (idle: no fork of it runs) and reap it."""
        if self.requests >= 0:
            os.close(self.requests)
            os.close(self.replies)
            self.requests = self.replies = -1
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self.close_files()

    def close_files(self) -> None:
        """Let go of the output files."""
        self.out.close()
        self.err.close()


def text_of(file: IO[bytes]) -> str:
    """What a fork wrote to a file, read as ``subprocess`` reads a child's pipe in text mode."""
    file.seek(0)
    return io.TextIOWrapper(io.BytesIO(file.read()), encoding=locale.getpreferredencoding(False)).read()


Key = tuple[str, str, tuple[tuple[str, str], ...]]  # an interpreter, a boot and an environment


@dataclass
class Sharing:
    """The forkers of one process inside :func:`shared_imports`, by interpreter, boot and environment."""

    pid: int = field(default_factory=os.getpid)
    forkers: dict[Key, Forker] = field(default_factory=dict)
    failed: set[Key] = field(default_factory=set)  # a forker of these ended before forking: fresh children

    def close(self) -> None:
        """Stop every forker (only in the process that started them: a process forked since leaves them be)."""
        if os.getpid() == self.pid:
            for forker in self.forkers.values():
                forker.close()
            self.forkers.clear()


SHARING: ContextVar[Sharing | None] = ContextVar("runtime_forkers", default=None)


@contextmanager
def shared_imports() -> Iterator[None]:
    """Within this block, this process's captured runtime children, and those of the workers it forks,
    are forked from forkers that imported their libraries once."""
    outer = SHARING.get()
    if not hasattr(os, "fork") or (outer is not None and outer.pid == os.getpid()):
        yield
        return
    sharing = Sharing()
    token = SHARING.set(sharing)
    try:
        yield
    finally:
        SHARING.reset(token)
        sharing.close()


def run_forked(
    python: Path, env: dict[str, str], boot: str, code: Path, argv: Sequence[str]
) -> subprocess.CompletedProcess[str] | None:
    """Run a captured child through this process's forker for ``python`` and ``env``; None outside
    :func:`shared_imports`, or when no forker can run it (the caller then starts a fresh child)."""
    sharing = SHARING.get()
    if sharing is None:
        return None
    if sharing.pid != os.getpid():  # a forked worker: forkers of its own, stopped and reaped as it exits
        sharing = Sharing()
        SHARING.set(sharing)
        ended_on_exit(sharing)
    key = (str(python), boot, tuple(sorted(env.items())))
    if key in sharing.failed or frozen(python):
        return None
    forker = sharing.forkers.get(key)
    try:
        if forker is None or not forker.alive():
            forker = sharing.forkers[key] = Forker(python, env, boot)
        return forker.run(code, argv)
    except (Gone, OSError):
        sharing.forkers.pop(key, None)
        sharing.failed.add(key)
        return None


def frozen(python: Path) -> bool:
    """Whether ``python`` is this frozen build (tools/hedonic-frozen.py stands in for a runtime's
    child, not for a forker)."""
    return bool(getattr(sys, "frozen", False)) and Path(python) == Path(sys.executable)


def ended_on_exit(sharing: Sharing) -> None:
    """Stop a forked worker's forkers when it exits, whether it ends as a pool's worker (which runs
    multiprocessing's finalizers, not ``atexit``) or as a process of its own."""
    import atexit
    from multiprocessing.util import Finalize

    atexit.register(sharing.close)
    Finalize(sharing, sharing.close, exitpriority=10)
