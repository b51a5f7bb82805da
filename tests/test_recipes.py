"""Every recipe of docs/architecture.md ("How to add ..."), followed in a copy of the game.

Each recipe is followed as written, in a copy of the code: a throwaway monster, dose kind,
find kind, terrain, climate, condition, system, screen and command are added by editing the
files the recipe names, with a test file of their own that plays them
(``tests/test_throwaway.py`` in the copy). The test files that read what the recipe touched
then run on the copy, their quick tests only, in one pytest process per recipe. Nothing of the repository
itself is changed. The rules epoch and the corpus (what a recipe that changes games also
asks for) are left out: re-recording the corpus is not cheap.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from recipe_throwaways import (
    CLIMATE_PLAY,
    CLIMATE_ROW,
    COMMAND_PLAY,
    CONDITION_COMPONENT,
    CONDITION_PLAY,
    CONDITION_ROW,
    DOSE_PLAY,
    DOSE_ROW,
    FIND_PLAY,
    FIND_ROW,
    MONSTER_PLAY,
    MONSTER_ROW,
    NOTES_SCREEN,
    SCREEN_PLAY,
    SYSTEM,
    SYSTEM_PLAY,
    TERRAIN_KIND,
    TERRAIN_PLAY,
    TERRAIN_ROW,
)
from roguelike.render.colours import GREYSCALE_MONSTER_GREYS

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("roguelike", "components", "systems")
PLAYED = "tests/test_throwaway.py"


def edit(path: Path, pattern: str, replacement: str) -> None:
    """Replace the first match of a regular expression in a file, which must be there."""
    text = path.read_text(encoding="utf-8")
    changed, count = re.subn(pattern, lambda match: match.expand(replacement), text, count=1, flags=re.S | re.M)
    assert count == 1, f"{path.name}: the recipe's place is gone: {pattern!r}"
    path.write_text(changed, encoding="utf-8")


def append(path: Path, text: str) -> None:
    """Add text at the end of a file."""
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def before_table(path: Path, table: str, row: str, name: str) -> None:
    """A content row placed above its table, and its place at the end of the table's tuple."""
    edit(path, rf"^({table}: dict\[)", row + r"\n\1")
    edit(path, rf"^({table}: dict\[.*?for kind in \([^)]*?)\)", rf"\1, {name})")


def kind_colour(copy: Path, key: str, colour: str, contrast: str | None = None) -> None:
    """Step 2 of the content recipes: a colour in every palette's ``kinds`` but the classic
    one (``contrast``: high contrast's, when it is not the same); the greyscale palette derives its own."""
    for palette, rgb in (("COLOURBLIND", colour), ("CONTRAST", contrast or colour)):
        edit(
            copy / "roguelike/render/colours.py",
            rf'(^{palette} = Scheme\(.*?)("player": )',
            rf'\1"{key}": {rgb}, \2',
        )


def play(copy: Path, text: str) -> None:
    """The throwaway's own checks, run with the recipe's tests."""
    (copy / PLAYED).write_text(text, encoding="utf-8")


def add_monster(copy: Path) -> None:
    """How to add a monster: its row, its colours (its hit does not kill: no tip)."""
    before_table(copy / "roguelike/content/bestiary.py", "MONSTER_KINDS", MONSTER_ROW, "QUIBBLE")
    kind_colour(copy, "quibble", "(95, 0, 255)", contrast="(0, 95, 0)")  # as free_colours proposes
    play(copy, MONSTER_PLAY)


def add_dose(copy: Path) -> None:
    """How to add a dose kind: its row and its colours."""
    before_table(copy / "roguelike/content/doses.py", "DOSE_KINDS", DOSE_ROW, "TINCTURE")
    kind_colour(copy, "tincture", "(255, 200, 120)")
    play(copy, DOSE_PLAY)


def add_find(copy: Path) -> None:
    """How to add a find kind: its row and its colours."""
    before_table(copy / "roguelike/content/finds.py", "FIND_KINDS", FIND_ROW, "SPARK")
    kind_colour(copy, "spark", "(255, 255, 200)")
    play(copy, FIND_PLAY)


def add_terrain(copy: Path) -> None:
    """How to add a terrain: its kind and its row, which holds its line in the Help's legend (its colour
    roles are the walls' and the floor's: no new slot)."""
    terrain = copy / "roguelike/content/terrain.py"
    edit(terrain, r"^(class Tile\(IntEnum\):.*?\n)(\n\n)", rf"\1{TERRAIN_KIND}\2")
    edit(terrain, r"^(TERRAIN: dict\[.*?\n)(    \)\n\})", rf"\1{TERRAIN_ROW}\2")
    play(copy, TERRAIN_PLAY)


