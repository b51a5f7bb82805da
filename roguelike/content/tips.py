"""One tip for each way to die, shown on the death screen: what would have saved you.

A takeover that was steering when the player died has its own tip where the cause's would
not help: a player who died fleeing at the panic line learns the way back (Nerve steadies out
of sight), not Depression's parity rule.
"""

from __future__ import annotations

from roguelike.content import formulas
from roguelike.content.bestiary import DEPRESSION_COUNSEL, MONSTER_KINDS


def leaving(status: str) -> str:
    """The monster kinds whose hit leaves ``status``, in the plural, from the bestiary (``Shadows``)."""
    names = [kind.plural for kind in MONSTER_KINDS.values() if kind.hit.status == status]
    return " and ".join(names) or "monsters"


TIPS: dict[str, str] = {
    "exhaustion": (
        f"Your State of Mind drains {formulas.STATE_OF_MIND_DECAY} a turn. Doses you have seen stay on the"
        " map: head for one while you still steer, before Desperation takes the controls and"
        " drags you to whatever it can find."
    ),
    "overdose": (
        f"A dose gives a random Strength less your Tolerance: +{formulas.DOSE_STRENGTH_PER_FLOOR} a floor down"
        f" to {formulas.DOSE_STRENGTH_GROWS_TO_FLOOR},"
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
# Tips for the takeover that steered the last action ({nerve}: the Nerve the player died with).
TAKEOVER_TIPS: dict[str, str] = {
    "nerve_panic": (
        f"You were fleeing: Nerve {{nerve}}. At Nerve {formulas.NERVE_PANIC_AT} or less every monster in sight"
        " makes you run, and you cannot strike. Out of every monster's sight your nerve steadies, a point"
        f" every {formulas.NERVE_STEADY_TURNS}th turn up to {formulas.NERVE_STEADY_UP_TO}: put a corner or a"
        " door between you and wait."
    ),
    "panicked": (
        f"You were fleeing in a Panic, which {leaving('panicked')} leave when they hit. It wears off in a few"
        " turns, sooner with more Confidence. You strike first when you walk into a monster: meet"
        f" {leaving('panicked')} before they reach you."
    ),
}
GENERAL_TIP = (
    "Every monster dies to one hit, and you strike first when you walk into one. Read the help (?)"
    " to learn what each can do."
)


def tip_for(cause: str, takeover: str | None = None, nerve: int | None = None) -> str:
    """The tip for a cause of death, or for the takeover that was steering (naming it) if it has one."""
    if takeover in TAKEOVER_TIPS:
        return TAKEOVER_TIPS[takeover].format(nerve="?" if nerve is None else nerve)
    return TIPS.get(cause, GENERAL_TIP)
