"""What a Perfect High reveals stays remembered afterwards, in the game's memory of each floor
(issue 23): drawn, listed, described, travelled to, known to automation and the bots, and saved."""

from __future__ import annotations

from pathlib import Path

from components import Position, StateOfMind
from roguelike.assist.autoexplore import known_doses
from roguelike.assist.disturb import Sightings, disturbances, observe
from roguelike.assist.readout import nearest_dose, shown_odds
from roguelike.bots.reader import shown_doses
from roguelike.content import formulas
from roguelike.content.doses import DOSE_KINDS
from roguelike.core.commands import Wait, Wizard
from roguelike.core.game import Game
from roguelike.core.snapshot import encode, from_plain, to_plain
from roguelike.render.look import DEFAULT_LOOK
from roguelike.render.screenshot import game_console
from roguelike.saves import Games, load_save, read_save, settle
from roguelike.saves.upgrade import FORMAT_VERSION
from roguelike.screens.look import describe
from roguelike.screens.sidebar import REMEMBERED, in_view_words, listed, sidebar_rows

Spot = tuple[int, int, str]
REPOSITORY_SAVES = Path(__file__).resolve().parent.parent / "saves"


def unexplored_doses(game: Game) -> list[Spot]:
    """Doses on tiles the player has never seen: (x, y, glyph)."""
    explored = game.state.floor.explored
    return [(p.x, p.y, DOSE_KINDS[d.kind].glyph) for _, p, d in game.doses() if not explored[p.y, p.x]]


def drawn_at(game: Game, spots: list[Spot]) -> list[bool]:
    """Whether each spot shows its glyph on the in-game screen now."""
    console = game_console(game)
    return [chr(console.rgb["ch"][y, x]) == glyph for x, y, glyph in spots]


def at_the_perfect_high(game: Game) -> None:
    """Up to the Perfect High, and an action lived there (a wizard's change takes no time)."""
    game.apply(Wizard("mind", value=formulas.STATE_OF_MIND_MAX - 1))
    game.apply(Wait())
    assert formulas.is_perfect_high(game.player_component(StateOfMind).value)


def after_a_perfect_high(game: Game) -> None:
    """Up to the Perfect High for an action, then back down to 50."""
    at_the_perfect_high(game)
    game.apply(Wizard("mind", value=50))


def test_doses_shown_by_a_perfect_high_stay_on_the_map_once_it_ends() -> None:
    game = Game.new(5, "Ida")
    hidden = unexplored_doses(game)
    assert hidden, "the seed's first floor has doses out of sight"
    assert not any(drawn_at(game, hidden))
    at_the_perfect_high(game)
    assert all(drawn_at(game, hidden))
    game.apply(Wizard("mind", value=50))
    assert all(drawn_at(game, hidden))  # remembered, as explored doses are
    assert not any(game.state.floor.explored[y, x] for x, y, _ in hidden)  # the tiles stay unexplored
    game.close()


def test_a_game_that_never_reached_the_perfect_high_remembers_nothing_unseen() -> None:
    game = Game.new(5, "Ida")
    hidden = unexplored_doses(game)
    game.apply(Wizard("mind", value=90))
    game.apply(Wait())
    game.apply(Wizard("mind", value=50))
    assert not any(drawn_at(game, hidden))
    assert not game.state.floor.revealed.any()
    assert not any(describe(game, (x, y))[0][0].startswith(DOSE_KINDS_NAMES) for x, y, _ in hidden)
    game.close()


DOSE_KINDS_NAMES = tuple(kind.name.capitalize() for kind in DOSE_KINDS.values())


def test_every_place_that_knows_a_dose_knows_a_revealed_one() -> None:
    game = Game.new(5, "Ida")
    hidden = unexplored_doses(game)
    after_a_perfect_high(game)
    x, y, _ = hidden[0]
    assert describe(game, (x, y))[0][0].startswith(DOSE_KINDS_NAMES)  # look and hover
    assert all(known_doses(game)[y, x] for x, y, _ in hidden)  # travel, auto-explore, the reserve
    assert {(d.x, d.y) for d in shown_doses(game)} >= {(x, y) for x, y, _ in hidden}  # the reader bot
    assert {entry.at for entry in listed(game) if entry.remembered} >= {(x, y) for x, y, _ in hidden}
    assert f"{REMEMBERED}: " in in_view_words(game)
    dose = next(d for _, p, d in game.doses() if (p.x, p.y) == (x, y))
    odds = shown_odds(game, dose.kind, dose.floor)
    assert f"+{odds.low}..+{odds.high}" in " ".join(line for entry in listed(game) for line, _ in entry.lines)
    assert "No dose known" not in nearest_dose(game, game.player_component(Position))
    game.close()


