"""The rules epoch: which rules a game was played under.

Bump :data:`RULES_EPOCH` in the same change as anything that alters the outcome of any
replay (a formula, a table of content, the map generator, the order of the systems, a
random draw added or moved), then re-record the corpus with
``hedonic replay --rerecord replays/``: the old corpus is kept in ``replays/epochs/<n>/``
and goes on verifying through the runtime of its epoch (:mod:`roguelike.runtimes`).
Replays and saves record the epoch they were made under; files made before epochs were
recorded are :data:`FIRST_EPOCH`.
"""

from __future__ import annotations

from typing import Final

from roguelike.ground.replayframe import FIRST_EPOCH as FIRST_EPOCH  # the score server reads it there

RULES_EPOCH: Final = 16
