"""The throwaway content and code tests/test_recipes.py adds to a copy of the game, and the
checks (a test file in the copy) that play each one."""

from __future__ import annotations

from roguelike.content.terrain import Tile

MONSTER_ROW = """QUIBBLE = MonsterKind(
    key="quibble", name="Quibble", plural="Quibbles",
    glyph="Q", colour=(200, 90, 60),
    hit=STATE_OF_MIND_DRAIN, hit_text="A Quibble nags at you: -{amount} State of Mind.",
    weight=2,
    sighting="A Quibble (Q) nags: each bite drains State of Mind.",
    hit_summary="drains State of Mind", moves="one step a turn",
)
"""
MONSTER_PLAY = """
from collections import Counter

from bestiary_helpers import add_monster, arena
from roguelike.core.commands import Wait
from roguelike.core.mapgen import generate_floor
from roguelike.core.world import floor_seed
from roguelike.render.colours import SCHEMES
from roguelike.screens.help import HelpScreen, Known
from roguelike.settings import PaletteName
from save_helpers import key, screen_text
from test_monsters_spawning import monsters_of
from tcod.event import KeySym


def test_throwaway_monster_turns_up_bites_and_shows() -> None:
    kinds = Counter(m.kind for seed in range(20) for m, _ in monsters_of(generate_floor(floor_seed(seed, 1), 1, None)))
    assert kinds["quibble"] > 0
    game = arena()
    add_monster(game, "quibble", 9, 4, hunting=True)
    game.apply(Wait())
    assert any(m.text.startswith("A Quibble nags at you") for m in game.state.messages)
    assert SCHEMES[PaletteName.COLOURBLIND].kind_colour("quibble", (0, 0, 0)) == (95, 0, 255)
    screen = HelpScreen(Known(frozenset({"quibble"})), page="Bestiary")
    assert "Quibble" in screen_text(screen)
"""

DOSE_ROW = """TINCTURE = DoseKind(
    key="tincture", name="tincture", glyph="%", colour=(200, 255, 160),
    strength=(20, 30), confidence=(0, 1), nerve=(0, 1), will=(0, 1),
    description="A tincture: a gentle lift, and little risk.",
    weight=1,
)
"""
DOSE_PLAY = """
from bestiary_helpers import arena, set_player
from components import Dose, Record, StateOfMind
from helpers import add_dose
from roguelike.core.commands import Move
from roguelike.screens.help import HelpScreen, Known
from save_helpers import screen_text


def test_throwaway_dose_is_taken_and_shown() -> None:
    game = arena()
    set_player(game, state_of_mind=40)
    game.activate()
    add_dose(9, 4, Dose("tincture", 25, 0, 0, 0))
    game.apply(Move(1, 0))
    assert game.player_component(Record).doses_used == 1 and game.player_component(StateOfMind).value > 40
    assert "A gentle lift, and little risk." in screen_text(HelpScreen(Known(), page="Doses"))
"""

FIND_ROW = """SPARK = FindKind(
    key="spark", name="Spark", glyph="$", colour=(255, 140, 200),
    description="A Spark: it lifts your Will.",
    taken="A Spark lights in you: Will {will}.",
    will=1, weight=1,
)
"""
FIND_PLAY = """
from components import Attributes, FindsTaken
from finds_helpers import find_game
from roguelike.core.commands import Move
from roguelike.screens.help import HelpScreen, Known
from save_helpers import screen_text


def test_throwaway_find_is_taken_while_high_and_shown() -> None:
    game, _ = find_game(80, kind="spark")
    will = game.player_component(Attributes).will
    game.apply(Move(1, 0))
    assert game.player_component(FindsTaken).kinds["spark"] == 1
    assert game.player_component(Attributes).will == will + 1
    assert "It lifts your Will." in screen_text(HelpScreen(Known(), page="Highs"))
"""

CONDITION_COMPONENT = '''

@dataclass(slots=True)
class Dazed(Status):
    """The player stands dazed, unable to step."""
'''
CONDITION_ROW = """
DAZED = Condition(
    key="dazed", title="Dazed", trigger=Trigger.TIMED, steer=Steer.STAY,
    reason="Dazed: you stand still.", called="dazed", rules="stand",
    timed=Timed(component="dazed", name="Dazed", short="Daze", ends="The daze lifts.", noun="daze",
                flash=(255, 255, 160), danger=2),
)
"""
CONDITION_PLAY = """
import esper

from components.monsters import Dazed
from roguelike.core.commands import Move
from roguelike.core.game import Game
from roguelike.render.panel import effects_text
from roguelike.screens import helptext


def test_throwaway_condition_steers_a_game() -> None:
    game = Game.new(4, "Ada")
    game.activate()
    esper.add_component(game.state.player, Dazed(2))
    game.refresh_visible()
    assert game.steering().key == "dazed", game.steering()
    assert effects_text(game) == "Dazed 2"
    game.apply(Move(1, 0))
    game.apply(Move(1, 0))
    assert "The daze lifts." in [m.text for m in game.state.messages]
    assert "Dazed: stand." in dict(helptext.RULES)["Taken over"]
"""

SYSTEM = '''

@system(Player)
def count_actions(now: Now, entity: int, player: Player) -> None:
    """Count the player's actions in the action's record."""
    now.action.counted += 1
'''
SYSTEM_PLAY = """
from roguelike.core.commands import Wait
from roguelike.core.game import Game


def test_throwaway_system_runs_in_its_phase() -> None:
    game = Game.new(4, "Ada")
    game.apply(Wait())
    assert game.action.counted == 1
"""

