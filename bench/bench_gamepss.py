"""Where a hosted game process's memory goes: PSS per game, and its private pages by mapping.

    python -m bench.bench_gamepss [--clients 20] [--seconds 30]
        a hosted server on loopback (``bench.bench_hosted serve``) and N bot-driven players, as
        ``bench.bench_hosted load`` runs them; near the end, every game process's PSS (mean,
        most) and, summed over the mappings of one kind (the heap, anonymous memory, each
        shared library, the fork server's pages written since), the mean of each kind's PSS and
        private dirty kB, the largest first.

Figures go to stdout as ``label: value unit``; docs/performance.md keeps them.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

from bench.bench_hosted import THINK, game_processes
from bench.common import figure
from bench.hosted_players import Served, play_all

SHOWN = 14  # kinds of mapping listed


def kind_of(name: str) -> str:
    """What a mapping is: the heap, the stack, anonymous memory, or the file it maps (its package's folder)."""
    if not name:
        return "[anonymous]"
    if name.startswith("["):
        return name
    parts = Path(name).parts
    for marker in ("site-packages", "lib-dynload"):
        if marker in parts:
            index = parts.index(marker)
            return "/".join(parts[index : index + 2])
    return Path(name).name


def mappings(pid: int) -> dict[str, tuple[int, int]]:
    """A process's PSS and private dirty kB by kind of mapping."""
    found: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    current = "[anonymous]"
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
            head = line.split(maxsplit=5)
            if "-" in head[0] and not head[0].endswith(":"):
                current = kind_of(head[5] if len(head) > 5 else "")
            elif head[0] == "Pss:":
                found[current][0] += int(head[1])
            elif head[0] == "Private_Dirty:":
                found[current][1] += int(head[1])
    return {kind: (pss, dirty) for kind, (pss, dirty) in found.items()}


def rollup(pid: int) -> dict[str, int]:
    """A process's smaps_rollup, kB."""
    found: dict[str, int] = {}
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
            name, value, *_ = line.split()
            found[name.rstrip(":")] = int(value)
    return found


def measure(pids: list[int]) -> None:
    """Print the games' PSS and where it goes."""
    rolls = [found for found in map(rollup, pids) if found]
    if not rolls:
        print("no game process found")
        return
    pss = [found["Pss"] / 1024 for found in rolls]
    figure("game processes measured", len(rolls), "processes")
    figure("PSS per game process, mean", statistics.fmean(pss), "MiB")
    figure("PSS per game process, most", max(pss), "MiB")
    for field in ("Rss", "Private_Dirty", "Private_Clean", "Shared_Dirty", "Shared_Clean", "Anonymous"):
        figure(f"{field} per game process, mean", statistics.fmean(found[field] for found in rolls) / 1024, "MiB")
    kinds: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for pid in pids:
        for kind, (pss_kb, dirty) in mappings(pid).items():
            kinds[kind][0] += pss_kb
            kinds[kind][1] += dirty
    for kind, (pss_kb, dirty) in sorted(kinds.items(), key=lambda item: -item[1][0])[:SHOWN]:
        print(f"  {kind:40} PSS {pss_kb / len(rolls):8.0f} kB  private dirty {dirty / len(rolls):8.0f} kB")


def measure_later(server: int, seconds: float) -> None:
    """Wait, then measure the server's game processes."""
    time.sleep(max(0.0, seconds))
    measure(game_processes(server))


def main() -> int:
    """Play N games on a hosted server and measure their processes near the end."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    with Served(Path(tempfile.mkdtemp(prefix="hedonic-bench-gamepss-"))) as served:
        assert served.process is not None
        server = served.process.pid
        watcher = threading.Thread(target=measure_later, args=(server, args.seconds - 3))
        watcher.start()
        tally = play_all(served, args.clients, args.seconds, THINK, drop_chance=0.0)
        watcher.join()
    figure("keys played", len(tally.latencies), "keys")
    for error in tally.errors[:5]:
        print("client error:", error)
    return 0


if __name__ == "__main__":
    sys.exit(main())
