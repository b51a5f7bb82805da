"""The whole game as plain data (msgpack-ready) and back, and its checksum.

The snapshot holds every entity with its id, every floor (tiles as bytes), the RNG
state, the turn and the messages: everything that decides what happens next, so two
games with equal snapshots play on identically.
"""

from __future__ import annotations

import operator
import typing
from collections.abc import Callable

import esper
import msgpack
import numpy as np

from roguelike.core import ecsworld
from roguelike.core.chart import Chart
from roguelike.core.floor import Floor
from roguelike.core.game import Game, fresh_world
from roguelike.core.packing import packed_fields, unpack_entity
from roguelike.core.plain import Origin, PlainChart, PlainFloor, PlainHead, PlainSnapshot
from roguelike.core.plain import Plain as Plain, digest as digest, encode as encode
from roguelike.core.rng import Rng
from roguelike.core.state import GameState, Message


def to_plain(game: Game) -> PlainSnapshot:
    """The game as a dict of plain values (ints, strings, bytes, lists)."""
    floors = game.state.floors
    return {**plain_head(game), "floors": [floor_to_plain(floors[d]) for d in sorted(floors)]}


def plain_head(game: Game) -> PlainHead:
    """Everything of :func:`to_plain` but the floors (which come last)."""
    game.activate()
    state = game.state
    head: PlainHead = {
        "seed": state.seed,
        "name": state.name,
        "player": state.player,
        "depth": state.depth,
        "turn": state.turn,
        "rng": state.rng.state,
        "cause": state.cause_of_death,
        "messages": list(map(MESSAGE_FIELDS, state.messages)),
        "chart": typing.cast(PlainChart, state.chart.to_plain()),
        "next_entity": peek_next_entity(),
        "entities": [(e, packed_fields(esper.components_for_entity(e))) for e in sorted(esper.get_entities())],
    }
    add_developer_marks(head, state)
    return head


def add_developer_marks(head: PlainHead, state: GameState) -> None:
    """The keys of a replay-made or wizard game; none at all for the character's own (format 2)."""
    if state.origin:
        head["origin"] = typing.cast(Origin, state.origin)
    if state.monsters_still:
        head["monsters_still"] = True


MESSAGE_FIELDS: Callable[[Message], tuple[int, str]] = operator.attrgetter("turn", "text")


def floor_to_plain(floor: Floor) -> PlainFloor:
    """A floor as plain values."""
    return {
        "depth": floor.depth,
        "shape": (floor.height, floor.width),
        "tiles": floor.tiles.tobytes(),
        "explored": np.packbits(floor.explored).tobytes(),
        "down": floor.down_stairs,
        "up": floor.up_stairs,
        "arrival": floor.arrival,
        "kind": floor.kind,
        "dormant": [[(name, list(values)) for name, values in entity] for entity in floor.dormant],
    }


def from_plain(plain: Plain | PlainSnapshot) -> Game:
    """Rebuild a game from :func:`to_plain`'s output (trusted, already validated)."""
    world = fresh_world()
    floors = {f["depth"]: floor_from_plain(f) for f in plain["floors"]}
    state = GameState(
        seed=plain["seed"], name=plain["name"], player=plain["player"], rng=Rng(plain["rng"]),
        floors=floors, depth=plain["depth"], turn=plain["turn"],
        messages=[Message(turn, text) for turn, text in plain["messages"]],
        cause_of_death=plain["cause"], origin=plain.get("origin"), monsters_still=plain.get("monsters_still", False),
        chart=Chart.from_plain(dict(plain["chart"])),
    )
    for entity, packed in plain["entities"]:
        restore_entity(entity, unpack_entity([(name, values) for name, values in packed]))
    world.skip_to(plain["next_entity"])
    game = Game(state, world)
    game.refresh_visible()
    return game


def floor_from_plain(plain: Plain | PlainFloor) -> Floor:
    """A floor from plain values."""
    height, width = plain["shape"]
    tiles = np.frombuffer(plain["tiles"], dtype=np.uint8).reshape(height, width).copy()
    bits = np.unpackbits(np.frombuffer(plain["explored"], dtype=np.uint8))
    explored = bits[: height * width].reshape(height, width).astype(bool)
    up = plain["up"]
    return Floor(
        depth=plain["depth"], tiles=tiles, explored=explored,
        down_stairs=(plain["down"][0], plain["down"][1]),
        up_stairs=(up[0], up[1]) if up is not None else None,
        arrival=(plain["arrival"][0], plain["arrival"][1]),
        kind=plain["kind"],
        dormant=[[(name, list(values)) for name, values in entity] for entity in plain["dormant"]],
    )


def peek_next_entity() -> int:
    """The id esper will give the next entity of the current world."""
    return ecsworld.current().next_entity()


def restore_entity(entity: int, components: list[object]) -> None:
    """Recreate an entity under its saved id, so relations and order survive a load."""
    ecsworld.current().restore(entity, components)


def snapshot_bytes(game: Game) -> bytes:
    """The game's canonical msgpack bytes: exactly ``encode(to_plain(game))``, only faster.

    The head is packed in one call (its map header then counts the floors too), and a
    floor the player is not on cannot change, so its encoding is kept on the floor
    (:attr:`Floor.encoded`) and spliced in; waking a floor forgets it.
    """
    head = plain_head(game)
    packer = msgpack.Packer(use_bin_type=True)
    packed_head = packer.pack(head)
    floors, depth = game.state.floors, game.state.depth
    parts = [packer.pack_map_header(len(head) + 1), packed_head[HEAD_HEADER:], packer.pack("floors"),
             packer.pack_array_header(len(floors))]
    parts += [encoded_floor(floors[d], d == depth, packer) for d in sorted(floors)]
    return b"".join(parts)


# The head's keys fit a one-byte msgpack map header (fixmap, up to 15 keys), so its
# packing is the header followed by the pairs.
HEAD_HEADER = 1
assert len(PlainSnapshot.__annotations__) <= 15


def encoded_floor(floor: Floor, current: bool, packer: msgpack.Packer) -> bytes:
    """A floor's msgpack bytes, kept for next time unless the player is on it."""
    if current:
        return bytes(packer.pack(floor_to_plain(floor)))
    if floor.encoded is None:
        floor.encoded = bytes(packer.pack(floor_to_plain(floor)))
    return floor.encoded


def checksum(game: Game) -> str:
    """A short hash of the whole game state (the same as a session step's checksum)."""
    return digest(snapshot_bytes(game))
