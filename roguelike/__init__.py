"""Hedonic Hypothesis: a turn-based roguelike about addiction."""

from __future__ import annotations

__version__ = "0.1.0"
