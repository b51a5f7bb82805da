"""What an action sounds like: the effects its cues call for.

Sounds follow what the rules did (the :mod:`roguelike.core.cues` of an action), never the
words of a message. A death drowns out everything else of its action; an effect plays
once per action however many cues call for it (a blast slaying five monsters is one
slaying), and the effects of one action follow each other closely rather than at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from roguelike.core import cues
from roguelike.core.cues import Cue
from roguelike.sound.bank import dose_sound

STAGGER_SECONDS = 0.07  # between the effects of one action
MOST_PER_ACTION = 4

# The effect for each kind of cue (None: silent), from the cue itself.
SOUNDS: dict[str, Callable[[Cue], str | None]] = {
    cues.DOSE: lambda cue: dose_sound(cue.amount),
    cues.CLOSE_CALL: lambda cue: "close_call",
    cues.SIGHTED: lambda cue: "sighted",
    cues.HIT: lambda cue: None if cue.key == cues.SLAIN else "hit",  # the player's own blow sounds as the slaying
    cues.SLAIN: lambda cue: "slain",
    cues.BLAST: lambda cue: "blast",
    cues.FLOOR: lambda cue: "floor",
    cues.DESPERATE: lambda cue: "desperate",
    cues.PERFECT_HIGH: lambda cue: "perfect_high",
    cues.DEATH: lambda cue: "death",
}


def sounds_for(action: Iterable[Cue]) -> list[tuple[str, float]]:
    """The effects an action's cues call for, each with its delay in seconds."""
    found: list[str] = []
    for cue in action:
        if cue.kind == cues.DEATH:
            return [("death", 0.0)]
        sound = SOUNDS[cue.kind](cue) if cue.kind in SOUNDS else None
        if sound is not None and sound not in found:
            found.append(sound)
    return [(name, index * STAGGER_SECONDS) for index, name in enumerate(found[:MOST_PER_ACTION])]
