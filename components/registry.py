"""Stable names of saved components, so saves never name Python classes.

Adding a component: give it a new name here. Renaming a class is then free; renaming
an entry here is a save-format change.
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

SAVED_COMPONENTS: dict[str, type] = {
    "position": Position,
    "renderable": Renderable,
    "blocks_movement": BlocksMovement,
    "player": Player,
    "state_of_mind": StateOfMind,
    "attributes": Attributes,
    "tolerance": Tolerance,
    "record": Record,
    "palette": Palette,
    "dose": Dose,
    "move_intent": MoveIntent,
    "action_points": ActionPoints,
    "taken_over": TakenOver,
    "use_dose": UseDose,
    "monster": Monster,
    "stunned": Stunned,
    "panicked": Panicked,
    "confused": Confused,
    "doubting": Doubting,
    "ashamed": Ashamed,
    "bestiary": Bestiary,
    "vision": Vision,
    "sight": Sight,
    "shortcut": Shortcut,
    "score": Score,
    "high_streak": HighStreak,
    "find": Find,
    "finds_taken": FindsTaken,
    "carried": Carried,
}

NAME_OF: dict[type, str] = {cls: name for name, cls in SAVED_COMPONENTS.items()}
