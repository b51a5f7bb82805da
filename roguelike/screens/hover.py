"""The mouse over the map: hovering describes the cell as the look command does, and a left
click on a known cell travels there (beside it, for a dose), stopped like any automation.
"""

from __future__ import annotations

import tcod.event
from tcod.event import MouseButton

from roguelike.screens.look import describe
from roguelike.screens.mouse import Pointer, cell_of, on_map
from roguelike.screens.pilot import Pilot


def point_in_game(pilot: Pilot, event: Pointer) -> None:
    """Hovering over the map describes the cell; a left click on a known cell travels there."""
    cell = cell_of(event)
    if not on_map(cell):
        return
    if isinstance(event, tcod.event.MouseMotion):
        pilot.hover(" ".join(text for text, _ in describe(pilot.game, cell)))
        return
    if event.button != MouseButton.LEFT:
        return
    if pilot.autopilot.active:
        pilot.stop()
        return
    pilot.begin(lambda autopilot: autopilot.travel_to(*cell))
