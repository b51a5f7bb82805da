"""The score: a floor's points are banked, by how much of it was explored, as the player leaves."""

from __future__ import annotations

from components import Player, Record, Score
from roguelike.core.ecs import system
from roguelike.core.score import bank
from roguelike.core.state import Now


@system(Player, Record, Score)
def bank_floor_score(now: Now, entity: int, player: Player, record: Record, score: Score) -> None:
    """Before the stairs are taken, keep the floor's points times its explored share."""
    if now.action.travel_to is not None:
        bank(now.state.floor, record, score)
