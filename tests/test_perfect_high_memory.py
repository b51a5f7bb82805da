"""What a Perfect High reveals stays remembered on the map afterwards (issue 23)."""

from __future__ import annotations

from components import StateOfMind
from roguelike.content import formulas
from roguelike.content.doses import DOSE_KINDS
from roguelike.core.game import Game
from roguelike.render.screenshot import game_console


def unexplored_doses(game: Game) -> list[tuple[int, int, str]]:
    """Doses on tiles the player has never seen: (x, y, glyph)."""
    explored = game.state.floor.explored
    return [(p.x, p.y, DOSE_KINDS[d.kind].glyph) for _, p, d in game.doses() if not explored[p.y, p.x]]


def drawn_at(game: Game, spots: list[tuple[int, int, str]]) -> list[bool]:
    """Whether each spot shows its glyph on the in-game screen now."""
    console = game_console(game)
    return [chr(console.rgb["ch"][y, x]) == glyph for x, y, glyph in spots]


def test_doses_shown_by_a_perfect_high_stay_on_the_map_once_it_ends() -> None:
    game = Game.new(5, "Ida")
    hidden = unexplored_doses(game)
    assert hidden, "the seed's first floor has doses out of sight"
    assert not any(drawn_at(game, hidden))
    som = game.player_component(StateOfMind)
    som.value = formulas.STATE_OF_MIND_MAX - 1  # the Perfect High
    assert all(drawn_at(game, hidden))
    som.value = 50
    assert all(drawn_at(game, hidden))  # remembered, as explored doses are
    game.close()


def test_a_game_that_never_reached_the_perfect_high_remembers_nothing_unseen() -> None:
    game = Game.new(5, "Ida")
    hidden = unexplored_doses(game)
    game.player_component(StateOfMind).value = 90
    assert not any(drawn_at(game, hidden))
    game.close()
