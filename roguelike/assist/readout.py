"""The game told in words: surroundings and condition, for a screen reader (or anyone).

Everything the map shows by place or colour is said here by direction and distance:
the nearest dose, the monsters in sight, the known stairs; and everything the panel
shows: State of Mind with its band, the attributes, the doses carried, who holds the controls.
"""

from __future__ import annotations

from components import ActionPoints, Attributes, HighStreak, Position, StateOfMind, Tolerance
from roguelike.assist.carried import carried_figures
from roguelike.assist.craving import craving
from roguelike.assist.disturb import band, monster_noun
from roguelike.content import formulas
from roguelike.content.doses import DOSE_KINDS, DoseOdds, dose_odds
from roguelike.content.finds import FIND_KINDS
from roguelike.content.terrain import TERRAIN
from roguelike.content.wording import with_article
from roguelike.core.floor import Tile
from roguelike.core.game import Game

COMPASS = {
    (0, -1): "north",
    (0, 1): "south",
    (1, 0): "east",
    (-1, 0): "west",
    (1, -1): "north-east",
    (-1, -1): "north-west",
    (1, 1): "south-east",
    (-1, 1): "south-west",
}


def sign(value: int) -> int:
    """-1, 0 or 1."""
    return (value > 0) - (value < 0)


def direction(dx: int, dy: int) -> str:
    """Where an offset points, in steps: "here", "2 north-east", "3 east and 1 south"."""
    if dx == dy == 0:
        return "here"
    if abs(dx) == abs(dy) or 0 in (dx, dy):
        return f"{max(abs(dx), abs(dy))} {COMPASS[sign(dx), sign(dy)]}"
    return f"{abs(dx)} {COMPASS[sign(dx), 0]} and {abs(dy)} {COMPASS[0, sign(dy)]}"


def surroundings(game: Game) -> str:
    """The nearest known dose, the monsters in sight, the known stairs, the walls that shift in sight
    and (while High) the finds in sight."""
    pos = game.player_component(Position)
    parts = [
        nearest_dose(game, pos),
        monsters_seen(game, pos),
        stairs_known(game, pos),
        walls_seen(game, pos),
        finds_seen(game, pos),
    ]
    return " ".join(part for part in parts if part)


def walls_seen(game: Game, pos: Position) -> str:
    """The nearest wall in sight that shifts with the State of Mind, of each kind, in the terrain table's words."""
    floor, visible = game.state.floor, game.view.visible
    found = []
    for tile, row in TERRAIN.items():
        ys, xs = ((floor.tiles == tile) & visible).nonzero()
        if row.turns_into is not None and len(xs):
            x, y = min(
                zip(xs.tolist(), ys.tolist()), key=lambda spot: (max(abs(spot[0] - pos.x), abs(spot[1] - pos.y)), spot)
            )
            found.append(f"{row.words.rstrip('.')} ({direction(x - pos.x, y - pos.y)})")
    return f"Walls that shift, in sight: {'; '.join(found)}." if found else ""


def finds_seen(game: Game, pos: Position) -> str:
    """The finds in sight, nearest first, with what each does (empty when none, and always when not High)."""
    visible = game.view.visible
    seen = sorted(
        (max(abs(p.x - pos.x), abs(p.y - pos.y)), e, f.kind, p) for e, p, f in game.finds() if visible[p.y, p.x]
    )
    if not seen:
        return ""
    names = [
        f"{FIND_KINDS[kind].name} ({FIND_KINDS[kind].effect()}) {direction(p.x - pos.x, p.y - pos.y)}"
        for _, _, kind, p in seen
    ]
    return "Finds in sight, only while High: " + ", ".join(names) + "."


def nearest_dose(game: Game, pos: Position) -> str:
    """The nearest dose the player knows of (seen, or shown by a Perfect High)."""
    dose_known = game.state.floor.dose_known()
    known = [(max(abs(p.x - pos.x), abs(p.y - pos.y)), e, p, d) for e, p, d in game.doses() if dose_known[p.y, p.x]]
    if not known:
        return "No dose known on this floor."
    _, _, at, dose = min(known, key=lambda t: (t[0], t[1]))
    seen = "in sight" if game.view.visible[at.y, at.x] else "remembered"
    odds = shown_odds(game, dose.kind, dose.floor)
    where = direction(at.x - pos.x, at.y - pos.y)
    return f"Nearest {DOSE_KINDS[dose.kind].name}: {where}, {seen}; {gains_words(odds)}."


