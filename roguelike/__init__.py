"""Hedonic Hypothesis: a turn-based roguelike about addiction."""

from __future__ import annotations

__version__ = "1.5.3"  # CHANGELOG.md says what each version changed for a player
APP_ID = "hedonic-hypothesis"  # the data folder's name, and the window's class / app id for task bars
