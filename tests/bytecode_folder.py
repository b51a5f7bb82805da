"""A folder of compiled modules for the processes the tests start, ready before the first one starts.

Where Python is asked to write no bytecode (``PYTHONDONTWRITEBYTECODE``), the tests' processes keep
their compiled modules in one temporary folder (``PYTHONPYCACHEPREFIX``, see ``tests/conftest.py``)
rather than in the checkout. Python then looks for *every* compiled module there, the standard
library's and the installed packages' too, so each of the xdist workers, starting together, compiled
them all again from source: about 7 s of CPU a process, where reading them takes under 3. Seeded
here, the folder holds a link to each module the interpreter's installation compiled already, and the
game's own modules compiled once; a worker then only rewrites the test files' asserts.
"""

from __future__ import annotations

import compileall
import os
import sys
import sysconfig
from pathlib import Path

LIBRARIES = ("stdlib", "platstdlib", "purelib", "platlib")
# Folders inside those that no test process imports from: another installation's packages (outside a venv's
# path), and the standard library's own tests and IDE.
UNUSED = frozenset({"site-packages", "dist-packages", "test", "idlelib"})


def seed(prefix: Path, game: list[Path]) -> None:
    """Link the installation's compiled modules into ``prefix`` and compile the ``game`` folders there."""
    for folder in installed_folders():
        link_compiled(folder, prefix)
    kept = sys.pycache_prefix
    sys.pycache_prefix = str(prefix)  # where compileall writes, as the processes will look
    try:
        for package in game:
            compileall.compile_dir(package, quiet=1)
    finally:
        sys.pycache_prefix = kept


def installed_folders() -> list[str]:
    """The standard library's and the installed packages' folders on the import path (each once)."""
    on_path = set(sys.path)
    return sorted({path for key in LIBRARIES if (path := sysconfig.get_path(key)) in on_path})


def link_compiled(folder: str, prefix: Path) -> None:
    """Link each module compiled under ``folder`` to where a process with ``prefix`` looks for it.

    A link to a module whose source has changed since is harmless: Python checks the source's time and
    size recorded in it, compiles the module afresh and replaces the link (never the file it points to).
    """
    ending = f".{sys.implementation.cache_tag}.pyc"
    for cache, folders, names in os.walk(folder):
        folders[:] = [name for name in folders if name not in UNUSED]
        if os.path.basename(cache) != "__pycache__":
            continue
        wanted = [name for name in names if name.endswith(ending) and name.count(".") == 2]
        if not wanted:
            continue
        target = prefix / os.path.dirname(cache).lstrip(os.sep)
        target.mkdir(parents=True, exist_ok=True)
        for name in wanted:
            try:
                (target / name).symlink_to(os.path.join(cache, name))
            except FileExistsError:
                pass
