"""Playing a replay of another rules epoch: its epoch's runtime, run in a child process.

The child is this machine's Python (or an isolated environment's, when the runtime's lock
differs from the libraries installed here) with the runtime's code first on its import
path, running the same ``hedonic`` command line. A runtime is checked against its manifest
before it runs; a damaged one is named, moved aside and rebuilt where that can be done, and
never used. The child runs isolated (``-I -B``: no user site folder, no ``PYTHON*``
variables, no bytecode written), and the runtime's code is imported from its sources alone:
no bytecode, planted or not, is ever read from it. It runs guarded (:mod:`.launch`): killed
with all it started at this process's time limit. Inside :func:`.forker.shared_imports`, a
captured child is forked from a process that imported the libraries once (:mod:`.forker`).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from roguelike.ground.versions import version_key
from roguelike.runtimes.environments import Installer, interpreter_for
from roguelike.runtimes.forker import run_forked
from roguelike.runtimes.launch import run_guarded
from roguelike.runtimes.store import Runtime, RuntimeTrouble, damage, kept_runtimes

CHILD_ENV = "HEDONIC_RUNTIME_CHILD"  # set in a runtime's child: it never dispatches again
# Imports from the runtime's folder read its .py files only (never a .pyc, in __pycache__ or
# not, nor an extension module), whatever else lies there.
BOOT = (
    "import os, sys\n"
    "from importlib.machinery import SOURCE_SUFFIXES, FileFinder, SourceFileLoader\n"
    "code = sys.argv[1]\n"
    "class SourceOnly(SourceFileLoader):\n"
    "    def get_code(self, fullname):\n"
    "        return self.source_to_code(self.get_data(self.path), self.path)\n"
    "def sources_only(entry):\n"
    "    if entry == code or entry.startswith(os.path.join(code, '')):\n"
    "        return FileFinder(entry, (SourceOnly, SOURCE_SUFFIXES))\n"
    "    raise ImportError(entry)\n"
    "sys.path_hooks.insert(0, sources_only)\n"
    "sys.path_importer_cache.clear()\n"
    "sys.path[:] = [code] + [p for p in sys.path if p not in ('', '.')]\n"
    "sys.argv = ['hedonic', *sys.argv[2:]]\n"
    "from roguelike.cli.main import main\n"
    "raise SystemExit(main(sys.argv[1:]))\n"
)

Tell = Callable[[str], None]


@dataclass(frozen=True)
class Options:
    """How to reach a runtime's libraries: a wheel folder, the network, always isolated, and by what."""

    wheels: Path | None = None
    online: bool = False
    isolated: bool = False
    installer: Installer = "auto"


def in_runtime_child() -> bool:
    """Whether this process is already a runtime's child."""
    return os.environ.get(CHILD_ENV) == "1"


def runtime_for(epoch: int, replay_format: int, tell: Tell) -> Runtime:
    """The newest whole runtime of an epoch that reads a replay format; RuntimeTrouble if none."""
    from roguelike.runtimes.repair import repaired

    kept, _ = kept_runtimes()
    fitting = [r for r in kept if r.epoch == epoch and r.replay_format >= replay_format]
    for runtime in sorted(fitting, key=lambda r: version_key(r.version), reverse=True):
        problems = damage(runtime)
        if not problems:
            return runtime
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        tell(f"the runtime of {runtime.name} ({runtime.path}) is damaged: {problems[0]}{more}")
        fixed = repaired(runtime, tell)
        if fixed is not None:
            return fixed
    raise RuntimeTrouble(missing_runtime(epoch, replay_format))


def missing_runtime(epoch: int, replay_format: int) -> str:
    """What to do when no runtime can play an epoch's replays."""
    return (
        f"no runtime of rules epoch {epoch} (reading replay format {replay_format}) is kept on this machine: "
        f"install a game version of that epoch once, or add one with 'hedonic runtimes --add WHEEL|FOLDER|GIT-REVISION'"
        " (see the manual, docs/manual.md, 'Old replays')"
    )


def child_command(runtime: Runtime, python: Path, argv: Sequence[str]) -> list[str]:
    """The command that runs ``hedonic ARGV`` with a runtime's code."""
    return [str(python), "-I", "-B", "-c", BOOT, str(runtime.code), *argv]


def child_environment() -> dict[str, str]:
    """This process's environment, marked as a runtime's child that writes no bytecode."""
    return {**os.environ, CHILD_ENV: "1", "PYTHONDONTWRITEBYTECODE": "1"}


def run_in_runtime(
    runtime: Runtime, argv: Sequence[str], options: Options, tell: Tell, capture: bool = False
) -> subprocess.CompletedProcess[str]:
    """Run ``hedonic ARGV`` under a whole runtime; its streams are this process's unless captured.

    RuntimeTrouble when the runtime is damaged (it never runs) or at this process's time limit."""
    problems = damage(runtime)
    if problems:
        raise RuntimeTrouble(f"the runtime in {runtime.path} is damaged ({problems[0]}): refused")
    python = interpreter_for(runtime, options.wheels, options.online, options.isolated, options.installer, tell)
    forked = run_forked(python, child_environment(), BOOT, runtime.code, argv) if capture else None
    if forked is not None:
        return forked
    return run_guarded(child_command(runtime, python, argv), child_environment(), capture)


def stderr_teller(prefix: str = "hedonic") -> Tell:
    """Tell by one line on stderr."""
    return lambda text: print(f"{prefix}: {text}", file=sys.stderr)
