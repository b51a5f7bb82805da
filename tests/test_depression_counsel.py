"""The Depression's parity rule is true, and taught in its own words wherever the Depression is described.

Two steps a turn: a hunting Depression two steps away steps beside the player and strikes
in the same turn; three steps away, its second step only stops beside the player, who
strikes first. "Let it come to you" was wrong at two steps.
"""

from __future__ import annotations

from bestiary_helpers import add_monster, arena, where
from components import Position
from conftest import ROOT
from roguelike.content.bestiary import DEPRESSION_COUNSEL, MONSTER_KINDS
from roguelike.content.formulas import SCREEN_HEIGHT
from roguelike.content.tips import tip_for
from roguelike.core.commands import Move, Wait
from roguelike.core.game import Game
from roguelike.render.panel import PANEL_TOP
from roguelike.screens.look import LookScreen, box_top
from save_helpers import screen_rows

DEPRESSION = MONSTER_KINDS["depression"]
OLD_MOTTO = "let it come to you"


def hunted_from(steps: int) -> tuple[Game, int]:
    """An arena with a Depression hunting the player from ``steps`` steps east."""
    game = arena()
    pos = game.player_component(Position)
    return game, add_monster(game, "depression", pos.x + steps, pos.y, hunting=True)


def test_a_hunting_depression_two_steps_away_strikes_in_the_same_turn() -> None:
    game, _ = hunted_from(2)
    game.apply(Wait())
    assert game.state.game_over and game.state.cause_of_death == "depression"


def test_three_steps_away_its_second_step_stops_beside_you_and_you_strike_first() -> None:
    game, depression = hunted_from(3)
    game.apply(Wait())
    pos = game.player_component(Position)
    assert not game.state.game_over and where(game, depression) == (pos.x + 1, pos.y)
    game.apply(Move(1, 0))
    assert not game.state.game_over and depression not in [entity for entity, _, _ in game.monsters()]


def test_the_rule_is_in_the_bestiary_help_and_the_death_tip() -> None:
    assert DEPRESSION_COUNSEL in DEPRESSION.moves
    assert DEPRESSION_COUNSEL[1:] in tip_for("depression")


def test_the_manual_and_the_bestiary_page_teach_the_rule_and_no_longer_the_old_motto() -> None:
    manual = "".join(path.read_text(encoding="utf-8") for path in (ROOT / "README.md", ROOT / "docs" / "manual.md"))
    assert f"| `D` Depression | kills | {DEPRESSION.moves} |" in manual  # the monster table
    assert DEPRESSION_COUNSEL[1:] in (ROOT / "docs" / "bestiary.md").read_text(encoding="utf-8")
    described = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "roguelike").rglob("*.py"))]
    assert [path.name for path in described if OLD_MOTTO in path.read_text(encoding="utf-8").lower()] == []


def test_look_shows_the_depression_whole_wrapped_not_cut() -> None:
    game, _ = hunted_from(4)
    look = LookScreen(game)
    look.jump(1)
    rows = screen_rows(look)
    box = " ".join(row[32:].strip() for row in rows if row[32:].strip())
    assert f"{DEPRESSION.moves[0].upper()}{DEPRESSION.moves[1:]}." in box
    assert "It has noticed you and hunts you." in box and not any(row.endswith("…") for row in rows)


def test_the_look_box_grows_over_the_map_but_never_over_the_cursor() -> None:
    assert box_top(3, (70, 20)) == PANEL_TOP  # the message area holds it
    assert box_top(6, (10, 20)) == SCREEN_HEIGHT - 6  # grown up over the map's last rows
    assert box_top(6, (70, 20)) == 0  # the cursor is there: at the top of the screen instead
