"""The layer rule: a module imports only from its own layer or the layers below it.

Layers, lowest first (docs/architecture.md draws them):

    content, components  <  core + systems  <  saves, bots  <  replay, settings  <  render, sound
                         <  screens  <  frontend  <  cli

The rules core (content, components, core, systems) is headless: it never imports a
frontend library (tcod's window, events or consoles, blessed). Above saves, nothing uses
esper directly: a game is read through ``Game`` and the world it owns.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("roguelike", "components", "systems")
RANK = {
    "roguelike": 0,  # the package itself: its version
    "content": 0,
    "components": 1,
    "core": 2,
    "systems": 2,
    "saves": 3,
    "bots": 3,
    "replay": 4,
    "runtimes": 4,
    "settings": 4,
    "render": 5,
    "scores": 5,
    "sound": 5,
    "screens": 6,
    "frontend": 7,
    "cli": 8,
    "__main__": 9,
}
HEADLESS = {"content", "components", "core", "systems"}
FRONTEND_LIBRARIES = ("tcod.context", "tcod.event", "tcod.sdl", "tcod.console", "tcod.tileset", "blessed")
ESPER_LAYERS = {"core", "systems", "saves"}


def layer_of(module: str) -> str | None:
    """The layer of a module of ours, by its dotted name (None for other libraries)."""
    parts = module.split(".")
    if parts[0] in ("components", "systems"):
        return parts[0]
    if parts[0] == "roguelike":
        return parts[1] if len(parts) > 1 and parts[1] in RANK else "roguelike"
    return None


def imported(source: str) -> list[str]:
    """Every module a source imports, at the top or inside functions."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
            found += [f"{node.module}.{alias.name}" for alias in node.names]
    return found


def violations(module: str, source: str) -> list[str]:
    """The imports of ``module`` that break the layer rule."""
    own = layer_of(module)
    assert own is not None, module
    broken = []
    for name in imported(source):
        other = layer_of(name)
        if other is not None and RANK[other] > RANK[own]:
            broken.append(f"{module} ({own}) imports {name} ({other})")
        if own in HEADLESS and name.startswith(FRONTEND_LIBRARIES):
            broken.append(f"{module} is headless but imports {name}")
        if own not in ESPER_LAYERS and name.split(".")[0] == "esper":
            broken.append(f"{module} ({own}) uses esper directly")
    return broken


def our_modules() -> dict[str, Path]:
    """Every module of the game by dotted name."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def test_every_module_imports_only_its_own_layer_or_below() -> None:
    modules = our_modules()
    assert len(modules) > 100
    broken = [v for module, path in modules.items() for v in violations(module, path.read_text(encoding="utf-8"))]
    assert broken == []


def test_every_package_of_the_game_has_a_layer() -> None:
    packages = {layer_of(module) for module in our_modules()}
    assert packages == set(RANK)


@pytest.mark.parametrize(
    ("module", "line"),
    [
        ("roguelike.core.game", "from roguelike.render.draw import draw_game"),
        ("systems.movement", "import tcod.context"),
        ("components.actors", "from blessed import Terminal"),
        ("roguelike.core.world", "def f():\n    from roguelike.screens import ingame"),
        ("roguelike.saves.games", "from roguelike.replay.recorder import recording_observers"),
        ("roguelike.render.draw", "import esper"),
        ("roguelike.content.formulas", "from components import Position"),
    ],
)
def test_an_upward_or_frontend_import_is_caught(module: str, line: str) -> None:
    assert violations(module, line)


def test_imports_downward_and_of_other_libraries_pass() -> None:
    assert violations("roguelike.cli.main", "import roguelike.frontend.window\nfrom systems import TURN") == []
    assert violations("systems.monsters", "import numpy\nimport tcod.path\nfrom roguelike.core.hunt import Hunt") == []
