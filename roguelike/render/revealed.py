"""What a Perfect High revealed, remembered on the map afterwards.

At the Perfect High every dose of the floor shows, explored or not. Once the State of
Mind falls back, the doses it showed stay drawn where they lie (until taken), as the
explored map is: the player saw them. The memory is the frontend's, kept beside each game
object for as long as it is played (not in the save: the rules and the save format do not
change for a drawing), floor by floor, and filled whenever a frame of the game is drawn.
"""

from __future__ import annotations

import weakref

from components import StateOfMind
from roguelike.content import formulas
from roguelike.core.game import Game

Spots = frozenset[tuple[int, int]]
_memory: weakref.WeakKeyDictionary[Game, dict[int, Spots]] = weakref.WeakKeyDictionary()


def revealed_doses(game: Game) -> Spots:
    """Where the Perfect Highs of this game showed doses on its current floor (remembering
    the floor's doses now if the State of Mind is at the Perfect High)."""
    floors = _memory.setdefault(game, {})
    depth = game.state.depth
    if formulas.is_perfect_high(game.player_component(StateOfMind).value):
        floors[depth] = floors.get(depth, frozenset()) | {(pos.x, pos.y) for _, pos, _ in game.doses()}
    return floors.get(depth, frozenset())
