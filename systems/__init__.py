"""Systems: the verbs of a turn, and the one schedule that fixes their order.

Read :data:`TURN` top to bottom to see a whole turn (``hedonic simulate --systems``
prints it). Every phase runs after each action of the player, but the clock phase,
which runs only when that action ends the turn.
"""

from __future__ import annotations

from roguelike.core.ecs import Phase, Schedule, When
from systems.announce import announce_desperation, remember_desperation
from systems.clock import advance_turn, chart_state_of_mind, decay_state_of_mind, spend_action_point
from systems.control import decide_steering, return_control, steer_player
from systems.death import check_death
from systems.doses import consume_dose, take_carried
from systems.finds import take_find
from systems.monsters import MONSTERS_ACT, notice_player, plan_hunt, record_sightings
from systems.movement import move_player
from systems.nerve import steady_nerve
from systems.perception import cast_sight, notice_perfect_high, remember_revealed, shift_colours
from systems.reinforcements import follow_the_mind
from systems.score import bank_floor_score, keep_high_streak
from systems.statuses import wear_off_statuses
from systems.travel import take_stairs
from systems.walls import shift_walls

# Who steers this action (decided at the end of the last one); whether it begins Desperate.
STEER = Phase("steer", When.ACTION, (remember_desperation, return_control, steer_player))
# The player's step or bump (or a carried dose taken), what it led to, and its action point; sight is cast before
# the monsters act, so they see the player as the player sees them.
# A find stepped onto while High is taken before the stairs could take the player away.
# The floor being left banks its explored share of points before the stairs are taken.
ACT = Phase(
    "act",
    When.ACTION,
    (move_player, consume_dose, take_carried, take_find, bank_floor_score, take_stairs, cast_sight, spend_action_point),
)
# The world's turn: the State of Mind drains, statuses wear off (before the monsters act,
# so a fresh one lasts its full length), monsters notice the player, then act in id order;
# every few turns the floor's monsters grow or fade with the State of Mind; the turn counts,
# and Nerve steadies on it if no monster is in sight (after they moved); the High streak
# counts the State of Mind the turn ends with, after the monsters' hits.
CLOCK = Phase(
    "clock",
    When.CLOCK,
    (
        decay_state_of_mind,
        wear_off_statuses,
        notice_player,
        plan_hunt,
        MONSTERS_ACT,
        follow_the_mind,
        advance_turn,
        steady_nerve,
        chart_state_of_mind,
        keep_high_streak,
    ),
)
# The walls follow the band the State of Mind ends the action in (after a dose, the drain and
# the hits), before sight is cast again.
WALLS = Phase("walls", When.ACTION, (shift_walls,))
# Sight again if a monster opened a door or the State of Mind changed the sight radius;
# also the first sight of a game begun or loaded.
SEE = Phase("see", When.ACTION, (cast_sight,), at_start=True)
# Death, then what the log tells: Desperation beginning or ending, a kind seen for the first time,
# the Perfect High (and the doses it shows, remembered on the floor).
OUTCOME = Phase(
    "outcome",
    When.ACTION,
    (check_death, announce_desperation, record_sightings, notice_perfect_high, remember_revealed),
)
# What the panel shows: the colours of the State of Mind, and who steers the next action.
DERIVE = Phase("derive", When.ACTION, (shift_colours, decide_steering), at_start=True)

TURN: Schedule = (STEER, ACT, CLOCK, WALLS, SEE, OUTCOME, DERIVE)
