"""The words of the help pages, built from the content tables and formulas.

Every number comes from :mod:`roguelike.content.formulas`, so the help never disagrees
with the rules it explains.
"""

from __future__ import annotations

from roguelike.content import formulas as f
from roguelike.content.conditions import CONDITIONS, TIMED_CONDITIONS
from roguelike.content.doses import DoseKind, DoseOdds
from roguelike.content.finds import FindKind
from roguelike.content.terrain import by_value

CONTROLS: tuple[tuple[str, str], ...] = (
    ("Move", "arrows, numpad 2 4 6 8, h j k l"),
    ("Diagonals", "numpad 7 9 1 3, Home PgUp End PgDn, y u b n"),
    ("", "Shift+Left/Right: up-left/up-right"),
    ("", "Ctrl+Left/Right: down-left/down-right"),
    ("Wait a turn", ". or s or numpad 5"),
    ("Doors, doses, stairs, strike", "walk into them"),
    ("Pick up / take a carried dose", "g / q  (then a direction / its number)"),
    ("Auto-explore / rest", "o / Z  (a key or anything new stops it)"),
    ("Rest until a State of Mind", "R  (digits change the number, Enter rests)"),
    ("Travel to the stairs", "> or <  (a cell: click, or Enter in look)"),
    ("Go to the nearest safe dose", "t  (and take it)"),
    ("Read out around / condition", "v / c  (V: all in view)"),
    ("Look around", "x or ;  (Tab: next monster or dose, Esc: back)"),
    ("Help (these pages)", "?  (Left/Right or Tab: page, Esc: back)"),
    ("Message log", "m  (arrows, PgUp/PgDn: scroll, Esc: back)"),
    ("Menu (the game is always saved)", "Esc"),
    ("Fullscreen (window)", "Alt+Enter"),
    ("Save and quit (terminal)", "Ctrl-C;  Ctrl-L redraws"),
)
CALLED = [condition.called for condition in CONDITIONS.values() if condition.takes_controls]
KEPT = [condition for condition in CONDITIONS.values() if not condition.takes_controls]
CONTROLS_NOTE = (
    f"When you are {', '.join(CALLED[:-1])} or {CALLED[-1]}, the game has the controls:",
    "any key passes a turn and the panel says why.",
    *(f"When {c.called}, you keep them but {c.kept}, and o Z R t > < are refused." for c in KEPT),
)

# Every timed status, which Confidence shortens: "stun, panic, confusion, doubt or shame".
NOUNS = [timed.noun for _, timed in TIMED_CONDITIONS]
SHORTENED = [", ".join(NOUNS[:-1]), NOUNS[-1]] if len(NOUNS) > 1 else NOUNS

PURER_FULL = f.PURE_BATCH_FROM_FLOOR + f.PURE_BATCH_RAMP_FLOORS - 1
DEEP_TOLERANCE = f.TOLERANCE_DEEP_FROM_FLOOR  # the first floor where a dose adds more Tolerance
PURER_ODDS = (
    f"1 in {f.purer_batch_odds(f.PURE_BATCH_FROM_FLOOR):,} on floor {f.PURE_BATCH_FROM_FLOOR},"
    f" likelier each floor to 1 in {f.purer_batch_odds(PURER_FULL):,} from floor {PURER_FULL}"
)
RULES: tuple[tuple[str, str], ...] = (
    (
        "Your mind",
        f"State of Mind starts at {f.STATE_OF_MIND_START} and drains {f.STATE_OF_MIND_DECAY} a turn:"
        f" 0 is death by exhaustion, over {f.STATE_OF_MIND_MAX} an overdose.",
    ),
    (
        "  its bands",
        f"Desperate <= {f.DESPERATION_BASE} - Will; Withdrawal < {f.WITHDRAWAL_BELOW};"
        f" Sober {f.WITHDRAWAL_BELOW}-{f.HIGH_ABOVE}; High > {f.HIGH_ABOVE}.",
    ),
    (
        "Dose",
        f"Strength less Tolerance, +{f.DOSE_STRENGTH_PER_FLOOR} a floor to {f.DOSE_STRENGTH_GROWS_TO_FLOOR}"
        f" (+{f.PURE_BATCH_EXTRA} purer:"
        f" 1 in {f.purer_batch_odds(f.PURE_BATCH_FROM_FLOOR):,} on floor {f.PURE_BATCH_FROM_FLOOR},"
        f" 1 in {f.purer_batch_odds(PURER_FULL):,} from {PURER_FULL}); boosts Con, Nrv, Wil ({f.ATTRIBUTE_MIN}..{f.ATTRIBUTE_MAX}).",
    ),
    (
        "Tolerance",
        f"+{f.tolerance_per_dose(1)} a dose, +{f.tolerance_per_dose(DEEP_TOLERANCE)} from floor"
        f" {DEEP_TOLERANCE} (a Clarity lowers it): each dose gives you less.",
    ),
    ("Confidence", f"every {f.CONFIDENCE_PER_TURN_SHORTER} points shorten a {' or '.join(SHORTENED)} a turn."),
    (
        "Nerve",
        f"at {f.NERVE_PANIC_AT} or less, any monster in sight makes you panic and flee. Out of every"
        f" monster's sight it steadies: +1 every {f.NERVE_STEADY_TURNS}th turn, up to {f.NERVE_STEADY_UP_TO}.",
    ),
    ("Will", f"lowers the Desperation line; at {f.WILL_FOR_EXTRA_ACTION} you act twice a turn."),
    (
        "  the pull",
        f"at Will 1 a dose in sight within {f.irresistible_range(1)} steps, at Will 2 an adjacent"
        " one, pulls you in (its zone tinted, its floor ':').",
    ),
    (
        "Close call",
        f"a dose ending within {f.CLOSE_CALL_MARGIN} of an overdose, or taken at {f.CLOSE_CALL_LOW} or less.",
    ),
    (
        "Monsters",
        f"die to one hit; idle the turn they notice you. More low, and deeper to floor {f.DEPTH_GROWS_TO_FLOOR}.",
    ),
    (
        "Carrying",
        f"g picks up a dose beside you ({f.CARRY_LIMIT} at most; it keeps the Strength of its floor),"
        " q takes one. An Anxiety's hit drops the newest.",
    ),
    (
        "Score",
        f"{f.POINTS_PER_DOSE} a dose, {f.POINTS_PER_CLOSE_CALL} a close call, {f.POINTS_PER_KILL} a kill,"
        f" {f.POINTS_PER_DEPTH} x N for floor N (N at most {f.FLOOR_WORTH_GROWS_TO_FLOOR}), the longest High;"
        " all kept times the share explored.",
    ),
    ("Stairs down", "not always far off: leaving early keeps only the share seen."),
)

