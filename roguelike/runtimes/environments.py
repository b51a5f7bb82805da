"""The Python a runtime runs on: this one when the runtime's lock matches what is installed
here, else an isolated environment with the lock's exact versions, made once and kept.

Isolated environments are made with ``uv`` when it is installed, else with ``venv`` and
``pip``. Nothing reaches the network unless asked (``online``): the libraries come from a
folder of wheels, and without one the trouble says exactly which versions are missing.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from roguelike.runtimes.pins import differences, requirements_text
from roguelike.runtimes.store import Runtime, RuntimeTrouble, cache_root

Installer = Literal["auto", "uv", "pip"]
READY = "ready"  # written last: an environment without it was cut short and is made again
OFFLINE = {"PIP_NO_INDEX": "1", "UV_OFFLINE": "1"}


def interpreter_for(
    runtime: Runtime,
    wheels: Path | None,
    online: bool,
    isolated: bool,
    installer: Installer,
    tell: Callable[[str], None],
) -> Path:
    """This Python when it has the runtime's libraries, else its isolated environment's."""
    missing = differences(runtime.lock)
    if not missing and not isolated:
        return Path(sys.executable)
    folder = environment_folder(runtime.lock)
    python = folder / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    if (folder / READY).is_file() and python.exists():
        return python
    if wheels is None and not online:
        raise RuntimeTrouble(
            f"the runtime of {runtime.name} needs {', '.join(missing) or 'its own environment'}: "
            "give --wheels FOLDER holding those wheels, or --online to let them be downloaded"
        )
    tell(f"making an environment for the runtime of {runtime.name} in {folder}")
    make_environment(folder, runtime.lock, wheels, online, installer)
    return python


def environment_folder(lock: dict[str, str]) -> Path:
    """Where the environment of a lock is kept (shared by every runtime with that lock)."""
    digest = hashlib.sha256(requirements_text(lock).encode()).hexdigest()[:16]
    return cache_root() / "environments" / digest


def make_environment(
    folder: Path, lock: dict[str, str], wheels: Path | None, online: bool, installer: Installer
) -> None:
    """Make a fresh environment holding exactly the lock's versions."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.parent.mkdir(parents=True, exist_ok=True)
    requirements = folder.with_name(folder.name + ".txt")
    requirements.write_text(requirements_text(lock), encoding="utf-8")
    uv = find_uv() if installer in ("auto", "uv") else None
    if installer == "uv" and uv is None:
        raise RuntimeTrouble("--installer uv, but uv is not installed here")
    steps = (
        uv_steps(uv, folder, requirements, wheels, online) if uv else pip_steps(folder, requirements, wheels, online)
    )
    environment = dict(os.environ) if online else {**os.environ, **OFFLINE}
    for step in steps:
        done = subprocess.run(step, env=environment, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
            raise RuntimeTrouble(f"making the environment failed ({Path(step[0]).name}): {last[0]}")
    (folder / READY).write_text("", encoding="utf-8")


def find_uv() -> str | None:
    """The uv program: on the PATH, or installed beside this Python (a virtual environment's)."""
    beside = Path(sys.executable).parent / ("uv.exe" if os.name == "nt" else "uv")
    return shutil.which("uv") or (str(beside) if beside.is_file() else None)


def source_options(wheels: Path | None, online: bool) -> list[str]:
    """Where an installer may take packages from."""
    found = ["--find-links", str(wheels)] if wheels is not None else []
    return found if online else [*found, "--no-index"]


def uv_steps(uv: str, folder: Path, requirements: Path, wheels: Path | None, online: bool) -> list[list[str]]:
    """Make the environment with uv."""
    python = folder / "bin" / "python"
    offline = [] if online else ["--offline"]
    return [
        [uv, "venv", "--quiet", "--python", sys.executable, str(folder), *offline],
        [
            uv,
            "pip",
            "install",
            "--quiet",
            "--python",
            str(python),
            *offline,
            *source_options(wheels, online),
            "--no-deps",
            "-r",
            str(requirements),
        ],
    ]


def pip_steps(folder: Path, requirements: Path, wheels: Path | None, online: bool) -> list[list[str]]:
    """Make the environment with venv and pip."""
    python = folder / "bin" / "python"
    return [
        [sys.executable, "-m", "venv", str(folder)],
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            *source_options(wheels, online),
            "--no-deps",
            "-r",
            str(requirements),
        ],
    ]
