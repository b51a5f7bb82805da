"""What the game tells the player as it happens: doses, first sightings, Desperation; the chart."""

from __future__ import annotations

from pathlib import Path

from bestiary_helpers import add_monster, arena, messages, set_player
from components import Attributes, Dose
from helpers import drawn_game
from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.content.doses import SMALL_DOSE
from roguelike.core.commands import Move, Wait
from roguelike.core.snapshot import from_plain, to_plain
from roguelike.saves.savefile import load_save, save_game
from roguelike.saves.upgrade import UPGRADES


def test_a_dose_message_names_every_change() -> None:
    game = drawn_game(["@i."], dose=Dose(SMALL_DOSE.key, 46, 1, 0, -1))
    game.apply(Move(1, 0))
    assert messages(game)[-1] == "You take the small dose: +46 State of Mind; Confidence +1, Will -1; Tolerance 1."


def test_a_dose_message_leaves_out_boosts_the_bounds_swallowed() -> None:
    game = drawn_game(["@i."], dose=Dose(SMALL_DOSE.key, 30, 2, 0, 0))
    game.player_component(Attributes).confidence = 10
    game.apply(Move(1, 0))
    assert messages(game)[-1] == "You take the small dose: +30 State of Mind; Tolerance 1."


def test_the_first_monster_of_a_kind_is_introduced_once() -> None:
    game = arena()
    add_monster(game, "depression", 2, 1)
    add_monster(game, "depression", 14, 7)
    game.apply(Wait())
    game.apply(Wait())
    said = [text for text in messages(game) if text == MONSTER_KINDS["depression"].sighting]
    assert said == ["A Depression (D) looms: it moves twice a turn, and its touch kills."]


def test_every_kind_has_a_sighting_a_hit_summary_and_a_way_of_moving() -> None:
    for kind in MONSTER_KINDS.values():
        assert f"({kind.glyph})" in kind.sighting and kind.hit_summary and kind.moves


def test_the_log_says_when_desperation_begins_and_ends() -> None:
    game = drawn_game(["@.......i"])
    set_player(game, state_of_mind=16, will=5)
    game.apply(Wait())
    assert messages(game)[-1].startswith("You are Desperate (State of Mind 15, at or below 15)")
    for _ in range(8):
        game.apply(Wait())
    assert "The craving loosens its grip: the controls are yours." in messages(game)


def test_the_chart_holds_every_turn_doses_and_floors_and_survives_a_save(tmp_path: Path) -> None:
    game = drawn_game(["@.i"], dose=Dose(SMALL_DOSE.key, 30, 0, 0, 0))
    game.apply(Move(1, 0))
    game.apply(Move(1, 0))
    chart = game.state.chart
    assert list(chart.values) == [20, 19, 19 + 30 - 1]
    assert chart.doses == [2] and chart.floors == [(0, 1)]
    save_game(tmp_path / "a.save", game)
    loaded = load_save(tmp_path / "a.save").state.chart
    assert list(loaded.values) == list(chart.values) and loaded.doses == [2]
    assert list(from_plain(to_plain(game)).state.chart.values) == [20, 19, 48]


def test_an_old_save_starts_its_chart_where_it_is_upgraded() -> None:
    game = drawn_game(["@.."])
    for _ in range(3):
        game.apply(Wait())
    # a format-3 snapshot: the same, before there was a chart
    old: dict[str, object] = {key: value for key, value in to_plain(game).items() if key != "chart"}
    upgraded = UPGRADES[3](old)
    chart = from_plain(upgraded).state.chart
    assert chart.start == 3 and list(chart.values) == [17] and chart.floors == [(3, 1)]


def test_a_record_keeps_the_monsters_met_and_the_chart_and_old_records_still_read(tmp_path: Path) -> None:
    from dataclasses import asdict

    from roguelike.core.snapshot import encode
    from roguelike.saves.container import RECORD_MAGIC, seal
    from roguelike.saves.history import read_record, record_of, write_record

    game = arena()
    add_monster(game, "regret", 9, 4)
    game.apply(Wait())
    record = record_of(game, died_at=5)
    write_record(tmp_path / "new.record", record)
    read = read_record(tmp_path / "new.record")
    assert read.met == {"regret": 1} and list(read.life.values) == [20, 59]
    old = {k: v for k, v in asdict(record).items() if k not in ("met", "slain", "chart", "origin")}
    (tmp_path / "old.record").write_bytes(seal(RECORD_MAGIC, 1, encode({}), encode(old)))
    read_old = read_record(tmp_path / "old.record")
    assert read_old.met == {} and len(read_old.life.values) == 0 and read_old.turns == record.turns