NOTES_SCREEN = '''"""The notes: where the player is, in a line (a throwaway screen)."""

from __future__ import annotations

import tcod.console
import tcod.event

from roguelike.core.game import Game
from roguelike.render.colours import Slot
from roguelike.screens import ambient
from roguelike.screens.base import Pop, Screen, Transition


class NotesScreen(Screen):
    """The floor and the turn; any key goes back."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """Any key goes back."""
        return Pop() if isinstance(event, tcod.event.KeyDown) else None

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """The one line of notes."""
        text = f"Notes: floor {self.game.state.depth}, turn {self.game.state.turn}."
        console.print(1, 1, text, fg=ambient.look().scheme[Slot.TEXT])
'''
SCREEN_PLAY = """
from pathlib import Path

from tcod.event import KeySym

from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.screens.base import Pop, Push
from roguelike.screens.help import HelpScreen
from roguelike.screens.ingame import InGameScreen
from roguelike.screens.notes import NotesScreen
from roguelike.screens.shots import SCREENS, console_text, drawn
from save_helpers import key, screen_text


def test_throwaway_screen_opens_with_its_key_and_draws(tmp_path: Path) -> None:
    game = Game.new(4, "Ada")
    opened = InGameScreen(Session(game)).on_event(key(KeySym.F5))
    assert isinstance(opened, Push) and isinstance(opened.screen, NotesScreen)
    assert "Notes: floor 1, turn 0." in screen_text(opened.screen)
    assert isinstance(opened.screen.on_event(key(KeySym.ESCAPE)), Pop)
    assert "Notes: floor 1" in console_text(drawn(SCREENS["notes"](game, tmp_path, "")))
    assert "F5" in screen_text(HelpScreen())
"""

COMMAND_PLAY = """
from tcod.event import KeySym

from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.screens.help import HelpScreen
from roguelike.screens.ingame import InGameScreen
from save_helpers import key, screen_text


def test_throwaway_command_reads_out_the_turn() -> None:
    screen = InGameScreen(Session(Game.new(4, "Ada")))
    assert screen.on_event(key(KeySym.F6)) is None
    assert "Turn 0." in screen_text(screen)
    assert "Read out the turn" in screen_text(HelpScreen())
"""

TERRAIN_KIND = f"    BARS = {len(Tile)}\n"  # the next free value
TERRAIN_ROW = """        Terrain(
            Tile.BARS,
            False,
            True,
            "=",
            "wall_fg",
            "floor_bg",
            "Iron bars: you see through them, but cannot pass.",
            "iron bars: you see through them, but cannot pass",
        ),
"""
TERRAIN_PLAY = """
from pathlib import Path

from helpers import drawn_game, player_xy
from roguelike.content.terrain import Tile
from roguelike.core.commands import Move
from roguelike.core.floor import PASSABLE, SEE_THROUGH, TRAVEL_COST, WALKABLE
from roguelike.render.screenshot import game_console
from roguelike.saves import load_save, save_game
from roguelike.screens.help import Known, legend
from roguelike.screens.look import describe


def test_throwaway_terrain_stops_a_step_lets_light_through_shows_and_saves(tmp_path: Path) -> None:
    assert not WALKABLE[Tile.BARS] and SEE_THROUGH[Tile.BARS] and not PASSABLE[Tile.BARS]
    assert TRAVEL_COST[Tile.BARS] == 0
    game = drawn_game(["#######", "#@=..>#", "#######"])
    game.apply(Move(1, 0))
    assert player_xy(game) == (1, 1) and game.view.visible[1, 4]
    assert describe(game, (2, 1))[0][0] == "Iron bars: you see through them, but cannot pass."
    assert chr(game_console(game).rgb["ch"][1, 2]) == "="
    assert any("iron bars" in text for entry in legend(Known()) for line in entry for text, _ in line)
    save_game(tmp_path / "bars.save", game)
    assert load_save(tmp_path / "bars.save").state.floor.tiles[1, 2] == Tile.BARS
"""

CLIMATE_ROW = """CHAMBERS = Climate(
    key="chambers",
    layout=Rooms(RoomSizes(attempts=30, most=6, width=(5, 9), height=(4, 6))),
    weight=2,
    arrival="Chambers, one after another.",
    from_floor=2,
)
"""
CLIMATE_PLAY = """
from collections import Counter
from pathlib import Path

import pytest

from roguelike.content import climates
from roguelike.content.climates import CHAMBERS
from roguelike.core.game import Game
from roguelike.core.mapgen import generate_floor
from roguelike.core.world import floor_seed
from roguelike.saves import load_save, save_game


def test_throwaway_climate_is_drawn_below_its_first_floor_and_saved(tmp_path: Path) -> None:
    assert {generate_floor(floor_seed(seed, 1), 1, None).kind for seed in range(20)} == {"rooms"}
    kinds = Counter(generate_floor(floor_seed(seed, 3), 3, (40, 10)).kind for seed in range(60))
    assert kinds["chambers"] > 0 and kinds["rooms"] > 0
    game = Game.new(5, "Ada")
    game.state.floor.kind = "chambers"
    save_game(tmp_path / "chambers.save", game)
    assert load_save(tmp_path / "chambers.save").state.floor.kind == "chambers"


def test_throwaway_climate_alone_is_every_floor_it_may_be(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(climates, "CLIMATES", {"chambers": CHAMBERS})
    assert {generate_floor(floor_seed(seed, 2), 2, (40, 10)).kind for seed in range(10)} == {"chambers"}
"""
