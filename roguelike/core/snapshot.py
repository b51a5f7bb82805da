"""The whole game as plain data (msgpack-ready) and back, and its checksum.

The snapshot holds every entity with its id, every floor (tiles as bytes), the RNG
state, the turn and the messages: everything that decides what happens next, so two
games with equal snapshots play on identically.
"""

from __future__ import annotations

import operator
import typing
import weakref
from collections.abc import Callable

import esper
import msgpack
import numpy as np
from numpy.typing import NDArray

from roguelike.core import ecsworld
from roguelike.core.chart import Chart
from roguelike.core.floor import Floor
from roguelike.core.game import Game, fresh_world
from roguelike.core.packing import PLANS, Packer, packer_for, plan_for, unpack_entity
from roguelike.core.plain import PackedEntity, PlainFloor, PlainHead, PlainSnapshot, floor_digest, state_digest
from roguelike.core.plain import Plain as Plain
from roguelike.core.plain import digest as digest
from roguelike.core.plain import encode as encode
from roguelike.core.rng import Rng
from roguelike.core.state import GameState, Message


def to_plain(game: Game) -> PlainSnapshot:
    """The game as a dict of plain values (ints, strings, bytes, lists)."""
    floors = game.state.floors
    return {**plain_head(game), "floors": [floor_to_plain(floors[d]) for d in sorted(floors)]}


def plain_head(game: Game) -> PlainHead:
    """Everything of :func:`to_plain` but the floors (which come last)."""
    before, after = head_around_messages(game)
    return typing.cast(PlainHead, {**before, "messages": list(map(MESSAGE_FIELDS, game.state.messages)), **after})


def head_around_messages(game: Game) -> tuple[dict[str, object], dict[str, object]]:
    """The head's keys before its messages and after them, in their order (the marks last)."""
    before, after, marks = head_pieces(game)
    return before, {**after, "entities": packed_entities(), **marks}


def head_pieces(game: Game) -> tuple[dict[str, object], dict[str, object], dict[str, object]]:
    """The head's keys before its messages, those between them and the entities, and the marks."""
    game.activate()
    state = game.state
    before: dict[str, object] = {
        "seed": state.seed,
        "name": state.name,
        "player": state.player,
        "depth": state.depth,
        "turn": state.turn,
        "rng": state.rng.state,
        "cause": state.cause_of_death,
    }
    after: dict[str, object] = {"chart": state.chart.to_plain(), "next_entity": peek_next_entity()}
    marks: dict[str, object] = {}
    add_developer_marks(marks, state)
    return before, after, marks


def packed_entities() -> list[tuple[int, PackedEntity]]:
    """Every entity of the current world, in id order, with its saved components packed."""
    components_of = esper.components_for_entity
    entities = []
    for entity in sorted(esper.get_entities()):
        components: tuple[object, ...] = components_of(entity)
        entities.append((entity, packer_for(tuple(map(type, components)))(components)))
    return entities


def add_developer_marks(head: dict[str, object], state: GameState) -> None:
    """The keys of a replay-made or wizard game; none at all for the character's own (format 2)."""
    if state.origin:
        head["origin"] = state.origin
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
        "revealed": np.packbits(floor.revealed).tobytes(),
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
        seed=plain["seed"],
        name=plain["name"],
        player=plain["player"],
        rng=Rng(plain["rng"]),
        floors=floors,
        depth=plain["depth"],
        turn=plain["turn"],
        messages=[Message(turn, text) for turn, text in plain["messages"]],
        cause_of_death=plain["cause"],
        origin=plain.get("origin"),
        monsters_still=plain.get("monsters_still", False),
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
    up = plain["up"]
    return Floor(
        depth=plain["depth"],
        tiles=tiles,
        explored=unpacked(plain["explored"], height, width),
        revealed=unpacked(plain["revealed"], height, width),
        down_stairs=(plain["down"][0], plain["down"][1]),
        up_stairs=(up[0], up[1]) if up is not None else None,
        arrival=(plain["arrival"][0], plain["arrival"][1]),
        kind=plain["kind"],
        dormant=[[(name, list(values)) for name, values in entity] for entity in plain["dormant"]],
    )


def unpacked(bits: bytes, height: int, width: int) -> NDArray[np.bool_]:
    """A map-sized mask from its packed bits (``np.packbits``)."""
    flat = np.unpackbits(np.frombuffer(bits, dtype=np.uint8))
    mask: NDArray[np.bool_] = flat[: height * width].reshape(height, width).astype(bool)
    return mask


def peek_next_entity() -> int:
    """The id esper will give the next entity of the current world."""
    return ecsworld.current().next_entity()


def restore_entity(entity: int, components: list[object]) -> None:
    """Recreate an entity under its saved id, so relations and order survive a load."""
    ecsworld.current().restore(entity, components)


def snapshot_bytes(game: Game) -> bytes:
    """The game's canonical msgpack bytes: exactly ``encode(to_plain(game))``, only faster."""
    return encoded_state(game).snapshot


def encoded_state(game: Game) -> EncodedState:
    """The game's canonical msgpack bytes in pieces: the head, then each floor.

    The map's pairs are packed in pieces and joined under one map header. A floor the
    player is not on cannot change, so its encoding and digest are kept on the floor
    (:attr:`Floor.encoded`) and reused (waking a floor forgets them); the messages'
    encoding is kept while the very same messages stand, and each entity's while its
    packed fields stay equal (:func:`encoded_entities`).
    """
    before, after, marks = head_pieces(game)
    packer = msgpack.Packer(use_bin_type=True)
    floors, depth = game.state.floors, game.state.depth
    head = b"".join(
        (
            packer.pack_map_header(len(before) + len(after) + len(marks) + 3),
            packer.pack(before)[MAP_HEADER:],
            packer.pack("messages"),
            encoded_messages(game, packer),
            packer.pack(after)[MAP_HEADER:],
            packer.pack("entities"),
            encoded_entities(game, packer),
            packer.pack(marks)[MAP_HEADER:],
            packer.pack("floors"),
            packer.pack_array_header(len(floors)),
        )
    )
    pieces = [encoded_floor(floors[d], d == depth, packer) for d in sorted(floors)]
    return EncodedState(head, [encoding for encoding, _ in pieces], [digest for _, digest in pieces])