def add_climate(copy: Path) -> None:
    """How to add a climate: its row (a layout of the rooms' generator) and its key among the kinds saves name."""
    before_table(copy / "roguelike/content/climates.py", "CLIMATES", CLIMATE_ROW, "CHAMBERS")
    edit(copy / "roguelike/core/plain.py", r"^(FloorKind = Literal\[.*?)\]", r'\1, "chambers"]')
    play(copy, CLIMATE_PLAY)


def add_condition_component(copy: Path) -> None:
    """Steps 1 and 2 of how to add a condition: the component and its registry name."""
    append(copy / "components/monsters.py", CONDITION_COMPONENT)
    registry = copy / "components/registry.py"
    edit(registry, r"^(from components\.monsters import .*?)Confused, ", r"\1Confused, Dazed, ")
    edit(registry, r'^(\s+)("confused": Confused,\n)', r'\1\2\1"dazed": Dazed,\n')


def add_condition_row(copy: Path) -> None:
    """Step 3 of how to add a condition: the row, and its place in the order of strength (last)."""
    conditions = copy / "roguelike/content/conditions.py"
    edit(conditions, r"^(# In order of strength)", CONDITION_ROW + r"\n\1")
    edit(conditions, r"(CONDITIONS: .*?\(\s*STUNNED,[^)]*?)(,?\s*)\)", r"\1, DAZED\2)")


def add_condition(copy: Path) -> None:
    """How to add a condition, a timed one that holds and steers like Stunned."""
    add_condition_component(copy)
    add_condition_row(copy)
    play(copy, CONDITION_PLAY)


def add_system(copy: Path) -> None:
    """How to add a system: the verb in its module, a field of the action's record it hands
    on (listed with its lifetime), its place in ``TURN``."""
    append(copy / "systems/clock.py", SYSTEM)
    edit(copy / "roguelike/core/state.py", r"^(    cues: list\[Cue\])", r"    counted: int = 0\n\1")
    edit(
        copy / "tests/test_state_lifetimes.py",
        r"^(RECORD_CHANGES: .*? = \{\n)",
        r'\1    "counted": lambda record: setattr(record, "counted", 1),\n',
    )
    edit(
        copy / "systems/__init__.py",
        r"^(from systems\.clock import .*?)chart_state_of_mind, ",
        r"\1chart_state_of_mind, count_actions, ",
    )
    edit(copy / "systems/__init__.py", r"(ACT = Phase\(.*?spend_action_point)\)", r"\1, count_actions)")
    play(copy, SYSTEM_PLAY)


def bind(copy: Path, action: str, description: str, key: str) -> None:
    """How to add a command, step 1: the action, its description and its default key."""
    bindings = copy / "roguelike/screens/bindings.py"
    edit(bindings, r"^(ACTIONS: dict\[str, str\] = \{.*?)\n\}", rf'\1\n    "{action}": "{description}",\n}}')
    edit(bindings, r"^(    keys\.update\(\s*\{\n)", rf'\1        "{action}": [(KeySym.{key}, Modifier.NONE)],\n')


def add_screen(copy: Path) -> None:
    """How to add a screen: its module, the key that opens it, its screenshot builder."""
    (copy / "roguelike/screens/notes.py").write_text(NOTES_SCREEN, encoding="utf-8")
    bind(copy, "notes", "the notes screen", "F5")
    ingame, shots = copy / "roguelike/screens/ingame.py", copy / "roguelike/screens/shots.py"
    for module in (ingame, shots):
        edit(module, r"^(from roguelike\.screens\.)", r"from roguelike.screens.notes import NotesScreen\n\1")
    edit(ingame, r"^(SCREEN_ACTIONS: .*? = \{\n)", r'\1    "notes": lambda screen: NotesScreen(screen.game),\n')
    edit(shots, r"^(SCREENS: .*? = \{\n)", r'\1    "notes": lambda game, root, page: NotesScreen(game),\n')
    edit(copy / "roguelike/screens/helptext.py", r"^(CONTROLS: .*? = \(\n)", r'\1    ("Notes", "F5"),\n')
    play(copy, SCREEN_PLAY)


def add_command(copy: Path) -> None:
    """How to add a command: a readout, its key, its line in the Controls."""
    bind(copy, "turn_count", "read out the turn", "F6")
    append(
        copy / "roguelike/assist/readout.py",
        '''

def turn_count(game: Game) -> str:
    """The turn, in words."""
    return f"Turn {game.state.turn}."
''',
    )
    edit(
        copy / "roguelike/screens/ingame.py",
        r"^(READOUT_ACTIONS: .*? = \{\n)",
        r'\1    "turn_count": readout.turn_count,\n',
    )
    edit(copy / "roguelike/screens/helptext.py", r"^(CONTROLS: .*? = \(\n)", r'\1    ("Read out the turn", "F6"),\n')
    play(copy, COMMAND_PLAY)