# Everything that takes the controls, strongest first (the conditions table).
RULES += (("Taken over", " ".join(f"{c.title}: {c.rules}." for c in CONDITIONS.values())),)

LEGEND: tuple[tuple[str, str], ...] = (("@", "you"), *((row.glyph, row.legend) for row in by_value()))
BAR_LEGEND: tuple[tuple[str, str], ...] = (
    ("^", "on the State of Mind bar: the Desperation line (moves with Will)"),
    ("|", f"on the bar: where Withdrawal ends ({f.WITHDRAWAL_BELOW}) and High begins ({f.HIGH_ABOVE})"),
)
PULL_LEGEND = "tinted floor: from there a dose pulls your weak Will to it"


def dose_lines(kind: DoseKind) -> str:
    """What a kind of dose gives, as ranges."""
    return (
        f"Str {span(kind.strength)} Con {signed_span(kind.confidence)} "
        f"Nrv {signed_span(kind.nerve)} Wil {signed_span(kind.will)}"
    )


def what_it_does(kind: DoseKind | FindKind) -> str:
    """A kind's description without its name: ``Taking it blasts the monsters ...``."""
    text = kind.description.split(": ", 1)[-1]
    return text[:1].upper() + text[1:]


def span(bounds: tuple[int, int]) -> str:
    """``36-56``."""
    return f"{bounds[0]}-{bounds[1]}"


def signed_span(bounds: tuple[int, int]) -> str:
    """``-1..+1``, or ``+0`` for a fixed zero."""
    low, high = bounds
    return f"{low:+d}" if low == high else f"{low:+d}..{high:+d}"


def odds_heading(depth: int, tolerance: int, state_of_mind: int) -> str:
    """The heading of the true figures: where and for whom they hold."""
    odds = f.purer_batch_odds(depth)
    purer = f" (purer 1 in {odds:,})" if odds else ""
    return f"Here, on floor {depth}{purer} at Tolerance {tolerance} and State of Mind {state_of_mind}:"


def odds_text(odds: DoseOdds) -> str:
    """What a kind of dose lying here would give now: ``+43 to +59, a purer batch up to +79; no risk ...``."""
    purer = odds.if_purer(f", a purer batch up to +{odds.purest}")
    return f"+{odds.low} to +{odds.high}{purer}; {odds.risk.value}."


STREAK_TOP = f.HIGH_STREAK_TOP_LEVEL * f.HIGH_STREAK_POINTS
STREAK_PAID = f.high_streak_bonus(2 * f.HIGH_STREAK_STEP)  # the example: a longest High of two milestones
HIGHS: tuple[tuple[str, str], ...] = (
    (
        "High streak",
        f"every turn that ends High (over {f.HIGH_ABOVE}) adds one; a Sober turn pauses it,"
        f" a turn in Withdrawal (under {f.WITHDRAWAL_BELOW}) ends it. The panel shows it: Streak 34 +{STREAK_PAID}.",
    ),
    (
        "  it pays",
        f"your longest does: every {f.HIGH_STREAK_STEP} turns of it, {f.HIGH_STREAK_POINTS} points the"
        f" first time, {2 * f.HIGH_STREAK_POINTS} the second, and so on up to {STREAK_TOP} a time, paid as a streak"
        " goes past the longest before it, as points of the floor you are on: kept by its share explored.",
    ),
    (
        "Finds",
        f"from floor {f.FINDS_FROM_FLOOR} on, things only the High can see lie about: walk onto one"
        " while High to take it. Not High, you cannot see, look at or take them: they are not there.",
    ),
)

DOSE_NOTES = (
    f"Purity is random: Strength is drawn from the range, +{f.DOSE_STRENGTH_PER_FLOOR} a floor below the first"
    f" down to floor {f.DOSE_STRENGTH_GROWS_TO_FLOOR};"
    f" a purer batch, {f.PURE_BATCH_EXTRA} more, is {PURER_ODDS}. Each dose raises Tolerance by {f.tolerance_per_dose(1)},"
    f" by {f.tolerance_per_dose(DEEP_TOLERANCE)} from floor {DEEP_TOLERANCE}.",
)
