"""Single-hitpoint combat: bumping kills, kills are counted, slain Anxieties give back Will."""

from __future__ import annotations

import pytest

from bestiary_helpers import add_monster, arena, exists, messages, set_player, where
from components import Attributes, Bestiary, Dose, Record
from helpers import add_dose, dose_positions, player_xy
from roguelike.content import formulas
from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.content.doses import NORMAL_DOSE
from roguelike.core.commands import Move, Wait


@pytest.mark.parametrize("kind", sorted(MONSTER_KINDS))
def test_bumping_a_monster_kills_it_with_one_hit(kind: str) -> None:
    game = arena()
    monster = add_monster(game, kind, 9, 4)
    game.apply(Move(1, 0))
    assert not exists(game, monster)
    assert player_xy(game) == (8, 4)  # the blow, not a step
    assert game.player_component(Record).kills == 1
    assert game.player_component(Bestiary).slain == {kind: 1}
    assert f"You slay the {MONSTER_KINDS[kind].name}." in messages(game)


def test_striking_first_means_the_monster_never_hits() -> None:
    game = arena()
    add_monster(game, "depression", 9, 4, hunting=True)
    game.apply(Move(1, 0))
    assert not game.state.game_over


def test_a_monster_hits_by_bumping_and_the_hit_is_recorded() -> None:
    game = arena()
    add_monster(game, "hunger", 9, 4, hunting=True)
    game.apply(Wait())
    game.apply(Wait())
    assert game.player_component(Bestiary).suffered == {"drained": 2}


def test_a_monster_standing_on_a_dose_is_hit_and_the_dose_left_alone() -> None:
    game = arena()
    add_dose(9, 4, Dose(NORMAL_DOSE.key, 30, 0, 0, 0))
    anxiety = add_monster(game, "anxiety", 9, 4)
    game.apply(Move(1, 0))
    assert not exists(game, anxiety)
    assert dose_positions(game) == [(9, 4)]


def test_every_few_slain_anxieties_give_back_a_point_of_will() -> None:
    game = arena()
    wills = []
    for _ in range(2 * formulas.ANXIETIES_PER_WILL):
        set_player(game, state_of_mind=60)
        add_monster(game, "anxiety", 9, 4)
        game.apply(Move(1, 0))
        wills.append(game.player_component(Attributes).will)
    start, every = formulas.ATTRIBUTE_START, formulas.ANXIETIES_PER_WILL
    assert wills == [start] * (every - 1) + [start + 1] * every + [start + 2]
    assert f"{every} Anxieties slain: your Will grows." in messages(game)


def test_slaying_other_monsters_gives_no_will() -> None:
    game = arena()
    for _ in range(formulas.ANXIETIES_PER_WILL):
        set_player(game, state_of_mind=60)
        add_monster(game, "hunger", 9, 4)
        game.apply(Move(1, 0))
    assert game.player_component(Attributes).will == formulas.ATTRIBUTE_START


def test_monsters_block_each_other_and_cannot_share_a_tile() -> None:
    rows = ["#########", "#@......#", "#########"]
    game = arena(rows)
    set_player(game, state_of_mind=95)
    hunters = [add_monster(game, "anxiety", x, 1, hunting=True) for x in (5, 6, 7)]
    for _ in range(3):
        set_player(game, state_of_mind=95)
        game.apply(Wait())
    spots = [where(game, h) for h in hunters]
    assert len(set(spots)) == 3 and spots[0] == (2, 1)
