"""One tip for each way to die, shown on the death screen: what would have saved you."""

from __future__ import annotations

from roguelike.content import formulas
from roguelike.content.bestiary import DEPRESSION_COUNSEL

TIPS: dict[str, str] = {
    "exhaustion": (
        f"Your State of Mind drains {formulas.STATE_OF_MIND_DECAY} a turn. Doses you have seen stay on the"
        " map: head for one while you still steer, before Desperation takes the controls and"
        " drags you to whatever it can find."
    ),
    "overdose": (
        f"A dose gives a random Strength less your Tolerance: +{formulas.DOSE_STRENGTH_PER_FLOOR} a floor down,"
        f" +{formulas.PURE_BATCH_EXTRA} for a purer batch, likelier deeper. Look"
        " first (x, Tab): the panel shows its true range and any risk. A weak Will cannot refuse a near"
        " dose, and Desperation takes the nearest: keep clear of doses while High."
    ),
    "depression": (
        "A Depression takes two steps a turn: you cannot outrun it, and it kills with one touch."
        f" {DEPRESSION_COUNSEL[:1].upper()}{DEPRESSION_COUNSEL[1:]}; its second step then stops next to"
        " you, and you strike first. Or put a closed door between you."
    ),
}
GENERAL_TIP = (
    "Every monster dies to one hit, and you strike first when you walk into one. Read the help (?)"
    " to learn what each can do."
)


def tip_for(cause: str) -> str:
    """The tip for a cause of death."""
    return TIPS.get(cause, GENERAL_TIP)
