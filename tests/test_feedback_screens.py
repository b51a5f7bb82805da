"""Every screen of issue 11 drawn and read back: help, look, panel, pull zone, death, stats, log."""

from __future__ import annotations

import re
from pathlib import Path

import esper
import numpy as np
import pytest
import tcod.console
from tcod.event import KeySym, Modifier

from bestiary_helpers import add_monster, arena, set_player
from components import Dose, FindsTaken, HighStreak, Monster, Stunned
from helpers import add_dose
from roguelike.assist.pullzone import pull_zone_in_sight
from roguelike.cli.main import main
from roguelike.content import formulas
from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.content.doses import LARGE_DOSE, NORMAL_DOSE, SMALL_DOSE
from roguelike.content.finds import FIND_KINDS
from roguelike.core.commands import Wait
from roguelike.core.session import Session
from roguelike.render.colours import CLASSIC, Slot
from roguelike.render.screenshot import game_console
from roguelike.saves import Games
from roguelike.saves.history import record_of, write_record
from roguelike.screens.base import App, Pop, Push, Replace
from roguelike.screens.death import DyingScreen, RecordScreen
from roguelike.screens.help import HelpScreen, Known
from roguelike.screens.ingame import InGameScreen
from roguelike.screens.look import LookScreen
from roguelike.screens.messages import MessageLogScreen
from roguelike.screens.stats import StatsScreen
from roguelike.screens.title import TitleScreen
from roguelike.storage.datadir import DataDir
from save_helpers import key, screen_rows, screen_text


def console_rows(console: tcod.console.Console) -> list[str]:
    """A console's characters as lines."""
    return ["".join(chr(c) for c in row).rstrip() for row in console.rgb["ch"]]


def test_help_pages_turn_with_the_arrows_and_tab_and_cover_every_topic() -> None:
    screen = HelpScreen(Known(frozenset({"hunger"}), tolerance=4, depth=6, state_of_mind=30))
    texts: dict[str, str] = {}  # each topic's parts, read one after another
    while not texts or screen.index != 0:  # every page once, a page in parts (Controls 1/2) included
        topic = screen.title.split(" ")[0]
        texts[topic] = texts.get(topic, "") + screen_text(screen)
        screen.on_event(key(KeySym.RIGHT))
    assert list(texts) == ["Controls", "Rules", "Bestiary", "Doses", "Highs", "Legend"]
    screen.on_event(key(KeySym.TAB, Modifier.SHIFT))
    assert screen.title.startswith("Legend")
    controls, rules, bestiary, doses, highs, legend = texts.values()
    assert "x or ;" in controls and "Alt+Enter" in controls
    for words in ("Desperate <= 20 - Will", "Tolerance", "Confidence", "Nerve", "the pull", "Close call"):
        assert words in rules
    assert "Hunger" in bestiary and "drains 5 State of Mind" in bestiary and "Depression" not in bestiary
    assert bestiary.count("(not met yet)") == len(MONSTER_KINDS) - 1
    # The true figures where the player is: floor 6 adds 15 Strength, a purer batch 20 more.
    assert "+47 to +67, a purer batch up to +87; a purer batch COULD kill." in doses
    # The purer batch's odds climb with depth, and the heading gives this floor's.
    assert "+3 a floor to 20 (+20 purer: 1 in 1,050" in rules and "on floor 3, 1 in 150 from 9)" in rules
    assert "Here, on floor 6 (purer 1 in 262) at Tolerance 4" in doses
    for glyph_line in (
        "+  closed door",
        ">  stairs down",
        "^  on the State of Mind bar",
        "D  Depression",
        f"{''.join(kind.glyph for kind in FIND_KINDS.values())} finds, seen only while High",
    ):
        assert glyph_line in legend
    # The Highs page: how a streak pays, and every find with what taking it does.
    assert "your longest does: every 25 turns of it, 60 points the" in highs and "up to 720 a time" in highs
    example = re.search(r"Streak (\d+) \+(\d+)", highs)  # the panel's example
    assert example is not None
    running, paid = map(int, example.groups())
    payable = {formulas.high_streak_bonus(turns) for turns in range(running, 1000)}
    assert paid in payable, "the example shows what no longest streak as long as the running one pays"
    for find_line in (
        "=  Clarity   Tolerance -3",
        "~  Calm      Nerve +2, Will +1",
        "?  Insight   shows the floor and its stairs",
    ):
        assert find_line in highs
    assert isinstance(screen.on_event(key(KeySym.ESCAPE)), Pop)