@dataclass(frozen=True)
class Recipe:
    """A recipe of docs/architecture.md, how it is followed, and the test files its change touches."""

    name: str
    follow: Callable[[Path], None]
    tests: tuple[str, ...]
    keyword: str = ""  # a further ``-k`` filter of those files' tests


# The help's tests of test_feedback_screens (the page the row lands on), not its others.
QUICK = "not test_feedback_screens or help"
# Of the thousand games whose floors test_floor_kinds checks, the first 250 (its first chunk, which asserts the
# rarest climate's share as each chunk does): the new row is checked on some 1,000 floors, the whole sample
# still runs in the suite itself, and the recipe's run on its copy took 11 CPU-s instead of 20.6.
ONE_CHUNK = "not thousands_of_games or games0to"
HELP = ("test_feedback_screens.py", "test_help_pages.py")
RECIPES = (
    Recipe(
        "monster",
        add_monster,
        ("test_palette_access.py", "test_wording.py", "test_monsters_spawning.py", "test_monsters.py", *HELP),
    ),
    Recipe("dose kind", add_dose, ("test_palette_access.py", "test_wording.py", "test_dose_truth.py", *HELP)),
    Recipe("find kind", add_find, ("test_palette_access.py", "test_finds.py", *HELP)),
    Recipe("terrain", add_terrain, ("test_terrain.py", "test_sight.py", "test_help_pages.py")),
    Recipe("climate", add_climate, ("test_climates.py", "test_floor_kinds.py", "test_stairs_placement.py"), ONE_CHUNK),
    Recipe("condition", add_condition, ("test_conditions.py", "test_effects.py", "test_state_lifetimes.py", *HELP)),
    Recipe("system", add_system, ("test_schedule.py", "test_state_lifetimes.py", "test_layers.py")),
    Recipe("screen", add_screen, ("test_keymap.py", "test_bindings.py", "test_layers.py", "test_help_pages.py")),
    Recipe("command", add_command, ("test_keymap.py", "test_bindings.py", "test_help_pages.py")),
)


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """The game's packages and tests, copied aside."""
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "tests", tmp_path / "tests", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "setup.cfg", tmp_path / "setup.cfg")
    return tmp_path


def run_tests(copy: Path, *files: str, stop: bool = True, keyword: str = "") -> subprocess.CompletedProcess[str]:
    """The test files' quick tests on the copy (those ``keyword`` keeps too, if given), in one process."""
    chosen = f"({QUICK}) and ({keyword})" if keyword else QUICK
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "-k", chosen]
    return subprocess.run(
        [*command, *(["-x"] if stop else []), *files], cwd=copy, capture_output=True, text=True, timeout=300
    )


def failed(output: str) -> list[str]:
    """The tests a pytest run names as failed."""
    return re.findall(r"^FAILED (\S+)", output, flags=re.M)


@pytest.mark.long(6)
@pytest.mark.parametrize("recipe", RECIPES, ids=lambda recipe: recipe.name)
def test_a_recipe_followed_as_written_gives_a_whole_game(copy: Path, recipe: Recipe) -> None:
    recipe.follow(copy)
    ran = run_tests(copy, PLAYED, *(f"tests/{name}" for name in recipe.tests), keyword=recipe.keyword)
    assert ran.returncode == 0, ran.stdout[-4000:] + ran.stderr[-2000:]
    assert re.search(r"\d+ passed", ran.stdout)


def recipe_text(name: str) -> str:
    """A recipe of docs/architecture.md, its words on one line."""
    text = (ROOT / "docs/architecture.md").read_text(encoding="utf-8")
    start = text.index(f"### How to add {name}\n")
    return " ".join(text[start : text.index("\n### ", start + 1)].split())


def test_the_monster_recipe_says_how_each_palette_takes_one_more_kind() -> None:
    text = recipe_text("a monster")
    assert f"at most `GREYSCALE_MONSTER_GREYS` ({GREYSCALE_MONSTER_GREYS}) kinds" in text
    assert "its glyph must be a letter no other monster, dose or find uses" in text
    assert "`tests/palette_checks.py`'s `free_colours(" in text


def test_a_condition_row_without_its_component_fails(copy: Path) -> None:
    add_condition_row(copy)
    ran = run_tests(copy, "tests/test_conditions.py", stop=False)
    assert ran.returncode != 0
    assert "dazed" in ran.stdout
