"""The score: a floor's points are banked, by how much of it was explored, as the player leaves;
long Highs pay as they go."""

from __future__ import annotations

from components import HighStreak, Player, Record, Score, StateOfMind
from roguelike.content import formulas
from roguelike.core.ecs import system
from roguelike.core.score import bank
from roguelike.core.state import Now

STREAK_ENDS = "Withdrawal ends your High streak of {turns} turns (+{points} points)."


@system(Player, Record, Score)
def bank_floor_score(now: Now, entity: int, player: Player, record: Record, score: Score) -> None:
    """Before the stairs are taken, keep the floor's points times its explored share."""
    if now.action.travel_to is not None:
        bank(now.state.floor, record, score)


@system(Player, StateOfMind, HighStreak)
def keep_high_streak(now: Now, entity: int, player: Player, som: StateOfMind, streak: HighStreak) -> None:
    """A turn ending High adds to the streak (paying at each milestone); Withdrawal ends it."""
    goes_on = formulas.streak_goes_on(som.value)
    if goes_on:
        streak.turns += 1
        streak.best = max(streak.best, streak.turns)
        streak.bonus += formulas.high_streak_points(streak.turns)
    elif goes_on is False and streak.turns:
        points = formulas.high_streak_bonus(streak.turns)
        if points:
            now.state.say(STREAK_ENDS.format(turns=streak.turns, points=points))
        streak.turns = 0