def test_help_opens_from_the_title_with_the_monsters_earlier_characters_met(tmp_path: Path) -> None:
    game = arena()
    add_monster(game, "regret", 9, 4)
    game.apply(Wait())
    write_record(DataDir(tmp_path).record("a"), record_of(game))
    app = App(TitleScreen(Games(tmp_path)))
    screen_text(app.stack[-1])
    app.handle(key(KeySym.H))
    assert isinstance(app.stack[-1], HelpScreen)
    app.handle(key(KeySym.N3))
    assert "Regret" in screen_text(app.stack[-1])


def test_ingame_question_mark_help_knows_this_games_monsters_and_tolerance() -> None:
    game = arena()
    add_monster(game, "voices", 14, 1)
    game.apply(Wait())
    screen = InGameScreen(Session(game))
    help_screen = screen.on_event(key(KeySym.QUESTION))
    assert isinstance(help_screen, Push)
    shown = help_screen.screen
    shown.on_event(key(KeySym.N3))
    assert "Voices" in screen_text(shown)


def test_look_starts_on_the_player_and_tab_visits_monsters_and_doses() -> None:
    game = arena()
    set_player(game, state_of_mind=70)
    add_dose(10, 4, Dose(LARGE_DOSE.key, 60, 1, 1, 0))
    hunter = add_monster(game, "hunger", 3, 4, hunting=True)
    look = LookScreen(game)
    assert "You, Tester." in screen_text(look)
    look.on_event(key(KeySym.TAB))
    text = screen_text(look)
    assert "Large dose (I): +55..+75 State of Mind" in text and "it WILL overdose you" in text
    look.on_event(key(KeySym.TAB))
    text = screen_text(look)
    assert "Hunger (h): drains 5 State of Mind." in text and "It has noticed you and hunts you." in text
    game.activate()
    esper.component_for_entity(hunter, Monster).target = 0
    assert "It has not noticed you (notices within 8 steps)." in screen_text(look)
    look.on_event(key(KeySym.LEFT))
    assert look.cursor == (2, 4) and "Floor." in screen_text(look)
    assert isinstance(look.on_event(key(KeySym.ESCAPE)), Pop)


def test_look_says_when_a_dose_could_overdose_and_when_it_cannot() -> None:
    game = arena()
    add_dose(9, 4, Dose(NORMAL_DOSE.key, 40, 0, 0, 0))
    look = LookScreen(game)
    look.on_event(key(KeySym.TAB))
    set_player(game, state_of_mind=20)
    assert "At 20, Tolerance 0: no risk of overdose." in screen_text(look)
    set_player(game, state_of_mind=30)  # 56 at most; no purer batch lies on floor 1
    assert "At 30, Tolerance 0: no risk of overdose." in screen_text(look)
    set_player(game, state_of_mind=60)
    assert "it COULD overdose you" in screen_text(look)


def test_the_panel_shows_name_effects_and_the_bands_of_the_bar() -> None:
    game = arena()
    set_player(game, state_of_mind=30, will=5)
    game.activate()
    esper.add_component(game.state.player, Stunned(2))
    rows = console_rows(game_console(game))
    assert rows[21].startswith("Withdrawal  30/100 Tester")
    assert "Stunned 2" in rows[22]
    bar = rows[22][:17]
    assert bar.index("^") == 17 * 15 // 100 and bar.count("|") == 2


