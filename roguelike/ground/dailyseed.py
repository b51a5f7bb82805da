"""The daily seed's formula: one dungeon a UTC date under one rules epoch, worked out anywhere.

The game's daily (:mod:`roguelike.scores.daily`) and the hosted server's web process, which
starts a daily game without loading the rules, share it.
"""

from __future__ import annotations

import hashlib
from datetime import date

SEED_BITS = 63


def daily_seed_of(day: date, epoch: int) -> int:
    """The seed of a date's daily game under a rules epoch: the first 63 bits of a SHA-256."""
    digest = hashlib.sha256(f"hedonic-hypothesis daily {day.isoformat()} rules-epoch {epoch}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)
