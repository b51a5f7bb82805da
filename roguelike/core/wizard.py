"""Developer commands applied to a game: marks (made from a replay, wizard mode) and wizard changes.

A wizard change takes no game time: it sets a number, reveals the floor, puts a monster,
a dose or a find next to the player, takes the player one floor down, or stills the monsters.
Any of them marks the game "wizard" first, so a game changed this way can never pass
for the character's own. Everything draws only from the game state, never from an RNG,
so a replay of a wizard game verifies like any other.
"""

from __future__ import annotations

from collections.abc import Callable

import esper

from components import Attributes, BlocksMovement, Dose, Monster, Position, Renderable, StateOfMind, Tolerance
from roguelike.content import formulas
from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.content.doses import DOSE_KINDS
from roguelike.content.finds import FIND_KINDS
from roguelike.content.wording import with_article
from roguelike.core.commands import RANKED_ORIGINS, Mark, Wizard
from roguelike.core.floor import WALKABLE
from roguelike.core.mapgen import make_find
from roguelike.core.packing import unpack_entity
from roguelike.core.spawning import MONSTER_LAYER
from roguelike.core.state import GameState
from roguelike.core.world import travel

MIND_LIMIT = 2 * formulas.STATE_OF_MIND_MAX
TOLERANCE_LIMIT = 100
AROUND = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1))
DOSE_LAYER = 1


def apply_developer(state: GameState, command: Mark | Wizard) -> None:
    """Apply a mark or a wizard change (no time passes)."""
    state.origin = origin_after(state.origin, command)
    if isinstance(command, Wizard):
        ACTIONS[command.action](state, command)


def origin_after(origin: str | None, command: Mark | Wizard) -> str | None:
    """A game's mark after a developer command: a wizard change is "wizard"; a mark replaces a
    ranked origin (played, daily) and otherwise keeps the first unranked one."""
    if isinstance(command, Wizard):
        return "wizard"
    return command.origin if origin in RANKED_ORIGINS else origin


def set_mind(state: GameState, command: Wizard) -> None:
    """Set the State of Mind."""
    value = formulas.clamp(command.value, 0, MIND_LIMIT)
    esper.component_for_entity(state.player, StateOfMind).value = value
    state.say(f"Wizard: State of Mind set to {value}.")


def set_attribute(state: GameState, command: Wizard) -> None:
    """Set Confidence, Nerve, Will (1..10) or Tolerance."""
    if command.action == "tolerance":
        value = formulas.clamp(command.value, 0, TOLERANCE_LIMIT)
        esper.component_for_entity(state.player, Tolerance).value = value
    else:
        value = formulas.clamp_attribute(command.value)
        setattr(esper.component_for_entity(state.player, Attributes), command.action, value)
    state.say(f"Wizard: {command.action.capitalize()} set to {value}.")


def reveal(state: GameState, command: Wizard) -> None:
    """Mark the whole floor explored."""
    state.floor.explored[:] = True
    state.say("Wizard: the floor is revealed.")


def spawn_spot(state: GameState, named: str | None, what: str) -> tuple[int, int] | None:
    """A free tile beside the player for the thing ``named`` (None: no such ``what``), or None after saying why not."""
    if named is None:
        state.say(f"Wizard: no such {what}.")
        return None
    spot = free_neighbour(state)
    if spot is None:
        state.say(f"Wizard: no room for {named} here.")
    return spot


def spawn_monster(state: GameState, command: Wizard) -> None:
    """A monster of a kind on a free tile next to the player."""
    kind = MONSTER_KINDS.get(command.kind)
    spot = spawn_spot(state, kind.one() if kind else None, "monster")
    if kind is None or spot is None:
        return
    look = Renderable(kind.glyph, kind.colour, layer=MONSTER_LAYER)
    esper.create_entity(Position(*spot), look, BlocksMovement(), Monster(kind.key, formulas.notice_range(0)))
    state.say(f"Wizard: {kind.one()} {'appear' if kind.plural_only else 'appears'}.")


def spawn_dose(state: GameState, command: Wizard) -> None:
    """A dose of a kind, of middling strength for the floor it lies on, on a free tile next to the player."""
    kind = DOSE_KINDS.get(command.kind)
    spot = spawn_spot(state, with_article(kind.name) if kind else None, "dose")
    if kind is None or spot is None:
        return
    middle = [(low + high) // 2 for low, high in (kind.strength, kind.confidence, kind.nerve, kind.will)]
    middle[0] += formulas.dose_strength_bonus(state.depth)
    look = Renderable(kind.glyph, kind.colour, layer=DOSE_LAYER, always_bright=True)
    strength, confidence, nerve, will = middle
    esper.create_entity(Position(*spot), look, Dose(kind.key, strength, confidence, nerve, will, floor=state.depth))
    state.say(f"Wizard: {with_article(kind.name)} appears.")


def spawn_find(state: GameState, command: Wizard) -> None:
    """A find of a kind on a free tile next to the player (seen and taken only while High)."""
    kind = FIND_KINDS.get(command.kind)
    spot = spawn_spot(state, kind.name if kind else None, "find")
    if kind is None or spot is None:
        return
    esper.create_entity(*unpack_entity(make_find(kind, spot)))
    state.say(f"Wizard: {with_article(kind.name)} appears, for the High to see.")


def descend(state: GameState, command: Wizard) -> None:
    """Go one floor down, as if by the stairs."""
    travel(state, state.depth + 1)
    state.say(f"Wizard: you descend to floor {state.depth}.")


def still(state: GameState, command: Wizard) -> None:
    """Stop (or restart) every monster noticing and acting."""
    state.monsters_still = not state.monsters_still
    state.say(f"Wizard: monsters {'stand still' if state.monsters_still else 'move again'}.")


def free_neighbour(state: GameState) -> tuple[int, int] | None:
    """The first walkable tile next to the player that nothing stands on, in a fixed order."""
    pos = esper.component_for_entity(state.player, Position)
    taken = {(p.x, p.y) for _, p in esper.get_component(Position)}
    tiles = state.floor.tiles
    for dx, dy in AROUND:
        x, y = pos.x + dx, pos.y + dy
        if 0 <= y < tiles.shape[0] and 0 <= x < tiles.shape[1] and WALKABLE[tiles[y, x]] and (x, y) not in taken:
            return x, y
    return None


ACTIONS: dict[str, Callable[[GameState, Wizard], None]] = {
    "mind": set_mind,
    "confidence": set_attribute,
    "nerve": set_attribute,
    "will": set_attribute,
    "tolerance": set_attribute,
    "reveal": reveal,
    "monster": spawn_monster,
    "dose": spawn_dose,
    "descend": descend,
    "still": still,
    "find": spawn_find,
}
