"""A busy machine: keep every core working while another command runs, as a loaded CI box does.

Run: ``python -m bench.busy [--load N] [--seconds S] -- COMMAND ...``. It starts N spinning
processes (default: twice the cores, so the load average reaches about 2N on an idle box,
10 on two cores with ``--load 10``), runs COMMAND, stops the spinners when it ends (or
after S seconds, default 3,600, whichever comes first), and prints the load average seen
and COMMAND's exit code, which it exits with. Without COMMAND it only keeps the machine
busy for S seconds. The README's test command passing under ``--load 10`` is issue 46's
check that no test hangs on wall-clock time (docs/performance.md, "The suite on a busy
machine").
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import signal
import subprocess
import sys
import time


def spin(until: float) -> None:
    """Burn CPU until the monotonic clock passes ``until`` (a spinner process)."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    count = 0
    while time.monotonic() < until:
        count += 1


def spinners(load: int, seconds: float) -> list[multiprocessing.Process]:
    """``load`` spinning processes that stop by themselves after ``seconds``."""
    until = time.monotonic() + seconds
    started = [multiprocessing.Process(target=spin, args=(until,), daemon=True) for _ in range(load)]
    for process in started:
        process.start()
    return started


def stop(processes: list[multiprocessing.Process]) -> None:
    """End the spinners and reap them."""
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(5)


def run(command: list[str], load: int, seconds: float) -> int:
    """Run ``command`` (or only wait) while ``load`` spinners keep the machine busy."""
    busy = spinners(load, seconds)
    try:
        if not command:
            time.sleep(seconds)
            return 0
        return subprocess.run(command, timeout=seconds).returncode
    except subprocess.TimeoutExpired:
        print(f"busy: {' '.join(command)} outlived {seconds:g} s", file=sys.stderr)
        return 124
    finally:
        print(f"busy: load average {os.getloadavg()[0]:.1f} with {load} spinners", file=sys.stderr)
        stop(busy)


def main(argv: list[str] | None = None) -> int:
    """The command line."""
    parser = argparse.ArgumentParser(prog="python -m bench.busy", description=__doc__.splitlines()[0])
    parser.add_argument("--load", type=int, default=2 * (os.cpu_count() or 1), help="spinning processes")
    parser.add_argument("--seconds", type=float, default=3600.0, help="the most the spinners run")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the command to run while busy (after --)")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    return run(command, args.load, args.seconds)


if __name__ == "__main__":
    sys.exit(main())
