"""Components: small dataclasses holding the data of entities, with no behaviour.

Every component that is saved is listed in :mod:`components.registry` under a stable name.
"""

from __future__ import annotations

from components.actors import (
    Attributes,
    FindsTaken,
    HighStreak,
    Palette,
    Player,
    Record,
    Score,
    Sight,
    StateOfMind,
    Tolerance,
)
from components.intents import ActionPoints, MoveIntent, TakenOver, UseDose
from components.items import Carried, Dose, Find, Shortcut, Vision
from components.monsters import Ashamed, Bestiary, Confused, Doubting, Monster, Panicked, Stunned
from components.spatial import BlocksMovement, Position, Renderable

__all__ = [
    "ActionPoints",
    "Ashamed",
    "Attributes",
    "Bestiary",
    "BlocksMovement",
    "Carried",
    "Confused",
    "Dose",
    "Doubting",
    "Find",
    "FindsTaken",
    "HighStreak",
    "Monster",
    "MoveIntent",
    "Palette",
    "Panicked",
    "Player",
    "Position",
    "Record",
    "Renderable",
    "Score",
    "Shortcut",
    "Sight",
    "StateOfMind",
    "Stunned",
    "TakenOver",
    "Tolerance",
    "UseDose",
    "Vision",
]