def test_the_pull_zone_is_tinted_and_patterned_only_when_will_is_weak() -> None:
    game = arena()
    add_dose(12, 4, Dose(SMALL_DOSE.key, 40, 0, 0, 0))
    set_player(game, will=5)
    assert not pull_zone_in_sight(game).any()
    set_player(game, will=1)
    game.refresh_visible()  # changed by hand: sight and steering derived again
    zone = pull_zone_in_sight(game)
    assert zone[4, 10] and zone[3, 13] and zone[6, 11] and not zone[4, 9]
    console = game_console(game)
    assert tuple(console.rgb["bg"][4, 10]) == CLASSIC[Slot.PULL_ZONE]
    assert chr(console.rgb["ch"][4, 10]) == ":" and chr(console.rgb["ch"][4, 9]) == "."
    assert chr(console.rgb["ch"][4, 12]) not in ".:"  # the dose itself stays drawn


def dead_game() -> InGameScreen:
    """An in-game screen whose next key lets a Depression kill the player."""
    game = arena()
    add_monster(game, "depression", 11, 4, hunting=True)
    game.apply(Wait())
    return InGameScreen(Session(game))


def test_death_keeps_the_map_marks_the_killer_and_a_key_opens_the_record() -> None:
    screen = dead_game()
    while not screen.game.state.game_over:
        result = screen.on_event(key(KeySym.PERIOD))
    assert isinstance(result, Replace) and isinstance(result.screen, DyingScreen)
    dying = result.screen
    console = tcod.console.Console(80, 25, order="C")
    dying.on_draw(console, 10.0)
    rows = console_rows(console)
    assert "Press a key to see how it came to this." in rows[0]
    assert any("Depression swallows you whole." in row for row in rows[21:])
    x, y = dying.mark
    assert rows[y][x] == "D" and tuple(console.rgb["bg"][y, x]) != (0, 0, 0)
    assert dying.on_event(key(KeySym.RETURN)) is None  # a key already held does not skip it
    dying.on_draw(console, 11.6)
    record = dying.on_event(key(KeySym.RETURN))
    assert isinstance(record, Replace) and isinstance(record.screen, RecordScreen)
    text = screen_text(record.screen)
    for words in (
        "Tester was killed by Depression.",
        "Turns survived",
        "What would have helped",
        "two steps a turn",
        "State of Mind, turn by turn",
        "turn 0",
    ):
        assert words in text
    assert any(block in text for block in "▁▂▃▄▅▆▇█")


def test_the_death_graph_comes_from_the_saved_chart(tmp_path: Path) -> None:
    from roguelike.saves.savefile import load_save, save_game

    game = arena()
    for _ in range(5):
        game.apply(Wait())
    save_game(tmp_path / "a.save", game)
    loaded = load_save(tmp_path / "a.save")
    loaded.state.cause_of_death = "exhaustion"
    rows = screen_rows(RecordScreen(record_of(loaded)))
    assert "turn 5" in "\n".join(rows) and "died of exhaustion" in rows[1]


def test_stats_lists_characters_opens_a_record_and_shows_the_overall_page(tmp_path: Path) -> None:
    for name, cause, streak in (("Ann", "overdose", 40), ("Bob", "depression", 75), ("Cy", "overdose", 0)):
        game = arena()
        game.state.name, game.state.cause_of_death = name, cause
        game.player_component(HighStreak).best = streak
        game.player_component(FindsTaken).kinds.update({"calm": 1} if streak else {})
        write_record(DataDir(tmp_path).record(name), record_of(game))
    screen = StatsScreen(Games(tmp_path))
    listing = screen_text(screen)
    assert "Overdose" in listing and "Depression" in listing and "Enter: full record" in listing
    screen.on_event(key(KeySym.DOWN))
    opened = screen.on_event(key(KeySym.RETURN))
    assert isinstance(opened, Push)
    told = screen_text(opened.screen)
    assert "was killed by Depression" in told or "died of an overdose" in told
    screen.on_event(key(KeySym.TAB))
    overall = screen_rows(screen)
    assert next(row for row in overall if "Characters" in row).split()[1] == "3"
    assert "Longest High   75 (Bob)" in "\n".join(overall)
    assert next(row for row in overall if "Finds taken" in row).split()[-1] == "2"
    bars = {row.split()[0]: row.count("█") for row in overall if "█" in row}
    assert bars == {"Overdose": 40, "Depression": 20}


