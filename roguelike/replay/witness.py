"""A few readable facts about the game after each command, stored beside the checksum.

The checksum says *that* a re-simulated game went another way; the witness says *how*:
the player's components (keys ``@<component>``), the floor, the RNG state and how many
things exist. Each record stores only the facts that changed since the previous record
(a removed fact as None: real facts are never None), so it costs a few microseconds and
well under a hundred bytes a turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgpack

from roguelike.core.game import Game
from roguelike.core.packing import packed_fields
from roguelike.replay.fileformat import StepRecord, Witness, safe

MAX_DIFF_LINES = 12
PLAYER = "@"


def witness(game: Game) -> Witness:
    """Facts about the game as it stands, as msgpack-ready plain values."""
    return as_stored(dict(zip(*raw_facts(game))))


def raw_facts(game: Game) -> tuple[list[str], list[Any]]:
    """The witness's facts before they are stored, as keys and values: values may be tuples,
    and may share lists and dicts with the player's components (encode them at once)."""
    state = game.state
    keys = ["depth", "rng", "entities", "messages"]
    values: list[Any] = [state.depth, state.rng.state, len(game.world.entities()), len(state.messages)]
    for name, fields in packed_fields(tuple(game.world.components(state.player))):
        keys.append(PLAYER + name)
        values.append(fields)
    return keys, values


def changes(previous: Witness, current: Witness) -> Witness:
    """The facts that changed from one witness to the next (None for a fact now gone)."""
    delta: Witness = {key: value for key, value in current.items() if previous.get(key, Missing) != value}
    delta.update({key: None for key in previous if key not in current})
    return delta


class Ledger:
    """The facts last recorded, each with its bytes: what the recorder compares the next witness with.

    A fact whose bytes are unchanged is unchanged; only a fact whose bytes differ is read
    back and compared as :func:`changes` compares it, so the records are the same as
    comparing two whole witnesses, without reading every fact back every turn.
    """

    def __init__(self, facts: Witness) -> None:
        self.given = facts  # the facts a resumed recording starts from, until this ledger records
        self.keys: list[str] = []  # the facts this ledger recorded last, in order...
        self.stored: list[Any] = []  # ...their values as a file reads them back...
        self.packed: list[bytes] = []  # ...and their bytes
        self.packer = msgpack.Packer(use_bin_type=True)

    @property
    def facts(self) -> Witness:
        """The facts last recorded."""
        return dict(zip(self.keys, self.stored)) if self.keys else self.given

    def record(self, game: Game) -> Witness:
        """The facts that changed since the last record (None for a fact now gone); keeps the new ones."""
        keys, values = raw_facts(game)
        packed = list(map(self.packer.pack, values))
        delta = self.compared(keys, packed) if keys == self.keys else self.compared_anew(keys, packed)
        self.keys, self.packed = keys, packed
        return delta

    def compared(self, keys: list[str], packed: list[bytes]) -> Witness:
        """The changes when the facts are the same as last time: only those of other bytes are read back."""
        old, stored = self.packed, self.stored
        delta: Witness = {}
        for index in [index for index, data in enumerate(packed) if data != old[index]]:
            value = msgpack.unpackb(packed[index], raw=False)
            if stored[index] != value:
                delta[keys[index]] = value
            stored[index] = value
        return delta

    def compared_anew(self, keys: list[str], packed: list[bytes]) -> Witness:
        """The changes on the first record, or when a fact came or went: every fact is read back."""
        previous = self.facts
        self.stored = [msgpack.unpackb(data, raw=False) for data in packed]
        return changes(previous, dict(zip(keys, self.stored)))


def apply_changes(facts: Witness, delta: Witness) -> Witness:
    """A witness updated by a record's changes."""
    updated = {**facts, **delta}
    return {key: value for key, value in updated.items() if value is not None}


def as_stored(facts: Witness) -> Witness:
    """Facts as they read back from a file (tuples become lists)."""
    stored: Witness = msgpack.unpackb(msgpack.packb(facts, use_bin_type=True), raw=False)
    return stored


def differences(recorded: Witness, actual: Witness) -> list[str]:
    """One line per fact that differs between a recording and a re-simulation."""
    lines = [
        f"{label(key)}: recorded {shown(recorded, key)}, now {shown(actual, key)}"
        for key in sorted(set(recorded) | set(actual), key=str)
        if recorded.get(key, Missing) != actual.get(key, Missing)
    ]
    return lines[:MAX_DIFF_LINES]


class Missing:
    """Marks a fact present on one side only."""


def recorded_facts(steps: Sequence[StepRecord], count: int) -> Witness:
    """The full witness recorded after the first ``count`` steps."""
    facts: Witness = {}
    for record in steps[:count]:
        facts = apply_changes(facts, record.changes)
    return facts


def label(key: Any) -> str:
    """A fact's name for a message: ``@position`` reads "player position", ``@player`` "player"."""
    text = safe(key).strip("'\"")
    if not (isinstance(key, str) and key.startswith(PLAYER)):
        return text
    part = text[len(PLAYER) :]
    return "player" if part == "player" else f"player {part}"


def shown(facts: Witness, key: Any) -> str:
    """A fact's value for a message."""
    return safe(facts[key]) if key in facts else "(absent)"
