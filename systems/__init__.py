"""Systems: the verbs of a turn, and the one tuple that fixes their order.

Read :data:`TURN` top to bottom to see a whole turn. Action systems run after every
player action; clock systems only when that action ends the turn.
"""

from __future__ import annotations

from roguelike.core.ecs import System
from systems.clock import advance_turn, decay_state_of_mind, spend_action_point
from systems.control import pull_to_dose, return_control, take_over_desperate
from systems.death import check_death
from systems.doses import consume_dose
from systems.effects import flee_in_panic, hold_stunned, invert_confused, wear_off_effects
from systems.monsters import act_monsters, notice_player, record_sightings
from systems.movement import move_to_destination
from systems.perception import refresh_field_of_view, shift_colours, update_field_of_view
from systems.travel import take_stairs

TURN: tuple[System, ...] = (
    return_control,  # the player steers unless a system below takes over
    take_over_desperate,  # Desperation overpowers everything else but a stun
    pull_to_dose,  # a weak Will cannot resist a dose within reach
    hold_stunned,  # a stunned player cannot act at all
    flee_in_panic,  # Panic (or low Nerve with a monster in sight) runs away
    invert_confused,  # Confusion inverts the player's own step
    move_to_destination,  # steps and bumps: doors open, doses are used, stairs are taken, monsters hit
    consume_dose,
    take_stairs,
    update_field_of_view,  # before the monsters' turn: they see the player as the player sees them
    spend_action_point,  # the clock advances when the player's action points run out
    decay_state_of_mind,  # clock
    wear_off_effects,  # clock: before monsters act, so a fresh status lasts its full length
    notice_player,  # clock: monsters that see the player hunt; a Hunger calls its pack
    act_monsters,  # clock: monsters in id order spend their action points (Depression two)
    refresh_field_of_view,  # clock: sight again if a monster opened a door
    advance_turn,  # clock
    check_death,
    record_sightings,  # monsters seen for the first time go in the bestiary
    shift_colours,
)