def test_a_revealed_dose_coming_into_view_is_no_news_to_automation() -> None:
    game = Game.new(5, "Ida")
    after_a_perfect_high(game)
    before = observe(game)
    (entity, place), *_ = [
        (e, (DOSE_KINDS[d.kind].name, p.x, p.y))
        for e, p, d in game.doses()
        if game.state.floor.revealed[p.y, p.x] and not game.view.visible[p.y, p.x]
    ]
    after = observe(game)
    after.doses[entity] = place  # as if it had just come into view
    assert not [i for i in disturbances(before, after, game, seen=Sightings()) if "You see" in i.text]
    game.close()


def test_the_revealed_doses_survive_save_and_resume(tmp_path: Path) -> None:
    games = Games(tmp_path, seed=5)
    session = games.new("Ida")
    hidden = unexplored_doses(session.game)
    session.apply(Wizard("mind", value=formulas.STATE_OF_MIND_MAX - 1))
    session.apply(Wait())  # an action lived at the Perfect High, autosaved
    assert formulas.is_perfect_high(session.game.player_component(StateOfMind).value)
    settle(session)
    session.close()  # saved at the Perfect High
    (path,) = (tmp_path / "saves").glob("*.save")
    resumed = Games(tmp_path).resume(path)
    resumed.apply(Wizard("mind", value=50))  # the High falls back after resuming
    resumed.apply(Wait())
    game = resumed.game
    assert all(drawn_at(game, hidden))
    assert {entry.at for entry in listed(game) if entry.remembered} >= {(x, y) for x, y, _ in hidden}
    assert all(describe(game, (x, y))[0][0].startswith(DOSE_KINDS_NAMES) for x, y, _ in hidden)
    resumed.close()


def test_an_old_save_upgraded_has_nothing_revealed_and_plays_on() -> None:
    old = read_save(REPOSITORY_SAVES / "v12.save")
    assert old.version == 12
    plain = old.plain  # read_save brings it up to today's format
    assert all(floor["revealed"] == bytes(len(floor["explored"])) for floor in plain["floors"])
    assert list(plain["floors"][0])[:5] == ["depth", "shape", "tiles", "explored", "revealed"]
    game = load_save(REPOSITORY_SAVES / "v12.save")
    assert not any(floor.revealed.any() for floor in game.state.floors.values())
    assert encode(to_plain(from_plain(plain))) == encode(to_plain(game))
    game.apply(Wait())
    game.close()


def test_the_format_13_fixture_remembers_doses_a_perfect_high_revealed() -> None:
    fixture = read_save(REPOSITORY_SAVES / "v13.save")
    assert fixture.version == 13 <= FORMAT_VERSION
    game = load_save(REPOSITORY_SAVES / "v13.save")
    floor = game.state.floor
    assert not formulas.is_perfect_high(game.player_component(StateOfMind).value)  # the High fell back
    out_of_sight = [(p.x, p.y) for _, p, _ in game.doses() if floor.revealed[p.y, p.x] and not floor.explored[p.y, p.x]]
    assert out_of_sight, "the fixture was saved after a Perfect High showed doses it had not explored"
    game.apply(Wait())
    game.close()


def test_the_list_says_where_each_remembered_dose_lies() -> None:
    # Out of sight, the map cannot point a remembered dose out: its entry says where it is.
    game = Game.new(5, "Ida")
    after_a_perfect_high(game)
    rows = sidebar_rows(game, 30, DEFAULT_LOOK.scheme)
    remembered = [entry for entry in listed(game) if entry.remembered]
    assert remembered
    for entry in remembered:
        texts = ["".join(text for text, _ in row).strip() for row, owner in rows if owner == entry]
        assert texts[1] == entry.where  # under its name, before its figures
    game.close()
