"""The fork server's last preload: once everything is imported, keep the pages its children share shared.

Only the fork server imports this module (:mod:`roguelike.server.forked` names it after every other
preload), for what importing it does. A process forked from the fork server shares the fork server's
pages until it writes to one, and three things would write to most of them in every child, so that
each hosted game would pay for its own copy of the game's modules (docs/performance.md, issue 43):

- multiprocessing runs the server's main module again in every child (``__mp_main__``: a console
  script, or ``bench.bench_hosted``, and all it imports). The children run functions of the game's
  own modules, named by module, so they need nothing of the main module: here it is never run again.
- the cyclic garbage collector: a full collection in a child writes into the header of every object
  the fork server made. :func:`gc.freeze` moves them all into a generation the collector never visits.
- objects the fork server would have left for the collector: collected first, so none is frozen.
"""

from __future__ import annotations

import gc
from multiprocessing import spawn

# The two steps of multiprocessing's start of a child that run the parent's main module again.
RUNS_MAIN = ("_fixup_main_from_name", "_fixup_main_from_path")


def leave_main_alone(main: str) -> None:
    """Run nothing of the parent's main module ``main`` (in place of multiprocessing's own step)."""


def settle() -> None:
    """Keep the fork server's children from copying its pages: no main module again, its objects frozen."""
    for step in RUNS_MAIN:
        if hasattr(spawn, step):  # a private step of multiprocessing: if a Python drops it, nothing to replace
            setattr(spawn, step, leave_main_alone)
    gc.collect()
    gc.freeze()


settle()
