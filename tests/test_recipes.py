"""The recipe "How to add a condition" (docs/architecture.md), followed in a copy of the game.

A throwaway condition is added exactly as the recipe says (a component, its registry
name, one row of the conditions table) to a copy of the code; the table-walking test
then passes on the copy and a game played there is steered by it. The same row without
its component fails. Nothing of the repository itself is changed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("roguelike", "components", "systems")
TESTS = ("conftest.py", "helpers.py", "bestiary_helpers.py", "test_conditions.py")

COMPONENT = '''

@dataclass(slots=True)
class Dazed(Status):
    """The player stands dazed, unable to step."""
'''
REGISTRY = ('from components.monsters import Bestiary, Confused, Monster, Panicked, Stunned',
            'from components.monsters import Bestiary, Confused, Dazed, Monster, Panicked, Stunned')
REGISTRY_ENTRY = ('    "confused": Confused,\n', '    "confused": Confused,\n    "dazed": Dazed,\n')
ROW = '''
DAZED = Condition(
    key="dazed", title="Dazed", trigger=Trigger.TIMED, steer=Steer.STAY,
    reason="Dazed: you stand still.", called="dazed", rules="stand",
    timed=Timed(component="dazed", name="Dazed", short="Daze", ends="The daze lifts.", noun="daze",
                flash=(255, 255, 160), danger=2),
)
'''
TABLE = ("(STUNNED, DESPERATE_CARRYING, DESPERATE, WEAK_WILL, POCKET_PULL, PANICKED, NERVE_FAILS, CONFUSED)",
         "(STUNNED, DESPERATE_CARRYING, DESPERATE, WEAK_WILL, POCKET_PULL, PANICKED, NERVE_FAILS, CONFUSED, DAZED)")
PLAY = '''
import esper
from components.monsters import Dazed
from roguelike.core.commands import Move
from roguelike.core.game import Game
from roguelike.render.panel import effects_text

game = Game.new(4, "Ada")
game.activate()
esper.add_component(game.state.player, Dazed(2))
game.refresh_visible()
assert game.steering().key == "dazed", game.steering()
assert effects_text(game) == "Dazed 2"
game.apply(Move(1, 0))
game.apply(Move(1, 0))
assert "The daze lifts." in [m.text for m in game.state.messages]
print("steered by the daze")
'''


def edit(path: Path, old: str, new: str) -> None:
    """Replace one piece of a file, which must be there."""
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """The game's packages and the table test, copied aside."""
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__", "fonts"))
    (tmp_path / "tests").mkdir()
    for name in TESTS:
        shutil.copy(ROOT / "tests" / name, tmp_path / "tests" / name)
    shutil.copy(ROOT / "setup.cfg", tmp_path / "setup.cfg")
    return tmp_path


def add_row(copy: Path) -> None:
    """Step 3 of the recipe: the row, and its place in the order of strength."""
    conditions = copy / "roguelike" / "content" / "conditions.py"
    edit(conditions, "\n# In order of strength", ROW + "\n# In order of strength")
    edit(conditions, *TABLE)


def add_component(copy: Path) -> None:
    """Steps 1 and 2 of the recipe: the component and its registry name."""
    append(copy / "components" / "monsters.py", COMPONENT)
    edit(copy / "components" / "registry.py", *REGISTRY)
    edit(copy / "components" / "registry.py", *REGISTRY_ENTRY)


def run(copy: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=copy, capture_output=True, text=True, timeout=300)


def test_a_condition_added_by_the_recipe_is_whole_and_steers(copy: Path) -> None:
    add_component(copy)
    add_row(copy)
    played = run(copy, "-c", PLAY)
    assert played.returncode == 0, played.stderr
    assert "steered by the daze" in played.stdout
    walked = run(copy, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_conditions.py", "-k", "dazed")
    assert walked.returncode == 0, walked.stdout[-3000:]
    passed = re.search(r"(\d+) passed", walked.stdout)
    assert passed is not None and int(passed[1]) >= 7  # every check of a timed condition ran on the new row


def test_a_row_without_its_component_fails(copy: Path) -> None:
    add_row(copy)
    walked = run(copy, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_conditions.py")
    assert walked.returncode != 0
    assert "dazed" in walked.stdout
