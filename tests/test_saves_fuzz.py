"""Property: whatever bytes a save file holds, loading it raises SaveError or gives a game.

Two kinds of mutation: raw byte damage (caught by the slots, the envelope and their checksums), and damage
inside the snapshot sealed again with a valid checksum, so the field validation and the
rebuilding of the game are exercised too. Over a thousand files each.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roguelike.core.snapshot import encode
from roguelike.saves import FORMAT_VERSION, load_save
from roguelike.saves.container import SAVE_MAGIC, seal
from roguelike.saves.slots import newest_slot, slotted_file
from roguelike.storage.errors import SaveError
from save_helpers import played

FUZZ = settings(max_examples=1000, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


@functools.cache
def original(folder: str) -> bytes:
    """The bytes of a real save with monsters, doses and more than one floor."""
    session, _ = played(Path(folder), turns=150)
    session.close()
    return next(Path(folder, "saves").glob("*.save")).read_bytes()


def snapshot_of(data: bytes) -> Any:
    """The snapshot in a save's newest slot."""
    return msgpack.unpackb(newest_slot(data).sealed.payload, strict_map_key=False)


def loads_or_says_why(path: Path, data: bytes) -> None:
    """The property: a game, or a SaveError naming the file; nothing else escapes."""
    path.write_bytes(data)
    try:
        game = load_save(path)
    except SaveError as error:
        assert str(path) in str(error) and error.reason
        return
    game.close()


Damage = tuple[str, int, int | bytes]  # how, where, and the bit flipped or the bytes put in
byte_damage = st.one_of(
    st.tuples(st.just("flip"), st.integers(0, 10**6), st.integers(0, 7)),
    st.tuples(st.just("cut"), st.integers(0, 10**6), st.just(0)),
    st.tuples(st.just("insert"), st.integers(0, 10**6), st.binary(min_size=1, max_size=16)),
    st.tuples(st.just("overwrite"), st.integers(0, 10**6), st.binary(min_size=1, max_size=16)),
)


def damage_bytes(data: bytes, how: Damage) -> bytes:
    """One byte-level mutation."""
    kind, at, extra = how
    at %= len(data) + 1
    if kind == "flip":
        assert isinstance(extra, int)
        if not data:
            return data
        at = min(at, len(data) - 1)
        return data[:at] + bytes([data[at] ^ (1 << extra)]) + data[at + 1 :]
    if kind == "cut":
        return data[:at]
    assert isinstance(extra, bytes)
    if kind == "insert":
        return data[:at] + extra + data[at:]
    return data[:at] + extra + data[at + len(extra) :]


@FUZZ
@given(st.lists(byte_damage, min_size=1, max_size=4))
def test_damaged_bytes_only_ever_raise_save_error(
    tmp_path_factory: pytest.TempPathFactory, damage: list[Damage]
) -> None:
    folder = tmp_path_factory.getbasetemp() / "fuzz-bytes"
    data = original(str(folder))
    for how in damage:
        data = damage_bytes(data, how)
    loads_or_says_why(folder / "mutated.save", data)


@FUZZ
@given(st.lists(byte_damage, min_size=1, max_size=4))
def test_damaged_bytes_of_an_old_single_envelope_save_only_ever_raise_save_error(
    tmp_path_factory: pytest.TempPathFactory, damage: list[Damage]
) -> None:
    data = (Path(__file__).resolve().parent.parent / "saves" / "v5.save").read_bytes()
    for how in damage:
        data = damage_bytes(data, how)
    loads_or_says_why(tmp_path_factory.getbasetemp() / "fuzz-old.save", data)


plain_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats(allow_nan=True)
    | st.text(max_size=8)
    | st.binary(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4) | st.integers(-5, 5), inner, max_size=4)
    ),
    max_leaves=12,
)


def places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place inside a snapshot that a mutation can replace."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += places(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += places(item, path + (index,))
    return found


def replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    """A copy of ``value`` with the item at ``path`` replaced by ``new``."""
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: replaced(value[head], rest, new)}
    return [replaced(item, rest, new) if index == head else item for index, item in enumerate(value)]


@FUZZ
@given(st.integers(0, 10**9), plain_values, st.integers(0, 10**9), plain_values)
def test_resealed_snapshots_of_any_shape_only_ever_raise_save_error(
    tmp_path_factory: pytest.TempPathFactory, first: int, value: Any, second: int, other: Any
) -> None:
    folder = tmp_path_factory.getbasetemp() / "fuzz-plain"
    plain = snapshot_of(original(str(folder)))
    spots = places(plain)
    plain = replaced(plain, spots[first % len(spots)], value)
    spots = places(plain)
    plain = replaced(plain, spots[second % len(spots)], other)
    header = encode({"saved_at": 0, "steps": 0, "game": "fuzz"})
    loads_or_says_why(folder / "mutated.save", slotted_file(seal(SAVE_MAGIC, FORMAT_VERSION, header, encode(plain))))
