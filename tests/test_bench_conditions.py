"""Bench figures come with the conditions they were measured in: the machine's load and the disk."""

from __future__ import annotations

import os
from pathlib import Path

from bench.common import disk_of, machine


def test_a_figures_conditions_name_the_load_and_the_file_system_under_the_folder(tmp_path: Path) -> None:
    line = machine(tmp_path)
    assert f"{os.cpu_count()} cores" in line and "load average" in line
    mounts = [entry.split() for entry in Path("/proc/mounts").read_text().splitlines()]
    where = str(tmp_path.resolve())
    deepest = max((m for m in mounts if where.startswith(m[1].rstrip("/") + "/")), key=lambda m: len(m[1]))
    assert disk_of(tmp_path).startswith(f"{deepest[2]} on {deepest[0]} at {deepest[1]}")
    assert line.endswith(disk_of(tmp_path))
