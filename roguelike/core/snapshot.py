"""The whole game as plain data (msgpack-ready) and back, and its checksum.

The snapshot holds every entity with its id, every floor (tiles as bytes), the RNG
state, the turn and the messages: everything that decides what happens next, so two
games with equal snapshots play on identically.
"""

from __future__ import annotations

import hashlib
from typing import Any

import esper
import msgpack
import numpy as np

from roguelike.core import ecsworld
from roguelike.core.chart import Chart
from roguelike.core.floor import Floor
from roguelike.core.game import Game, fresh_world
from roguelike.core.packing import pack_entity, unpack_entity
from roguelike.core.rng import Rng
from roguelike.core.state import GameState, Message

Plain = dict[str, Any]


def to_plain(game: Game) -> Plain:
    """The game as a dict of plain values (ints, strings, bytes, lists)."""
    floors = game.state.floors
    return {**plain_head(game), "floors": [floor_to_plain(floors[d]) for d in sorted(floors)]}


def plain_head(game: Game) -> Plain:
    """Everything of :func:`to_plain` but the floors (which come last)."""
    game.activate()
    state = game.state
    return {
        "seed": state.seed,
        "name": state.name,
        "player": state.player,
        "depth": state.depth,
        "turn": state.turn,
        "rng": state.rng.state,
        "cause": state.cause_of_death,
        "messages": [[m.turn, m.text] for m in state.messages],
        "chart": state.chart.to_plain(),
        "next_entity": peek_next_entity(),
        "entities": [[e, pack_entity(esper.components_for_entity(e))] for e in sorted(esper.get_entities())],
        **developer_marks(state),
    }


def developer_marks(state: GameState) -> Plain:
    """The keys of a replay-made or wizard game; none at all for the character's own (format 2)."""
    marks: Plain = {"origin": state.origin} if state.origin else {}
    return {**marks, "monsters_still": True} if state.monsters_still else marks


def floor_to_plain(floor: Floor) -> Plain:
    """A floor as plain values."""
    return {
        "depth": floor.depth,
        "shape": list(floor.tiles.shape),
        "tiles": floor.tiles.tobytes(),
        "explored": np.packbits(floor.explored).tobytes(),
        "down": list(floor.down_stairs),
        "up": list(floor.up_stairs) if floor.up_stairs is not None else None,
        "arrival": list(floor.arrival),
        "kind": floor.kind,
        "dormant": [list(map(list, entity)) for entity in floor.dormant],
    }


def from_plain(plain: Plain) -> Game:
    """Rebuild a game from :func:`to_plain`'s output (trusted, already validated)."""
    world = fresh_world()
    floors = {f["depth"]: floor_from_plain(f) for f in plain["floors"]}
    state = GameState(
        seed=plain["seed"], name=plain["name"], player=plain["player"], rng=Rng(plain["rng"]),
        floors=floors, depth=plain["depth"], turn=plain["turn"],
        messages=[Message(turn, text) for turn, text in plain["messages"]],
        cause_of_death=plain["cause"], origin=plain.get("origin"), monsters_still=plain.get("monsters_still", False),
        chart=Chart.from_plain(plain["chart"]),
    )
    for entity, packed in plain["entities"]:
        restore_entity(entity, unpack_entity([(name, values) for name, values in packed]))
    world.skip_to(plain["next_entity"])
    game = Game(state, world)
    game.refresh_visible()
    return game


def floor_from_plain(plain: Plain) -> Floor:
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


def encode(plain: Plain) -> bytes:
    """Canonical msgpack bytes of a snapshot."""
    packed: bytes = msgpack.packb(plain, use_bin_type=True)
    return packed


def snapshot_bytes(game: Game) -> bytes:
    """The game's canonical msgpack bytes: exactly ``encode(to_plain(game))``, only faster.

    A floor the player is not on cannot change, so its encoding is kept on the floor
    (:attr:`Floor.encoded`) and spliced in; waking a floor forgets it.
    """
    head = plain_head(game)
    packer = msgpack.Packer(use_bin_type=True)
    parts = [packer.pack_map_header(len(head) + 1)]
    for key, value in head.items():
        parts += [packer.pack(key), packer.pack(value)]
    floors, depth = game.state.floors, game.state.depth
    parts += [packer.pack("floors"), packer.pack_array_header(len(floors))]
    parts += [encoded_floor(floors[d], d == depth, packer) for d in sorted(floors)]
    return b"".join(parts)


def encoded_floor(floor: Floor, current: bool, packer: msgpack.Packer) -> bytes:
    """A floor's msgpack bytes, kept for next time unless the player is on it."""
    if current:
        return bytes(packer.pack(floor_to_plain(floor)))
    if floor.encoded is None:
        floor.encoded = bytes(packer.pack(floor_to_plain(floor)))
    return floor.encoded


def digest(snapshot: bytes) -> str:
    """The checksum of encoded snapshot bytes: 64 bits of SHA-256, as hex."""
    # SHA-256 runs in hardware on current x86 and ARM cores: about twice BLAKE2b's speed
    # on the 15 KB snapshot that every replay record and every save is checked against.
    return hashlib.sha256(snapshot).hexdigest()[:16]


def checksum(game: Game) -> str:
    """A short hash of the whole game state (the same as a session step's checksum)."""
    return digest(snapshot_bytes(game))
