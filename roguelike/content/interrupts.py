"""The kinds of change that stop the player's automation: a typed set the player may narrow.

Auto-explore, travel, rest, held keys and the hand-back after a takeover all stop
through one rule (:mod:`roguelike.assist.disturb`); which kinds count is a setting.
"""

from __future__ import annotations

from enum import Enum


class Disturbance(Enum):
    """A kind of change that stops automation; the value names it in the settings file."""

    MONSTER = "monster"  # a monster comes into view
    NEW_KIND = "new_kind"  # a kind of monster never seen before comes into view
    MOOD = "mood"  # the State of Mind crosses a band: Withdrawal, High, Desperation, near overdose
    DOSE = "dose"  # a dose comes into view
    ATTRIBUTE = "attribute"  # Confidence, Nerve, Will or Tolerance changes
    EFFECT = "effect"  # a stun, panic or confusion starts or ends
    MESSAGE = "message"  # the game says something that matters
    CONTROL = "control"  # a takeover starts, or control comes back
    FLOOR = "floor"  # the player is on another floor


ALL_DISTURBANCES = frozenset(Disturbance)

# How the settings name each kind.
DESCRIPTIONS: dict[Disturbance, str] = {
    Disturbance.MONSTER: "a monster comes into view",
    Disturbance.NEW_KIND: "a kind of monster never seen before",
    Disturbance.MOOD: "the State of Mind crosses a band",
    Disturbance.DOSE: "a dose comes into view",
    Disturbance.ATTRIBUTE: "an attribute changes",
    Disturbance.EFFECT: "a stun, panic or confusion starts or ends",
    Disturbance.MESSAGE: "the game says something that matters",
    Disturbance.CONTROL: "a takeover starts or hands back control",
    Disturbance.FLOOR: "you are on another floor",
}
