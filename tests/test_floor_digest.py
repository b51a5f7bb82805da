"""Floors are pinned: a seed makes the same floor, byte for byte, until the rules epoch says otherwise.

A replay holds a seed and commands, not floors, so map generation made faster or tidier must
make every floor as before: its tiles, memories, stairs, kind and everything placed on it
(doses, finds, monsters, visions). A digest a climate covers floors 1 to 12 of a few games
with the table holding that climate alone (on the floors it may be), first reached in each
band's State of Mind, and one more the floors the climates' draw gives the same games. The
replay corpus catches a changed floor only where a replay walks; this catches it on any of
these floors, and names the climates whose floors changed.
"""

from __future__ import annotations

import hashlib

import msgpack
import pytest

from roguelike.content.climates import CLIMATES, Climate
from roguelike.core import mapgen
from roguelike.core.floor import Floor
from roguelike.core.mapgen import generate_floor
from roguelike.core.world import floor_seed

SEEDS = range(8)
DEPTHS = range(1, 13)
FIRST_REACHED = (20, 55, 80)  # Withdrawal, Sober, High: the band decides the walls' state and the monsters
# The digest of the floors of each climate (and of those the climates' draw gives), made by
# rules epoch 14's map generation: the first 16 hex digits of SHA-256 over each floor's own.
FLOORS_DIGESTS = {
    "drawn": "1a93fec9b5b7e851",
    "rooms": "9a7ecbf8b16172ed",
    "caves": "6ab266a060bc67ff",
    "halls": "735fd35bb29468c8",
    "desert": "38388b87d755c88d",
    "watery": "a4db2ccfc6ae0acd",
    "islands": "7a3b4b8e5515a21f",
    "tundra": "da378e6e40703120",
}
CHANGED = (
    "map generation made other floors ({climates}): every replay and save of this rules epoch would "
    "play another game. If the change is meant, bump RULES_EPOCH (roguelike/core/epoch.py, "
    "docs/replays.md) and write the new digests in FLOORS_DIGESTS: {digests}"
)


def floor_digest(floor: Floor) -> bytes:
    """SHA-256 of all a floor holds."""
    digest = hashlib.sha256()
    for array in (floor.tiles, floor.explored, floor.revealed):
        digest.update(array.tobytes())
    digest.update(repr((floor.kind, floor.depth, floor.arrival, floor.up_stairs, floor.down_stairs)).encode())
    digest.update(msgpack.packb(floor.dormant))
    return digest.digest()


def game_floors(seed: int, climate: Climate | None) -> list[bytes]:
    """The digest of each floor of a game (only its floors where the climate may be, when one is given)."""
    depths = [depth for depth in DEPTHS if climate is None or climate.allowed(depth)]
    digests: list[bytes] = []
    up = None
    for depth in depths:
        floor = generate_floor(floor_seed(seed, depth), depth, up, FIRST_REACHED[seed % len(FIRST_REACHED)])
        assert climate is None or floor.kind == climate.key
        digests.append(floor_digest(floor))
        up = floor.down_stairs
    return digests


def climate_digests(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[bytes]]:
    """The digests of the games' floors as drawn, then with each climate the only one drawn."""
    floors = {"drawn": [digest for seed in SEEDS for digest in game_floors(seed, None)]}
    for climate in CLIMATES.values():
        monkeypatch.setattr(mapgen, "climate_for", lambda rng, depth, climate=climate: climate)
        floors[climate.key] = [digest for seed in SEEDS for digest in game_floors(seed, climate)]
    return floors


def test_every_climate_makes_the_same_floors_from_the_same_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    floors = climate_digests(monkeypatch)
    every = [digest for digests in floors.values() for digest in digests]
    assert len(set(every)) == len(every)  # no two floors alike: the digest tells each one apart
    made = {key: hashlib.sha256(b"".join(digests)).hexdigest()[:16] for key, digests in floors.items()}
    changed = [key for key in made if made[key] != FLOORS_DIGESTS.get(key)]
    assert not changed, CHANGED.format(climates=", ".join(changed), digests=made)
