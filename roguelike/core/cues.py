"""Cues: what just happened, told to whoever draws the game so it can animate it.

Systems append cues to :attr:`GameState.cues` as they act; the list is emptied at the
start of every action and is never saved, compared or checksummed, so animations (which
read it) can never change a game. Spots are ``(x, y)``; ``key`` names the hit effect,
monster kind, dose kind or cause of death.
"""

from __future__ import annotations

from dataclasses import dataclass

Spot = tuple[int, int]

HIT = "hit"  # spots: the tile struck; key: the hit effect ("slain" for the player's blow)
SLAIN = "slain"  # spots: where the monster stood; key: its kind
FORCED = "forced"  # spots: from, to; the player moved without choosing to
BLAST = "blast"  # spots: the dose's tile, then every tile of the blast in order of distance
DEATH = "death"  # spots: where the player died; key: the cause
PERFECT_HIGH = "perfect_high"  # spots: the player's tile


@dataclass(frozen=True, slots=True)
class Cue:
    """One thing that happened this action, for animation only."""

    kind: str
    spots: tuple[Spot, ...]
    key: str = ""