def test_the_message_log_scrolls_and_says_how() -> None:
    game = arena()
    for index in range(40):
        game.state.say(f"line {index}")
    log = MessageLogScreen(game)
    assert "line 39" in screen_text(log) and "PgUp/PgDn: scroll" in screen_text(log)
    log.on_event(key(KeySym.PAGEUP))
    assert "line 39" not in screen_text(log) and "line 18" in screen_text(log)
    assert isinstance(log.on_event(key(KeySym.ESCAPE)), Pop)


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("game", "Turn 40"),
        ("help", "Controls"),
        ("look", "Move: cursor"),
        ("stats", "Character stats"),
        ("title", "H E D O N I C"),
    ],
)
def test_screenshot_writes_each_screen_as_text(
    name: str, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["screenshot", "--seed", "32", "--turns", "40", "--screen", name, "--text"]) == 0
    shown = capsys.readouterr().out
    assert words in shown and len(shown.splitlines()) == 25


def test_screenshot_of_death_plays_until_the_bot_dies_and_refuses_when_it_does_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "death.txt"
    assert (
        main(["screenshot", "--seed", "204", "--turns", "2000", "--screen", "death", "--text", "--out", str(out)]) == 0
    )
    assert "Turns survived" in out.read_text(encoding="utf-8")
    assert (
        main(["screenshot", "--seed", "204", "--turns", "3", "--screen", "death", "--out", str(tmp_path / "x.png")])
        == 1
    )
    assert "still alive after 3 turns" in capsys.readouterr().err


def test_screenshot_writes_a_png_of_the_help(tmp_path: Path) -> None:
    out = tmp_path / "help.png"
    assert main(["screenshot", "--seed", "1", "--screen", "help", "--page", "Rules", "--out", str(out)]) == 0
    assert out.read_bytes().startswith(b"\x89PNG")


def test_falling_back_from_a_window_that_cannot_open_prints_nothing(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    code = (
        "from roguelike import settings\nfrom roguelike.frontend.quiet import quiet_c_output\n"
        "from roguelike.frontend.window import open_window\n"
        "try:\n    with quiet_c_output():\n        open_window(settings.current())\n"
        "except RuntimeError:\n    print('fell back')\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("WAYLAND_DISPLAY",)}
    env.update(DISPLAY=":987", SDL_VIDEODRIVER="x11")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert done.stdout == "fell back\n" and done.stderr == ""
    assert np is not None


def test_the_panel_shows_whole_messages_wrapped_never_the_tail_of_an_older_one() -> None:
    game = arena()
    game.state.say("You take the strong dose: +46 State of Mind; Confidence +1, Nerve +2, Will -1; Tolerance 4.")
    game.state.say("A Hunger (h) prowls: it hunts in packs, and each bite drains 5 State of Mind.")
    game.state.say("You open the door.")
    rows = [row[32:] for row in console_rows(game_console(game))[21:]]
    assert rows[0].startswith("A Hunger (h) prowls") and rows[2] == "You open the door."
    assert not any("Tolerance 4." in row for row in rows)


def test_an_overdose_marks_where_the_dose_lay() -> None:
    game = arena()
    set_player(game, state_of_mind=95)
    add_dose(9, 4, Dose(SMALL_DOSE.key, 40, 0, 0, 0))
    screen = InGameScreen(Session(game))
    assert screen.on_event(key(KeySym.RIGHT)) is None and screen.asking is not None  # it asks first
    died = screen.on_event(key(KeySym.Y))
    assert isinstance(died, Replace) and isinstance(died.screen, DyingScreen)
    assert game.state.cause_of_death == "overdose" and died.screen.mark == (9, 4)


def test_every_help_line_fits_the_screen_and_every_page_fits_above_its_hints() -> None:
    from roguelike.screens.help import pages
    from roguelike.screens.helplayout import TOP

    everything = Known(met=frozenset(MONSTER_KINDS), tolerance=3)
    for part in pages(everything):
        assert TOP + len(part.rows) <= formulas.SCREEN_HEIGHT - 1, f"{part.title}: too many lines"
        for line in part.rows:
            width = 2 + sum(len(text) for text, _ in line)
            assert width <= formulas.SCREEN_WIDTH, f"{part.title}: cut at the edge: {''.join(t for t, _ in line)!r}"
