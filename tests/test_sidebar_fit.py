"""The in-view list says where each dose in view lies, and what it cannot fit it counts truly."""

from __future__ import annotations

from bestiary_helpers import add_monster, arena
from components import Dose, Position
from helpers import add_dose
from roguelike.content.doses import NORMAL_DOSE
from roguelike.render.colours import CLASSIC
from roguelike.screens.sidebar import fitted_rows, in_view, listed, sidebar_lines


def texts(rows: list[list[tuple[str, tuple[int, int, int]]]]) -> list[str]:
    """Each row's text."""
    return ["".join(text for text, _ in row) for row in rows]


def test_a_dose_in_view_says_its_direction_and_steps_like_a_remembered_one() -> None:
    game = arena()
    pos = game.player_component(Position)
    add_dose(pos.x + 3, pos.y - 2, Dose(NORMAL_DOSE.key, 40, 0, 0, 0))
    game.refresh_visible()
    assert [entry.name for entry in in_view(game)] == ["Dose"]
    assert "  3 east and 2 north" in texts(sidebar_lines(game, 30, CLASSIC))


def test_a_list_too_long_counts_the_things_left_out_and_never_cuts_one_in_two() -> None:
    game = arena()
    pos = game.player_component(Position)
    for step in range(1, 5):
        add_monster(game, "hunger", pos.x - step, pos.y)
        add_dose(pos.x + step, pos.y + 1, Dose(NORMAL_DOSE.key, 40, 0, 0, 0))
    game.refresh_visible()
    every = len(listed(game))
    full = fitted_rows(game, 23, 99, CLASSIC)
    for height in range(4, 30):
        rows = fitted_rows(game, 23, height, CLASSIC)
        assert len(rows) <= height
        shown = {entry for _, entry in rows if entry is not None}
        for entry in shown:  # listed whole: every row it has in the whole list
            assert sum(1 for _, owner in rows if owner == entry) == sum(1 for _, owner in full if owner == entry)
        last = texts([row for row, _ in rows])[-1]
        if len(rows) < len(full):
            assert last == f"{every - len(shown)} more: V reads all" and every - len(shown) > 0
