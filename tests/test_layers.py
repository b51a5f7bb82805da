"""The layer rule: a module imports only from its own layer or the layers below it.

Layers, lowest first (docs/architecture.md draws them):

    content, components  <  core + systems  <  saves, assist, bots  <  replay, settings  <  render, sound, coach
                         <  screens  <  frontend  <  cli

The rules core (content, components, core, systems) is headless: it never imports a
frontend library (tcod's window, events or consoles, blessed). Above saves, nothing uses
esper directly: a game is read through ``Game`` and the world it owns. ``systems/`` holds
only scheduled systems: no system module imports another (what two systems share, such as
a strike or the step rule, is in the core); only ``systems/__init__`` gathers them.
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
    "assist": 3,
    "bots": 3,
    "replay": 4,
    "runtimes": 4,
    "settings": 4,
    "coach": 5,
    "render": 5,
    "scores": 5,
    "sound": 5,
    "screens": 6,
    "frontend": 7,
    "server": 7,
    "cli": 8,
    "__main__": 9,
}
HEADLESS = {"content", "components", "core", "systems", "assist"}
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


def system_violations(module: str, source: str) -> list[str]:
    """Imports of one system module from another (only the schedule, ``systems``, gathers them)."""
    if not module.startswith("systems."):
        return []
    return [
        f"{module} imports {name}" for name in imported(source)
        if name.split(".")[0] == "systems" and name.split(".")[:2] != module.split(".")[:2]
    ]


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


def test_no_system_module_imports_another() -> None:
    broken = [v for module, path in our_modules().items()
              for v in system_violations(module, path.read_text(encoding="utf-8"))]
    assert broken == []


@pytest.mark.parametrize("line", ["from systems.combat import strike", "import systems.movement", "from systems import TURN"])
def test_a_system_importing_another_is_caught(line: str) -> None:
    assert system_violations("systems.monsters", line)
    assert system_violations("roguelike.core.game", line) == []


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Which of the game's modules each module imports (anywhere in it)."""
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        found = set()
        for name in imported(path.read_text(encoding="utf-8")):
            parts = name.split(".")
            owner = next((".".join(parts[:k]) for k in range(len(parts), 0, -1) if ".".join(parts[:k]) in modules), None)
            if owner is not None and owner != module:
                found.add(owner)
        graph[module] = found
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every module that can reach itself through the imports, with the circle it closes."""
    found = []
    for start in sorted(graph):
        seen, path = set(), [start]
        stack = [(start, iter(sorted(graph[start])))]
        while stack:
            _, todo = stack[-1]
            step = next(todo, None)
            if step is None:
                stack.pop()
                path.pop()
            elif step == start:
                found.append(path + [start])
                break
            elif step not in seen:
                seen.add(step)
                path.append(step)
                stack.append((step, iter(sorted(graph[step]))))
    return found


def test_no_modules_import_each_other_round_a_circle() -> None:
    assert circles(import_graph(our_modules())) == []


def test_an_import_circle_is_found() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"], ["b", "c", "a", "b"],
                                                                         ["c", "a", "b", "c"]]


WORLD_SWITCHES = ("switch_world", "delete_world", "current_world", "list_worlds")


def world_switches(source: str) -> list[str]:
    """esper's world switching used in a source (``esper.switch_world`` and the like)."""
    return [node.attr for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Attribute) and node.attr in WORLD_SWITCHES]


def test_only_ecsworld_switches_esper_between_worlds() -> None:
    found = {module: world_switches(path.read_text(encoding="utf-8")) for module, path in our_modules().items()}
    assert [module for module, switches in found.items() if switches] == ["roguelike.core.ecsworld"]


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


def test_the_score_server_imports_nothing_of_the_game_but_in_the_workers_job() -> None:
    """The web process verifies through a child (``hedonic replay --verify --json``) or a queue: it never loads the
    game. Only the RQ job, which runs in a worker's work-horse, proves a replay with the game's own code."""
    found = {module: [name for name in imported(path.read_text(encoding="utf-8")) if layer_of(name) is not None]
             for module, path in our_modules().items() if module.startswith("roguelike.server")}
    web = [name for module, names in found.items() if module != "roguelike.server.job" for name in names]
    assert web and all(name.startswith("roguelike.server") for name in web), web
    assert {name for name in found["roguelike.server.job"] if not name.startswith("roguelike.server")} == {
        "roguelike.scores.proof", "roguelike.scores.proof.prove_file"}
