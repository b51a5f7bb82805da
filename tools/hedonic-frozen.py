"""The Linux build's entry point (tools/hedonic.spec): the ``hedonic`` command, frozen.

``multiprocessing.freeze_support()`` comes first, so that a worker started by spawn or
forkserver (the balance bots, the score server's verifiers) runs its task instead of a second
game. A frozen build is no Python that can run ``python -I -B -c BOOT CODE ARGS``, the command
line :mod:`roguelike.runtimes.dispatch` starts a runtime's child with; given it, this does what
BOOT does (the runtime's code first on the import path, read from its .py files only, then its
``hedonic ARGS``) without running the BOOT text. Keep the two in step.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from importlib.machinery import SOURCE_SUFFIXES, FileFinder, SourceFileLoader

CHILD = ["-I", "-B", "-c"]  # how dispatch.child_command starts a runtime's child: -c BOOT CODE ARGS...


class SourceOnly(SourceFileLoader):
    """Imports from a runtime's folder compile its .py file, never a .pyc lying there."""

    def get_code(self, fullname: str) -> object:
        """The module's code, from its source."""
        return self.source_to_code(self.get_data(self.path), self.path)


def runtime_child(code: str, argv: list[str]) -> int:
    """Run ``hedonic ARGV`` with a runtime's code (the folder ``code``) first on the import path."""
    sys.dont_write_bytecode = True

    def sources_only(entry: str) -> FileFinder:
        if entry == code or entry.startswith(os.path.join(code, "")):
            return FileFinder(entry, (SourceOnly, SOURCE_SUFFIXES))
        raise ImportError(entry)

    sys.path_hooks.insert(0, sources_only)
    sys.path_importer_cache.clear()
    sys.path[:] = [code] + [path for path in sys.path if path not in ("", ".")]
    sys.argv = ["hedonic", *argv]
    from roguelike.cli.main import main

    return main(argv)


def main() -> int:
    """Play, or serve as a worker or a runtime's child."""
    multiprocessing.freeze_support()
    if sys.argv[1:4] == CHILD and len(sys.argv) >= 6:
        return runtime_child(sys.argv[5], sys.argv[6:])
    from roguelike.cli.main import main as hedonic

    return hedonic()


if __name__ == "__main__":
    raise SystemExit(main())
