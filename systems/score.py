"""The score: a floor's points are banked, by how much of it was explored, as the player leaves;
the longest High pays as it grows, on the floor where it grows."""

from __future__ import annotations

from components import HighStreak, Player, Record, Score, StateOfMind
from roguelike.content import formulas
from roguelike.core.ecs import system
from roguelike.core.score import bank
from roguelike.core.state import Now

STREAK_ENDS = "Withdrawal ends your High streak of {turns} turns (your longest: {points} points)."
STREAK_ENDS_SHORTER = "Withdrawal ends your High streak of {turns} turns (longest {best}: {points} points)."


@system(Player, Record, Score, HighStreak)
def bank_floor_score(now: Now, entity: int, player: Player, record: Record, score: Score, streak: HighStreak) -> None:
    """Before the stairs are taken, keep the floor's points times its explored share."""
    if now.action.travel_to is not None:
        bank(now.state.floor, record, score, streak)


@system(Player, StateOfMind, HighStreak)
def keep_high_streak(now: Now, entity: int, player: Player, som: StateOfMind, streak: HighStreak) -> None:
    """A turn ending High adds to the streak (paying at each milestone past the longest); Withdrawal ends it."""
    goes_on = formulas.streak_goes_on(som.value)
    if goes_on:
        streak.turns += 1
        if streak.turns > streak.best:
            streak.best = streak.turns
            streak.bonus += formulas.high_streak_points(streak.turns)
    elif goes_on is False and streak.turns:
        if streak.bonus:
            now.state.say(streak_end_words(streak))
        streak.turns = 0


def streak_end_words(streak: HighStreak) -> str:
    """What the log says as Withdrawal ends a streak: its length, and what the longest is worth."""
    if streak.turns == streak.best:
        return STREAK_ENDS.format(turns=streak.turns, points=streak.bonus)
    return STREAK_ENDS_SHORTER.format(turns=streak.turns, best=streak.best, points=streak.bonus)
