"""The careful bot's pocket: one dose carried as insurance, taken when low with no safe dose near.

It picks up a dose it would not take now (it could overdose the player now) that will be
safe when it is needed (the strongest usual draw of it cannot overdose the player at the
Desperation line), while it does not need one (State of Mind at least ``COMFORT``), and
before leaving a floor it fetches such a dose if it carries none. It takes its carried dose
(only one that not even a purer batch could overdose with) within ``TAKE_MARGIN`` of the
Desperation line when no known safe dose lies nearer than the turns it has left. It reads
only what the panel shows: the carried doses' true figures (:mod:`roguelike.assist.carried`)
and the doses it has seen.
"""

from __future__ import annotations

import numpy as np

from components import Attributes, Position, Tolerance
from roguelike.assist.carried import carried_figures, doses_beside
from roguelike.bots.sense import KnownDose, Mask, is_safe, most_gain, state_of_mind
from roguelike.content import formulas
from roguelike.core.commands import Command, PickUp, TakeCarried
from roguelike.core.floor import GROUND
from roguelike.core.game import Game

INSURANCE = 1  # doses the careful bot carries at once
COMFORT = 40  # it picks one up only at or above this State of Mind: it does not need it now
TAKE_MARGIN = 2  # it takes its carried dose this near the Desperation line (at it, the takeover would)


def pocket_command(game: Game, doses: list[KnownDose], keep: int = INSURANCE) -> Command | None:
    """Take the carried dose, pick one up (up to ``keep`` carried), or None (the plan goes on)."""
    figures = carried_figures(game)
    som = state_of_mind(game)
    line = formulas.desperation_threshold(game.player_component(Attributes).will)
    if figures and som <= line + TAKE_MARGIN and not safe_dose_near(game, doses, som - line):
        safest = min(range(len(figures)), key=lambda index: (figures[index][1].purest, index))
        if not figures[safest][1].could_kill:
            return TakeCarried(safest)
    if len(figures) < keep and som >= COMFORT:
        for step, dose in doses_beside(game):
            if is_insurance(game, dose.kind, dose.floor):
                return PickUp(*step)
    return None


def is_insurance(game: Game, kind: str, floor: int) -> bool:
    """Whether a dose is worth carrying: the strongest of its kind could overdose the player now
    (else the plan takes it, as the careful bot judges doses), yet not at the Desperation line,
    where it will be needed."""
    line = formulas.desperation_threshold(game.player_component(Attributes).will)
    most = most_gain(kind, floor, game.player_component(Tolerance).value)
    return formulas.is_overdose(state_of_mind(game) + most) and not formulas.is_overdose(line + 1 + most)


def safe_dose_near(game: Game, doses: list[KnownDose], turns: int) -> bool:
    """Whether a known dose safe now lies within ``turns`` steps as the crow flies."""
    pos = game.player_component(Position)
    som = state_of_mind(game)
    return any(max(abs(d.x - pos.x), abs(d.y - pos.y)) <= turns and is_safe(d, som) for d in doses)


def wants_insurance(game: Game, keep: int = INSURANCE) -> bool:
    """Whether the bot carries fewer than ``keep`` doses."""
    return len(carried_figures(game)) < keep


def beside_insurance(game: Game, doses: list[KnownDose]) -> Mask:
    """Open floor next to the known doses that would make good insurance (where a pick-up reaches them)."""
    return beside(game, [dose for dose in doses if is_insurance(game, dose.kind, dose.floor)])


def beside(game: Game, doses: list[KnownDose]) -> Mask:
    """Open floor next to ``doses`` (where a pick-up reaches them), the doses' own tiles left out."""
    tiles = game.state.floor.tiles
    mask = np.zeros(tiles.shape, dtype=bool)
    for dose in doses:
        mask[max(0, dose.y - 1) : dose.y + 2, max(0, dose.x - 1) : dose.x + 2] = True
    for dose in doses:
        mask[dose.y, dose.x] = False
    open_floor: Mask = mask & GROUND[tiles]
    return open_floor
