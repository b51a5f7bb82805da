"""The bots' memory of killers just out of sight: a Depression seen behind a door is still there.

A player who saw a Depression a moment ago does not step back where it can reach them
because a door or a corner now hides it. The lookout keeps each killer's last sighting on
this floor for a few turns and hands it to :func:`roguelike.bots.tactics.adjust` as a
threat whose reach grows by its action points for every turn it has been out of sight.
"""

from __future__ import annotations

from dataclasses import dataclass

from roguelike.bots.tactics import KILLER, Threat
from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.core.game import Game

MEMORY_TURNS = 2  # how long a killer out of sight is still feared where it was last seen


@dataclass(frozen=True)
class Sighting:
    """Where and when a killer was last seen, and how far it moves in a turn."""

    x: int
    y: int
    turn: int
    action_points: int

    def threat(self, now: int) -> Threat:
        """The killer as a threat now: its reach grown by every turn it may have moved unseen."""
        reach = self.action_points * (1 + now - self.turn)
        return Threat(self.x, self.y, reach, KILLER, hunting=True)


class Lookout:
    """The killers seen on this floor in the last :data:`MEMORY_TURNS` turns."""

    def __init__(self) -> None:
        self.depth = 0
        self.seen: dict[int, Sighting] = {}

    def out_of_sight(self, game: Game) -> list[Threat]:
        """Update the sightings from what the player sees; the remembered killers now hidden."""
        if game.state.depth != self.depth:
            self.depth, self.seen = game.state.depth, {}
        turn, visible = game.state.turn, game.view.visible
        hidden: list[Threat] = []
        living = {entity: (monster, pos) for entity, monster, pos in game.monsters()}
        self.forget(set(living), turn)
        for entity, (monster, pos) in living.items():
            kind = MONSTER_KINDS[monster.kind]
            if visible[pos.y, pos.x]:
                if kind.hit.bot_danger == KILLER:
                    self.seen[entity] = Sighting(pos.x, pos.y, turn, kind.action_points)
            elif entity in self.seen:
                hidden.append(self.seen[entity].threat(turn))
        return hidden

    def forget(self, living: set[int], turn: int) -> None:
        """Drop sightings too old to trust, and killers gone from the floor.

        A killer dies only to the player's own hit, in sight; one that fades while hidden
        is forgotten a turn or two early, which only makes the bot bolder for those turns.
        """
        self.seen = {
            entity: sighting
            for entity, sighting in self.seen.items()
            if entity in living and turn - sighting.turn <= MEMORY_TURNS
        }