class EncodedState:
    """A game's snapshot in pieces, with its bytes and checksums worked out when first asked for."""

    def __init__(self, head: bytes, floors: list[bytes], floor_digests: list[bytes | None]) -> None:
        self.head, self.floors, self.floor_digests = head, floors, floor_digests
        self._snapshot: bytes | None = None
        self._checksum: str | None = None

    @property
    def snapshot(self) -> bytes:
        """The whole canonical bytes (what a save holds)."""
        if self._snapshot is None:
            self._snapshot = b"".join((self.head, *self.floors))
        return self._snapshot

    @property
    def checksum(self) -> str:
        """The state's checksum, each floor counted by its digest (:func:`~roguelike.core.plain.state_digest`)."""
        if self._checksum is None:
            pairs = zip(self.floors, self.floor_digests, strict=True)
            digests = [known or floor_digest(floor) for floor, known in pairs]
            self._checksum = state_digest(self.head, digests)
        return self._checksum

    @property
    def whole_checksum(self) -> str:
        """The checksum of the whole bytes at once, as replay format 1 recorded it."""
        return digest(self.snapshot)


# Each piece of the head has fewer than 16 keys, so msgpack gives it a one-byte map
# header (fixmap), which is cut off before the pairs are spliced under the whole map's.
MAP_HEADER = 1
assert len(PlainSnapshot.__annotations__) <= 15

_messages: weakref.WeakKeyDictionary[Game, tuple[tuple[Message, ...], bytes]] = weakref.WeakKeyDictionary()


def encoded_messages(game: Game, packer: msgpack.Packer) -> bytes:
    """The messages' msgpack bytes, kept for the next step while the very same messages stand."""
    messages = tuple(game.state.messages)
    kept = _messages.get(game)
    if kept is not None and kept[0] == messages:  # Message is frozen: equal messages encode equally
        return kept[1]
    packed: bytes = packer.pack(list(map(MESSAGE_FIELDS, messages)))
    _messages[game] = (messages, packed)
    return packed


# Per game: each entity's packed fields and their msgpack bytes at the last encoding, for
# entities whose fields compare by value (packing.plan_for); the player's never are. With
# them the entity's components then and their packer: while esper hands back the same
# components, their classes, and so the packer, are the same (no classes to look up).
Kept = tuple[PackedEntity, bytes, tuple[object, ...], Packer]
_entities: weakref.WeakKeyDictionary[Game, dict[int, Kept]] = weakref.WeakKeyDictionary()


def encoded_entities(game: Game, packer: msgpack.Packer) -> bytes:
    """The msgpack bytes of :func:`packed_entities` (the current world's), reusing an entity's
    bytes from the last encoding when its packed fields are equal to those it had then."""
    # Most entities stand still from one turn to the next (2 of 15 change in a corpus
    # game): comparing packed fields costs a tenth of encoding them again.
    kept = _entities.get(game, {})
    now: dict[int, Kept] = {}
    pieces = []
    components_of, pack, plans = esper.components_for_entity, packer.pack, PLANS
    for entity in sorted(esper.get_entities()):
        components: tuple[object, ...] = components_of(entity)
        last = kept.get(entity)
        if last is not None and last[2] == components:  # the same components (equal ones are of the same classes)
            packed_fields, by_value = last[3], True
        else:
            kinds = tuple(map(type, components))
            packed_fields, by_value = plans.get(kinds) or plan_for(kinds)
        packed = packed_fields(components)
        if not by_value:
            pieces.append(pack((entity, packed)))
            continue
        if last is None or last[0] != packed:
            last = packed, pack((entity, packed)), components, packed_fields
        now[entity] = last
        pieces.append(last[1])
    _entities[game] = now
    header: bytes = packer.pack_array_header(len(pieces))
    return header + b"".join(pieces)


def encoded_floor(floor: Floor, current: bool, packer: msgpack.Packer) -> tuple[bytes, bytes | None]:
    """A floor's msgpack bytes and digest, kept for next time (the player's floor while it stays the same)."""
    if current:
        return encoded_here(floor, packer)
    if floor.encoded is None:
        encoding = bytes(packer.pack(floor_to_plain(floor)))
        floor.encoded = encoding, floor_digest(encoding)
    return floor.encoded


def encoded_here(floor: Floor, packer: msgpack.Packer) -> tuple[bytes, bytes]:
    """The player's floor's msgpack bytes and digest, made again only when the floor changed."""
    plain = floor_to_plain(floor)
    kept = floor.encoded_here
    # Equal values encode equally here: tiles and memory are bytes, the rest ints and text;
    # sleeping entities (whose fields could be an equal bool and int) are never reused.
    if kept is not None and not plain["dormant"] and kept[0] == plain:
        return kept[1], kept[2]
    encoding = bytes(packer.pack(plain))
    floor.encoded_here = plain, encoding, floor_digest(encoding)
    return encoding, floor.encoded_here[2]


def checksum(game: Game) -> str:
    """A short hash of the whole game state (the same as a session step's checksum)."""
    return encoded_state(game).checksum
