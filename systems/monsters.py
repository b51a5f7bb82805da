"""Monsters: noticing the player, then each monster's decision and its step or strike.

Monsters act when the turn's clock ticks, one after another in entity-id order, each
spending the action points its kind has (Depression two): :data:`MONSTERS_ACT` runs
:func:`choose_monster_step` for each of them, once per point, and pipes the step it
returns into :func:`move_monster`.
The path maps they share for the turn live in :class:`~roguelike.core.hunt.Hunt`.
"""

from __future__ import annotations

import esper

from components import Monster, Player, Position, StateOfMind
from components.monsters import NO_TARGET
from roguelike.content import formulas
from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.content.terrain import by_value
from roguelike.core import cues
from roguelike.core.combat import bestiary_of, count
from roguelike.core.ecs import Round, system
from roguelike.core.hunt import Hunt
from roguelike.core.pathing import chebyshev
from roguelike.core.state import Now
from roguelike.core.stepping import BUMPED, MOVED, step_or_bump
from roguelike.core.world import Roster, Spot, blockers, roster, sight_test

ACTION_POINTS = {kind.key: kind.action_points for kind in MONSTER_KINDS.values()}
PACK = {kind.key: kind.pack for kind in MONSTER_KINDS.values()}
MEMORY = {kind.key: kind.memory for kind in MONSTER_KINDS.values()}
NOTICE_REACH = {kind.key: kind.notice_reach for kind in MONSTER_KINDS.values()}
ACTS_EVERY = {kind.key: kind.acts_every for kind in MONSTER_KINDS.values()}
WANDERS = {kind.key: kind.wanders for kind in MONSTER_KINDS.values()}
FLANK_RANGE = formulas.FLANK_RANGE  # read once per monster per action
EXPOSES = tuple(row.exposes for row in by_value())
COVER = tuple(row.cover for row in by_value())


@system(Player, Position)
def notice_player(now: Now, entity: int, player: Player, pos: Position) -> None:
    """Monsters that see the player near enough hunt it; a pack hunter in sight calls its kin.

    A hunter forgets the player after some turns out of sight, unless its pack keeps it
    on the trail.
    """
    if now.state.monsters_still:  # wizard mode
        return
    monsters = roster()
    som = esper.component_for_entity(entity, StateOfMind).value
    callers, astray = keep_lookout(now, monsters, entity, (pos.x, pos.y), som)
    if callers:
        call_packs(now, entity, callers, monsters)
    if astray:
        forget(astray)


Callers = list[tuple[Monster, Position]]


def keep_lookout(now: Now, monsters: Roster, player: int, at: Spot, som: int) -> tuple[Callers, list[Monster]]:
    """Each monster sees the player or not: it notices, keeps or loses the trail.

    Returns the pack hunters in sight that hunt (their howl calls their kin), and the
    hunters out of sight too long (they forget, unless that howl keeps them on the trail).
    """
    # Symmetric: the monsters the player sees are those that see the player.
    sees = sight_test(now.view.visible)
    (px, py), callers, astray = at, [], []
    ground = now.state.floor.tiles.item(py, px)  # sand exposes the player, water covers it
    exposes, cover = EXPOSES[ground], COVER[ground]
    for _, monster, mpos in monsters:
        if not sees(mpos.y, mpos.x):
            if monster.target != NO_TARGET:
                monster.lost_for += 1
                if monster.lost_for > MEMORY[monster.kind]:
                    astray.append(monster)
            continue
        if monster.target != NO_TARGET:
            monster.lost_for = 0
        elif max(abs(mpos.x - px), abs(mpos.y - py)) <= formulas.notice_reach(notices_at(monster, som), exposes, cover):
            begin_hunt(now, monster, player)
        else:
            continue
        if PACK[monster.kind]:
            callers.append((monster, mpos))
    return callers, astray


def notices_at(monster: Monster, som: int) -> int:
    """How near a monster notices the player now: its kind's own reach, or its keenness and the mind's."""
    return NOTICE_REACH[monster.kind] or formulas.live_notice(monster.notice, som)


def begin_hunt(now: Now, monster: Monster, player: int) -> None:
    """A monster starts hunting the player, acting on it only after NOTICE_HOLD turns."""
    monster.target, monster.lost_for = player, 0
    monster.acts_from = max(monster.acts_from, now.state.turn + formulas.NOTICE_HOLD)  # a wading one wades on


def forget(astray: list[Monster]) -> None:
    """Hunters that lost the player too long ago (and were not called back) stop hunting."""
    for monster in astray:
        if monster.lost_for > MEMORY[monster.kind]:  # a pack call may have put it back on the trail
            monster.target, monster.lost_for = NO_TARGET, 0