def gains_words(odds: DoseOdds) -> str:
    """``+12 to +28 (a purer batch up to +48), no risk of overdose`` (no purer batch where none lie)."""
    purer = odds.if_purer(f" (a purer batch up to +{odds.purest})")
    return f"+{odds.low} to +{odds.high}{purer}, {odds.risk.value}"


def shown_odds(game: Game, kind: str, floor: int | None = None) -> DoseOdds:
    """The true figures of a dose of ``kind`` on the player's floor, now: what look, hover and this
    readout show (and all the ``reader`` bot goes by)."""
    som = game.player_component(StateOfMind).value
    tolerance = game.player_component(Tolerance).value
    # A dose keeps the Strength of the floor it was found on (carried or dropped elsewhere).
    return dose_odds(DOSE_KINDS[kind], game.state.depth if floor is None else floor, som, tolerance)


def monsters_seen(game: Game, pos: Position) -> str:
    """Every monster in sight, nearest first."""
    visible = game.view.visible
    seen = sorted(
        (max(abs(p.x - pos.x), abs(p.y - pos.y)), e, m.kind, p) for e, m, p in game.monsters() if visible[p.y, p.x]
    )
    if not seen:
        return "No monster in sight."
    names = [f"{monster_noun(kind)} {direction(p.x - pos.x, p.y - pos.y)}" for _, _, kind, p in seen]
    return "In sight: " + ", ".join(names) + "."


def stairs_known(game: Game, pos: Position) -> str:
    """The stairs of this floor the player has seen."""
    floor = game.state.floor
    found = []
    for tile, name in ((Tile.STAIRS_DOWN, "Stairs down"), (Tile.STAIRS_UP, "Stairs up")):
        ys, xs = ((floor.tiles == tile) & floor.explored).nonzero()
        if len(xs):
            found.append(f"{name}: {direction(int(xs[0]) - pos.x, int(ys[0]) - pos.y)}.")
    return " ".join(found) or "No stairs known."


def next_action(game: Game) -> tuple[int, int] | None:
    """Which of its actions this turn the player's next one is, at Will 10: ``(1, 2)`` means the
    monsters wait after it, ``(2, 2)`` that they act (None: one action a turn)."""
    per_turn = formulas.action_points(game.player_component(Attributes).will)
    points = game.player_component_or_none(ActionPoints)
    if per_turn < 2 or points is None:
        return None
    return per_turn - formulas.clamp(points.remaining, 1, per_turn) + 1, per_turn


def next_action_words(game: Game) -> str:
    """The Will 10 mark in words: "First of two actions: the monsters wait." (empty below Will 10)."""
    mark = next_action(game)
    if mark is None:
        return ""
    return ACTION_WORDS[mark[0] == mark[1]]


ACTION_WORDS = {
    False: "First of your two actions: the monsters wait.",
    True: "Second of your two actions: the monsters act after it.",
}


def streak_words(streak: HighStreak) -> str:
    """The High streak in words, with a trailing space (empty before the first High)."""
    if not (streak.turns or streak.bonus):
        return ""
    return f"High streak {streak.turns} turns; longest {streak.best}, {streak.bonus} points. "


def condition(game: Game) -> str:
    """State of Mind and its band, attributes, floor and turn, and who has the controls."""
    som = game.player_component(StateOfMind).value
    attrs = game.player_component(Attributes)
    tolerance = game.player_component(Tolerance).value
    desperate_at = formulas.desperation_threshold(attrs.will)
    control = game.control_reason() or "You are in control."
    found = craving(game)
    warning = found.warning() if found is not None else None
    control += f" {warning}" if warning else ""
    return (
        f"State of Mind {som} of {formulas.STATE_OF_MIND_MAX}, {band(som, attrs.will)}; "
        f"Desperate at {desperate_at}. Confidence {attrs.confidence}, Nerve {attrs.nerve}, "
        f"Will {attrs.will}, Tolerance {tolerance}. Floor {game.state.depth}, turn {game.state.turn}. "
        f"{streak_words(game.player_component(HighStreak))}{carried_words(game)} {control}"
        + (f" {next_action_words(game)}" if next_action(game) else "")
    )


def carried_words(game: Game) -> str:
    """``Carrying 2 of 3: 1, a small dose from floor 3, +12 to +28 (...), no risk of overdose; 2, ...``"""
    figures = carried_figures(game)
    if not figures:
        return "Carrying no dose."
    said = [
        f"{number}, {with_article(DOSE_KINDS[dose.kind].name)} from floor {dose.floor}, {gains_words(odds)}"
        for number, (dose, odds) in enumerate(figures, start=1)
    ]
    return f"Carrying {len(figures)} of {formulas.CARRY_LIMIT}: {'; '.join(said)}."
