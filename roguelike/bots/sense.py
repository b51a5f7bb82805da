"""What a player can know, for the bots: the doses they have seen and what each might do.

Bots see only what the screen shows a player: doses on tiles they have explored or a Perfect High showed them, the
kind of each (its glyph), the ranges of each kind (the help and README give them), the
depth, their own State of Mind, Tolerance and Will. Never a dose's hidden purity.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from components import StateOfMind, Tolerance, Vision
from roguelike.content import formulas
from roguelike.content.doses import DOSE_KINDS
from roguelike.core.game import Game
from roguelike.core.world import doses_on_floor

Mask = NDArray[np.bool_]


@dataclass(frozen=True)
class KnownDose:
    """A dose the player has seen: where it lies and the most it could give."""

    x: int
    y: int
    kind: str
    most: int
    floor: int = 1  # the floor it was found on, which its figures are worked out at
    vision: bool = False  # it shimmers: there only while the player is High


def known_doses(game: Game) -> list[KnownDose]:
    """Every dose of this floor the player knows of (explored, or shown by a Perfect High), with its worst-case gain."""
    game.activate()
    known = game.state.floor.dose_known()
    tolerance = game.player_component(Tolerance).value
    return [
        KnownDose(
            pos.x, pos.y, dose.kind, most_gain(dose.kind, dose.floor, tolerance), dose.floor, is_vision(game, entity)
        )
        for entity, pos, dose in doses_on_floor()
        if known[pos.y, pos.x]
    ]


def is_vision(game: Game, entity: int) -> bool:
    """Whether a dose is a vision (the map draws it shimmering), there only while the player is High."""
    return game.world.has(entity, Vision)


def finds_in_sight(game: Game) -> list[tuple[int, int]]:
    """Where the finds the player sees lie (only ever while High: otherwise the screen shows none)."""
    visible = game.view.visible
    return [(pos.x, pos.y) for _, pos, _ in game.finds() if visible[pos.y, pos.x]]


def most_gain(kind: str, depth: int, tolerance: int) -> int:
    """The most State of Mind a dose of this kind could give here, as usual (a purer batch gives more)."""
    strongest = DOSE_KINDS[kind].strength[1] + formulas.dose_strength_bonus(depth)
    return formulas.dose_gain(strongest, tolerance)


def is_safe(dose: KnownDose, state_of_mind: int) -> bool:
    """The strongest usual dose of its kind would not overdose the player now (a purer batch still could)."""
    return not formulas.is_overdose(state_of_mind + dose.most)


def mask_of(shape: tuple[int, ...], doses: list[KnownDose]) -> Mask:
    """The doses' tiles as a ``[y, x]`` mask."""
    mask = np.zeros(shape, dtype=bool)
    for dose in doses:
        mask[dose.y, dose.x] = True
    return mask


def state_of_mind(game: Game) -> int:
    """The player's State of Mind, as the panel shows it."""
    return game.player_component(StateOfMind).value
