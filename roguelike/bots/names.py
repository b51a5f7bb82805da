"""The names of the built-in bots, light enough for the command line's parser to import."""

from __future__ import annotations

DEFAULT_BOT = "standard"
BOT_NAMES: tuple[str, ...] = (
    "careful",
    "climber",
    "diver",
    "explorer",
    "planner",
    "planner-nopocket",
    "reader",
    "reckless",
    "standard",
)
