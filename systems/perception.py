"""What the player perceives: sight by State of Mind with memory, the Perfect High and what it reveals, colours."""

from __future__ import annotations

from components import Attributes, Palette, Player, Position, Record, Sight, StateOfMind
from roguelike.content import formulas
from roguelike.core import cues
from roguelike.core.ecs import system
from roguelike.core.sight import sight_and_ring, sight_radius
from roguelike.core.state import Now
from roguelike.core.world import doses_on_floor

FIRST_PERFECT_HIGH = "PERFECT HIGH. For a moment you see everything on this floor."
PERFECT_HIGH_AGAIN = "Perfect High again: the whole floor shows."


@system(Player, Position, StateOfMind, Attributes, Sight)
def cast_sight(
    now: Now, entity: int, player: Player, pos: Position, som: StateOfMind, attrs: Attributes, sight: Sight
) -> None:
    """The one place sight is cast: what the player sees, remembered as explored.

    The radius follows the State of Mind and Will (kept in the player's ``Sight``); tiles
    in line of sight within the wider explored ring are remembered as explored too.
    Sight depends only on the floor's tiles, where the player stands and the radius, so
    it is cast again only when one of them changed. What the player sees is never saved
    but derived on loading, so it must always match the state as the action leaves it.
    """
    radius = sight_radius(som.value, attrs.will)
    seen_from = (now.state.depth, pos.x, pos.y, radius, now.state.floor.tiles.tobytes())
    if seen_from == now.view.seen_from:
        return
    now.view.seen_from = seen_from
    sight.radius = radius
    now.view.visible, ring = sight_and_ring(now.state.floor, pos.x, pos.y, radius)
    now.state.floor.explored |= ring


@system(Player, StateOfMind, Record, Position)
def notice_perfect_high(now: Now, entity: int, player: Player, som: StateOfMind, record: Record, pos: Position) -> None:
    """Count each time the State of Mind enters the Perfect High; say so (at length the first time)."""
    perfect = formulas.is_perfect_high(som.value) and not now.state.game_over
    if perfect and not record.in_perfect_high:
        now.state.say(PERFECT_HIGH_AGAIN if record.perfect_highs else FIRST_PERFECT_HIGH)
        record.perfect_highs += 1
        now.action.cue(cues.PERFECT_HIGH, (pos.x, pos.y))
    record.in_perfect_high = perfect


@system(Player, StateOfMind)
def remember_revealed(now: Now, entity: int, player: Player, som: StateOfMind) -> None:
    """At the Perfect High every dose of the floor shows: the floor remembers where, as it remembers
    what was explored, so the doses stay known once the High falls back."""
    if formulas.is_perfect_high(som.value) and not now.state.game_over:
        revealed = now.state.floor.revealed
        for _, pos, _ in doses_on_floor():
            revealed[pos.y, pos.x] = True


@system(Player, StateOfMind, Palette)
def shift_colours(now: Now, entity: int, player: Player, som: StateOfMind, palette: Palette) -> None:
    """Derive the world's saturation and brightness from the State of Mind."""
    palette.saturation, palette.brightness = formulas.palette_for(som.value)
    palette.psychedelic = formulas.is_psychedelic(som.value)
