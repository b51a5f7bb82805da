"""The shape of a snapshot as plain data, its canonical encoding and its checksum.

Light on purpose (msgpack and hashlib only): reading, listing and checking saves needs
this, but not the rules, numpy or tcod. :mod:`roguelike.core.snapshot` makes and reads
these from a live game.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Any, Literal, TypedDict

import msgpack

# An entity of a floor the player is not on, kept as (component name, fields) pairs.
PackedEntity = list[tuple[str, Sequence[Any]]]
Plain = dict[str, Any]  # a snapshot of any format version, before it is upgraded and checked


# The climates of roguelike.content.climates.CLIMATES.
FloorKind = Literal["rooms", "caves", "halls", "desert", "watery", "islands", "tundra"]


# The one declaration of a snapshot's shape: snapshot.py builds exactly these (mypy
# checks it) and saves/validate.py checks files against them. Keys are encoded in
# the order the functions write them, which the checksums depend on.
class PlainFloor(TypedDict):
    """A floor as :func:`~roguelike.core.snapshot.floor_to_plain` makes it."""

    depth: int
    shape: tuple[int, int]
    tiles: bytes
    explored: bytes
    revealed: bytes  # format 13: where a Perfect High showed a dose
    down: tuple[int, int]
    up: tuple[int, int] | None
    arrival: tuple[int, int]
    kind: FloorKind
    dormant: list[PackedEntity]


Origin = Literal["replay", "wizard", "bot", "daily", "practice"]


class PlainChart(TypedDict):
    """The State-of-Mind chart as :meth:`roguelike.core.chart.Chart.to_plain` makes it."""

    start: int
    series: bytes
    doses: list[int]
    floors: list[tuple[int, int]]


class PlainMarks(TypedDict, total=False):
    """A game's marks, present only when set (save format 2; format 9 adds the origins bot, daily and practice)."""

    origin: Origin
    monsters_still: Literal[True]


class PlainHead(PlainMarks):
    """Everything of a snapshot but its floors (the marks, when set, come after the entities)."""

    seed: int
    name: str
    player: int
    depth: int
    turn: int
    rng: int
    cause: str | None
    messages: list[tuple[int, str]]
    chart: PlainChart
    next_entity: int
    entities: list[tuple[int, PackedEntity]]


class PlainSnapshot(PlainHead):
    """A whole game as :func:`~roguelike.core.snapshot.to_plain` makes it."""

    floors: list[PlainFloor]


def encode(plain: Plain | PlainSnapshot) -> bytes:
    """Canonical msgpack bytes of a snapshot."""
    packed: bytes = msgpack.packb(plain, use_bin_type=True)
    return packed


def digest(snapshot: bytes) -> str:
    """The whole-bytes checksum of encoded snapshot bytes (replay format 1): 64 bits of SHA-256, as hex."""
    # SHA-256 runs in hardware on current x86 and ARM cores: about twice BLAKE2b's speed
    # on the 15 KB snapshot that every replay record and every save is checked against.
    return hashlib.sha256(snapshot).hexdigest()[:16]


def floor_digest(floor: bytes) -> bytes:
    """The SHA-256 of one floor's encoding, as :func:`state_digest` takes it in."""
    return hashlib.sha256(floor).digest()


def state_digest(head: bytes, floor_digests: Iterable[bytes], tail: bytes = b"") -> str:
    """The checksum of a snapshot in pieces (replay format 2 on): its bytes with each floor's
    encoding replaced by that floor's SHA-256, hashed; 64 bits, as hex.

    Every byte of the state still counts, but a floor the player is not on is hashed once,
    when it is left, so the cost of a turn's checksum does not grow with the depth reached.
    """
    return hashlib.sha256(b"".join((head, *floor_digests, tail))).hexdigest()[:16]


def snapshot_digest(snapshot: bytes) -> str:
    """:func:`state_digest` of whole encoded snapshot bytes (a save's, say)."""
    head, floors, tail = split_floors(snapshot)
    return state_digest(head, map(floor_digest, floors), tail)


def split_floors(snapshot: bytes) -> tuple[bytes, list[bytes], bytes]:
    """A snapshot's bytes as what comes before its floors, each floor's bytes, and what follows."""
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
    unpacker.feed(snapshot)
    for _ in range(unpacker.read_map_header()):
        if unpacker.unpack() != "floors":
            unpacker.skip()
            continue
        count = unpacker.read_array_header()
        start = unpacker.tell()
        bounds = [start]
        for _ in range(count):
            unpacker.skip()
            bounds.append(unpacker.tell())
        floors = [snapshot[a:b] for a, b in zip(bounds, bounds[1:])]
        return snapshot[:start], floors, snapshot[bounds[-1] :]
    return snapshot, [], b""
