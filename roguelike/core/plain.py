"""The shape of a snapshot as plain data, its canonical encoding and its checksum.

Light on purpose (msgpack and hashlib only): reading, listing and checking saves needs
this, but not the rules, numpy or tcod. :mod:`roguelike.core.snapshot` makes and reads
these from a live game.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, Literal, TypedDict

import msgpack

# An entity of a floor the player is not on, kept as (component name, fields) pairs.
PackedEntity = list[tuple[str, Sequence[Any]]]
Plain = dict[str, Any]  # a snapshot of any format version, before it is upgraded and checked


FloorKind = Literal["rooms", "caves", "halls"]  # the generators of roguelike.core.mapgen.FLOOR_KINDS


# The one declaration of a snapshot's shape: snapshot.py builds exactly these (mypy
# checks it) and saves/validate.py checks files against them. Keys are encoded in
# the order the functions write them, which the checksums depend on.
class PlainFloor(TypedDict):
    """A floor as :func:`~roguelike.core.snapshot.floor_to_plain` makes it."""

    depth: int
    shape: tuple[int, int]
    tiles: bytes
    explored: bytes
    down: tuple[int, int]
    up: tuple[int, int] | None
    arrival: tuple[int, int]
    kind: FloorKind
    dormant: list[PackedEntity]


Origin = Literal["replay", "wizard"]


class PlainChart(TypedDict):
    """The State-of-Mind chart as :meth:`roguelike.core.chart.Chart.to_plain` makes it."""

    start: int
    series: bytes
    doses: list[int]
    floors: list[tuple[int, int]]


class PlainMarks(TypedDict, total=False):
    """A replay-made or wizard game's marks, present only when set (save format 2)."""

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
    """The checksum of encoded snapshot bytes: 64 bits of SHA-256, as hex."""
    # SHA-256 runs in hardware on current x86 and ARM cores: about twice BLAKE2b's speed
    # on the 15 KB snapshot that every replay record and every save is checked against.
    return hashlib.sha256(snapshot).hexdigest()[:16]
