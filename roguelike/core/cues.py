"""Cues: what just happened, told to whoever draws the game so it can animate it.

Systems append cues to the action's record (:attr:`ActionRecord.cues
<roguelike.core.state.ActionRecord.cues>`) as they act; every action gets a fresh record,
never saved, compared or checksummed, so animations (which read it) can never change a game.
Spots are ``(x, y)``; ``key`` names the hit effect, monster kind, dose kind or cause of
death; ``amount`` is a number the cue carries (the State of Mind a dose gave, the floor
arrived on). Sound (``roguelike.sound``) hears the same cues: they are what the rules did,
never the words of a message.
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
DOSE = "dose"  # spots: where the dose lay; key: its kind; amount: the State of Mind it gave
CLOSE_CALL = "close_call"  # spots: the player's tile; a dose taken at the edge of overdose or of exhaustion
SIGHTED = "sighted"  # spots: where the monster stands; key: a kind the player sees for the first time
FLOOR = "floor"  # spots: the arrival; amount: the floor's depth
DESPERATE = "desperate"  # spots: the player's tile; Desperation takes the controls
FIND = "find"  # spots: where the find lay; key: its kind (taken while High)


@dataclass(frozen=True, slots=True)
class Cue:
    """One thing that happened this action, for animation only."""

    kind: str
    spots: tuple[Spot, ...]
    key: str = ""
    amount: int = 0
