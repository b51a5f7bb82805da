"""The coach's numbers, in one light module (the command line reads its defaults here without loading the game).

docs/coach.md and docs/performance.md ("Coach") say how they were chosen: a 2,000-turn
game is reviewed in about a minute on two idle cores, and par for a daily in well under.
"""

from __future__ import annotations

REVIEW_RUNS = 6  # the planner's runs from each point of a review
HORIZON = 150  # turns each run of a review plays at most
EVERY = 50  # turns between a review's regular points
MAX_POINTS = 150  # a review's points at most (the least telling events are left out first)
PAR_RUNS = 8  # the planner's games of a par (8 at least)
PAR_TURN_LIMIT = 10_000  # a par game still alive here ends here