def call_packs(now: Now, player: int, callers: Callers, monsters: Roster) -> None:
    """Kin within earshot of a pack hunter that sees the player join the hunt (or keep to it)."""
    radius = formulas.PACK_CALL_RADIUS
    joined: dict[str, int] = {}
    for _, monster, mpos in monsters:
        if not PACK[monster.kind]:
            continue
        if any(kin.kind == monster.kind and chebyshev(mpos.x, mpos.y, at.x, at.y) <= radius for kin, at in callers):
            if monster.target == NO_TARGET:
                joined[monster.kind] = joined.get(monster.kind, 0) + 1
                begin_hunt(now, monster, player)
            monster.lost_for = 0
    for kind in joined:
        now.state.say(f"{MONSTER_KINDS[kind].one(capital=True)} howls. The pack answers.")


@system(Player, Position)
def plan_hunt(now: Now, entity: int, player: Player, pos: Position) -> None:
    """Before the monsters act: where the player stands and who blocks which tile."""
    monsters = roster()
    if not monsters:
        now.action.hunt = None
        return
    wander = formulas.wander_chance(esper.component_for_entity(entity, StateOfMind).value)
    at = (pos.x, pos.y)
    now.action.hunt = Hunt(
        now.state.floor,
        now.state.clock(),
        at,
        blockers(monsters, entity, at),
        wander,
        lambda: hunters_reach(monsters, at),
        lambda: idle_spots(monsters),
    )


def hunters_reach(monsters: Roster, at: Spot) -> int:
    """How far, in king's moves, the farthest hunter stands from the player (what a new chase map must cover)."""
    px, py = at
    return max(
        (max(abs(p.x - px), abs(p.y - py)) for _, monster, p in monsters if monster.target != NO_TARGET), default=0
    )


def idle_spots(monsters: Roster) -> list[Spot]:
    """Where the monsters that are not hunting stand (each wanders from the stream of its tile)."""
    return [(p.x, p.y) for _, monster, p in monsters if monster.target == NO_TARGET]


@system(Monster, Position)
def choose_monster_step(now: Now, entity: int, monster: Monster, pos: Position) -> Spot | None:
    """A monster's decision: strike the player beside it, hunt it down, or wander (None: hold still)."""
    hunt = now.action.hunt
    assert hunt is not None  # plan_hunt ran: there are monsters
    if now.state.monsters_still:  # wizard mode: no step, no strike
        return None
    x, y = pos.x, pos.y
    if now.state.turn % ACTS_EVERY[monster.kind]:
        return None  # a slow kind (Sorrow) holds still between the turns it acts
    if now.state.turn < monster.acts_from:
        return None  # it has just noticed the player (the notice is the player's warning), or it wades
    if monster.target == NO_TARGET:
        return hunt.wander_step(x, y) if WANDERS[monster.kind] else None
    px, py = hunt.player_at
    near = max(abs(x - px), abs(y - py))
    if near == 1:
        return px - x, py - y  # bumping the player is the strike
    if near <= FLANK_RANGE and PACK[monster.kind]:
        return hunt.flank_step(x, y)
    return hunt.chase_step(x, y)  # or a wander, if the player cannot be reached


@system(Monster, Position)
def move_monster(now: Now, entity: int, monster: Monster, pos: Position, step: Spot | None) -> None:
    """A monster's step or strike, the one its decision piped in, by the one rule of steps the player's follows too."""
    hunt = now.action.hunt
    assert hunt is not None
    if step is None:
        return
    old = (pos.x, pos.y)
    outcome = step_or_bump(now, entity, pos, step[0], step[1], hunt.occupants)
    if outcome is MOVED:
        hunt.moved(entity, old, (pos.x, pos.y))
    elif outcome is BUMPED and not esper.entity_exists(entity):
        hunt.gone(old)  # it vanished as it hit


def monster_points(actor: tuple[int, Monster, Position]) -> int:
    """A monster's action points each turn, by its kind (Depression two)."""
    return ACTION_POINTS[actor[1].kind]


MONSTERS_ACT = Round("act_monsters", roster, monster_points, choose_monster_step, move_monster, "monster")


@system(Player)
def record_sightings(now: Now, entity: int, player: Player) -> None:
    """Count each monster the first time the player sees it (the bestiary's "met")."""
    seen = sight_test(now.view.visible)
    for _, monster, pos in roster():
        if not monster.met and seen(pos.y, pos.x):
            monster.met = True
            if count(bestiary_of(entity).met, monster.kind) == 1:
                now.state.say(MONSTER_KINDS[monster.kind].sighting)
                now.action.cue(cues.SIGHTED, (pos.x, pos.y), key=monster.kind)
