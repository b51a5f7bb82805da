"""Single-hitpoint combat: the player's hit kills a monster, a monster's hit has its effect.

Not a system of its own: movement (the player bumping) and the monsters' turn (a monster
bumping) both call :func:`strike`. What a hit does comes from the bestiary table.
"""

from __future__ import annotations

import esper

from components import Attributes, Bestiary, Monster, Position, Record, StateOfMind
from roguelike.content import formulas
from roguelike.content.bestiary import MONSTER_KINDS, HitEffect, MonsterKind
from roguelike.content.wording import counted
from roguelike.core import cues
from roguelike.core.carrying import drop_newest
from roguelike.core.state import Now
from roguelike.core.steering import STATUS_OF


def strike(now: Now, attacker: int, target: int) -> bool:
    """``attacker`` hits ``target`` if one is the player and the other a monster."""
    if attacker == now.state.player and esper.has_component(target, Monster):
        slay(now, attacker, target)
        return True
    monster = esper.try_component(attacker, Monster)
    if monster is not None and target == now.state.player:
        hit_player(now, attacker, MONSTER_KINDS[monster.kind])
        return True
    return False


def slay(now: Now, player: int, target: int) -> None:
    """The player's hit: the monster dies; kills are counted and may restore Will."""
    kind = MONSTER_KINDS[esper.component_for_entity(target, Monster).kind]
    at = esper.component_for_entity(target, Position)
    now.action.cue(cues.HIT, (at.x, at.y), key=cues.SLAIN)
    now.action.cue(cues.SLAIN, (at.x, at.y), key=kind.key)
    esper.delete_entity(target, immediate=True)
    esper.component_for_entity(player, Record).kills += 1
    slain = count(bestiary_of(player).slain, kind.key)
    now.state.say(f"You slay the {kind.name}.")
    attrs = esper.component_for_entity(player, Attributes)
    for attribute, every in kind.rewards:
        reward = formulas.will_reward(slain, every)
        if reward:
            setattr(attrs, attribute, formulas.clamp_attribute(getattr(attrs, attribute) + reward))
            now.state.say(f"{slain} {kind.plural} slain: your {attribute.title()} grows.")


def hit_player(now: Now, monster: int, kind: MonsterKind) -> None:
    """A monster's hit: its effect applies; some monsters vanish after hitting."""
    player = now.state.player
    at = esper.component_for_entity(player, Position)
    now.action.cue(cues.HIT, (at.x, at.y), key=kind.hit.key)
    turns = apply_hit(now, player, kind.hit)
    count(bestiary_of(player).suffered, kind.hit.key)
    amount = kind.hit.state_of_mind or kind.hit.will
    now.state.say(
        kind.hit_text.format(
            amount=amount, turns=counted(turns, "turn"), nerve=kind.hit.nerve, confidence=kind.hit.confidence
        )
    )
    if kind.hit.drops:
        by = esper.component_for_entity(monster, Position)
        drop_newest(now, player, (by.x, by.y))
    if kind.hit.kills:
        now.state.cause_of_death = kind.key
    if kind.vanishes_on_hit:
        esper.delete_entity(monster, immediate=True)


def apply_hit(now: Now, player: int, hit: HitEffect) -> int:
    """Drain what the hit drains and start its status; returns the status's turns."""
    esper.component_for_entity(player, StateOfMind).value -= hit.state_of_mind
    attrs = esper.component_for_entity(player, Attributes)
    attrs.will = formulas.clamp_attribute(attrs.will - hit.will)
    attrs.nerve = formulas.clamp_attribute(attrs.nerve - hit.nerve)
    attrs.confidence = formulas.clamp_attribute(attrs.confidence - hit.confidence)
    if hit.status is None:
        return 0
    turns = formulas.status_turns(hit.turns, attrs.confidence)
    status = STATUS_OF[hit.status]
    current = esper.try_component(player, status)
    esper.add_component(player, status(max(turns, current.turns if current else 0)))
    return turns


def bestiary_of(player: int) -> Bestiary:
    """The player's bestiary record, begun the first time there is something to record.

    Not part of a new character, so games saved before monsters existed load unchanged.
    """
    bestiary = esper.try_component(player, Bestiary)
    if bestiary is None:
        bestiary = Bestiary()
        esper.add_component(player, bestiary)
    return bestiary


def count(tally: dict[str, int], key: str) -> int:
    """Add one to a tally and return the new count."""
    tally[key] = tally.get(key, 0) + 1
    return tally[key]
