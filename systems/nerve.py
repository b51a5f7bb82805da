"""Nerve steadies out of sight: the way back from a panic spiral that the player controls.

At Nerve 2 or less the sight of any monster makes the player flee, so the Shadows whose
slaying gives Nerve back cannot be struck. Out of every monster's sight the nerve steadies
instead (:func:`roguelike.content.formulas.nerve_steadies`): a point on every 12th turn of
the clock, up to 3, one above the line. Runs after the clock has advanced and the monsters have moved, so a
monster that stepped into view this turn counts.
"""

from __future__ import annotations

from components import Attributes, Player
from roguelike.content import formulas
from roguelike.core.ecs import system
from roguelike.core.state import Now
from roguelike.core.world import monsters_in_sight

STEADIES = "Out of sight of every fear, your nerve steadies (Nerve {nerve})."


@system(Player, Attributes)
def steady_nerve(now: Now, entity: int, player: Player, attrs: Attributes) -> None:
    """A point of Nerve back on a steadying turn with no monster in sight."""
    if not formulas.nerve_steadies(now.state.turn, attrs.nerve):
        return
    if monsters_in_sight(now.view.visible):
        return
    attrs.nerve = formulas.clamp_attribute(attrs.nerve + 1)
    now.state.say(STEADIES.format(nerve=attrs.nerve))
