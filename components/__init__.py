"""Components: small dataclasses holding the data of entities, with no behaviour.

Every component that is saved is listed in :mod:`components.registry` under a stable name.
"""

from __future__ import annotations

from components.actors import Attributes, Palette, Player, Record, StateOfMind, Tolerance
from components.intents import ActionPoints, MoveIntent, TakenOver, UseDose
from components.items import Dose
from components.spatial import BlocksMovement, Position, Renderable

__all__ = [
    "ActionPoints",
    "Attributes",
    "BlocksMovement",
    "Dose",
    "MoveIntent",
    "Palette",
    "Player",
    "Position",
    "Record",
    "Renderable",
    "StateOfMind",
    "TakenOver",
    "Tolerance",
    "UseDose",
]
