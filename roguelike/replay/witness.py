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
    return as_stored(dict(raw_facts(game)))


def raw_facts(game: Game) -> list[tuple[str, Any]]:
    """The witness's facts before they are stored: values may be tuples, and may share
    lists and dicts with the player's components (encode them at once)."""
    state = game.state
    facts: list[tuple[str, Any]] = [
        ("depth", state.depth),
        ("rng", state.rng.state),
        ("entities", len(game.world.entities())),
        ("messages", len(state.messages)),
    ]
    components = tuple(game.world.components(state.player))
    facts += [(PLAYER + name, values) for name, values in packed_fields(components)]
    return facts


def changes(previous: Witness, current: Witness) -> Witness:
    """The facts that changed from one witness to the next (None for a fact now gone)."""
    delta: Witness = {key: value for key, value in current.items() if previous.get(key, Missing) != value}
    delta.update({key: None for key in previous if key not in current})
    return delta


class Ledger:
    """The facts last recorded, each with its bytes: what the recorder compares the next witness with.

    A fact whose bytes are unchanged is unchanged; only a fact whose bytes differ is read
    back and compared as :func:`changes` compares it, so the records are the same as
    comparing two whole witnesses, without storing every fact of every turn.
    """

    def __init__(self, facts: Witness) -> None:
        self.facts = facts
        self.packed: dict[str, bytes] = {}  # a fact's bytes, for facts stored by this ledger
        self.packer = msgpack.Packer(use_bin_type=True)

    def record(self, game: Game) -> Witness:
        """The facts that changed since the last record (None for a fact now gone); keeps the new ones."""
        previous, packed, pack = self.facts, self.packed, self.packer.pack
        facts: Witness = {}
        delta: Witness = {}
        now_packed: dict[str, bytes] = {}
        for key, value in raw_facts(game):
            data = now_packed[key] = pack(value)
            if packed.get(key) == data:
                facts[key] = previous[key]
                continue
            facts[key] = stored = msgpack.unpackb(data, raw=False)
            if previous.get(key, Missing) != stored:
                delta[key] = stored
        delta.update({key: None for key in previous if key not in facts})
        self.facts, self.packed = facts, now_packed
        return delta


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
    part = text[len(PLAYER):]
    return "player" if part == "player" else f"player {part}"


def shown(facts: Witness, key: Any) -> str:
    """A fact's value for a message."""
    return safe(facts[key]) if key in facts else "(absent)"
