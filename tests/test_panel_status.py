"""The panel shows the effects running and the High streak whole, at Will 10 and under any effect.

Beside the bar there are 13 columns (5 once ``Act 1/2`` stands there): what does not fit
whole goes on the message area's first row instead of being cut to ``Co…``.
"""

from __future__ import annotations

import esper
import tcod.console

from bestiary_helpers import arena, set_player
from components import Confused, HighStreak, Stunned
from roguelike.content import formulas
from roguelike.core.game import Game
from roguelike.render.panel import PANEL_TOP, draw_panel


def panel_rows(game: Game) -> list[str]:
    """The panel's four rows as text."""
    console = tcod.console.Console(formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT, order="C")
    draw_panel(console, game)
    return ["".join(chr(c) for c in row).rstrip() for row in console.rgb["ch"][PANEL_TOP:]]


def with_effects(will: int, *effects: object) -> Game:
    """A game at ``will`` with a High streak of 34 turns that paid 180, and these effects running."""
    game = arena()
    set_player(game, state_of_mind=70, will=will)
    game.activate()
    for effect in effects:
        esper.add_component(game.state.player, effect)
    streak = game.player_component(HighStreak)
    streak.turns, streak.best, streak.bonus = 34, 34, 180
    game.refresh_visible()
    return game


def test_at_will_10_with_two_effects_both_and_the_streak_show_whole() -> None:
    text = "\n".join(panel_rows(with_effects(10, Confused(5), Stunned(2))))
    assert "/2 " in text and "Stun 2" in text and "Conf 5" in text and "Streak 34 +180" in text
    assert "…" not in text


def test_one_effect_at_will_10_shows_whole_with_the_streak() -> None:
    rows = panel_rows(with_effects(10, Confused(5)))
    assert "Confused 5 Streak 34 +180" in rows[0]  # the message area's first row
    assert rows[1][24:31] in ("Act 1/2", "Act 2/2") and "…" not in "".join(rows)


def test_with_room_beside_the_bar_they_stay_there() -> None:
    game = with_effects(5)
    streak = game.player_component(HighStreak)
    streak.turns, streak.bonus = 3, 60
    rows = panel_rows(game)
    assert rows[1][18:].startswith("Streak 3 +60") and "Streak" not in rows[0]
