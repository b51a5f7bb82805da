"""The layer rule: a module imports only from its own layer or the layers below it.

Layers, lowest first (docs/architecture.md draws them):

    storage  <  ground, content, components  <  core + systems  <  saves, assist, bots  <  replay, settings
             <  render, scores, sound, coach  <  records  <  screens  <  frontend  <  cli

``storage`` is the floor: files written atomically, the data directory's names, player
files and file errors. Every layer may import it, and it imports nothing of the game but
the package's own name and version. No module finds a data directory by climbing from a
file (``path.parent.parent``): ``storage.datadir.DataDir`` names every folder and file in it.

The rules core (content, components, core, systems) is headless: it never imports a
frontend library (tcod's window, events or consoles, blessed). Above saves, nothing uses
esper directly: a game is read through ``Game`` and the world it owns. ``systems/`` holds
only scheduled systems: no system module imports another (what two systems share, such as
a strike or the step rule, is in the core); only ``systems/__init__`` gathers them.
``roguelike/ground`` is what the game and the score server share (the replay's frame, the
ranking rule, the pool of workers): it imports nothing else of the game, and the server
imports nothing of the game but it.
"""

from __future__ import annotations

import ast
import functools
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("roguelike", "components", "systems")
RANK = {
    "roguelike": -1,  # the package itself: its name and version
    "storage": -1,  # the floor: files, the data directory
    "ground": 0,  # what the score server shares with the game
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
    "records": 6,
    "screens": 7,
    "frontend": 8,
    "server": 8,
    "cli": 9,
    "__main__": 10,
}
HEADLESS = {"ground", "content", "components", "core", "systems", "assist"}
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


@functools.cache
def nodes(source: str) -> tuple[ast.AST, ...]:
    """Every node of a source's syntax tree, parsed and walked once a session (the checks only read them)."""
    return tuple(ast.walk(ast.parse(source)))


@pytest.fixture(autouse=True, scope="module")
def parse_once() -> Iterator[None]:
    """The syntax trees kept while this file's tests run, and let go after (tens of MB)."""
    yield
    nodes.cache_clear()


def imported(source: str) -> list[str]:
    """Every module a source imports, at the top or inside functions."""
    found = []
    for node in nodes(source):
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
        f"{module} imports {name}"
        for name in imported(source)
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
    broken = [
        v for module, path in our_modules().items() for v in system_violations(module, path.read_text(encoding="utf-8"))
    ]
    assert broken == []


@pytest.mark.parametrize(
    "line", ["from systems.combat import strike", "import systems.movement", "from systems import TURN"]
)
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
            prefixes = (".".join(parts[:k]) for k in range(len(parts), 0, -1))
            owner = next((prefix for prefix in prefixes if prefix in modules), None)
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
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [
        ["a", "b", "c", "a"],
        ["b", "c", "a", "b"],
        ["c", "a", "b", "c"],
    ]


WORLD_SWITCHES = ("switch_world", "delete_world", "current_world", "list_worlds")


def world_switches(source: str) -> list[str]:
    """esper's world switching used in a source (``esper.switch_world`` and the like)."""
    return [node.attr for node in nodes(source) if isinstance(node, ast.Attribute) and node.attr in WORLD_SWITCHES]


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


def imports_of_ours(prefix: str) -> dict[str, list[str]]:
    """The modules of ours that each module under ``prefix`` imports."""
    return {
        module: [name for name in imported(path.read_text(encoding="utf-8")) if layer_of(name) is not None]
        for module, path in our_modules().items()
        if module.startswith(prefix)
    }


def test_the_ground_imports_nothing_else_of_the_game() -> None:
    """The server's web process loads ``roguelike.ground`` without loading the game, so it stands on its own."""
    found = imports_of_ours("roguelike.ground")
    assert {"roguelike.ground.ranking", "roguelike.ground.replayframe", "roguelike.ground.pool"} <= set(found)
    assert [name for names in found.values() for name in names if not name.startswith("roguelike.ground")] == []


PLAYING = "roguelike.server.hosted.playing"
REHEARSAL = "roguelike.server.hosted.rehearsal"


def test_the_score_server_imports_nothing_of_the_game_but_the_ground_and_in_the_workers_job() -> None:
    """The web process verifies through a child (``hedonic replay --verify --json``) or a queue: it never loads the
    game. It may import only the server's own modules and ``roguelike.ground`` (the replay's frame, the ranking
    rule), which the game imports too. Only the RQ jobs, which run in a worker's work-horse, prove a replay and work
    out a daily's par with the game's own code, and a hosted game's process (``hosted.playing``, forked from the fork
    server, which preloads it and plays a game once before any fork: ``hosted.rehearsal``) plays the game; the web
    process names its entry (``hosted.gameproc``), never it."""
    found = imports_of_ours("roguelike.server")
    game_side = ("roguelike.server.job", PLAYING, REHEARSAL)
    web = [name for module, names in found.items() if module not in game_side for name in names]
    assert web and all(name.startswith(("roguelike.server", "roguelike.ground")) for name in web), web
    # Only the game process's entry imports it, inside the function the forked process runs (and the fork server's
    # rehearsal, which only the fork server imports).
    assert {module for module, names in found.items() if PLAYING in names} == {
        "roguelike.server.hosted.gameproc",
        REHEARSAL,
    }
    assert {module for module, names in found.items() if REHEARSAL in names} == set()
    assert any(name.startswith("roguelike.ground.ranking") for name in web)  # the board ranks as the hall does
    assert {name for name in found["roguelike.server.job"] if not name.startswith("roguelike.server")} == {
        "roguelike.scores.proof",
        "roguelike.scores.proof.prove_file",
        "roguelike.coach.par",
        "roguelike.coach.par.par",
        "roguelike.core.epoch",
        "roguelike.core.epoch.RULES_EPOCH",
        "roguelike.scores.daily",
        "roguelike.scores.daily.daily_seed",
    }


def test_storage_is_the_lowest_layer_importing_nothing_of_the_game() -> None:
    """Every layer may import storage, so it imports only the standard library, platformdirs and the package's
    own name and version (``roguelike``): never a layer above."""
    found = {
        module: imported(path.read_text(encoding="utf-8"))
        for module, path in our_modules().items()
        if layer_of(module) == "storage"
    }
    assert len(found) >= 5
    ours = {name for names in found.values() for name in names if layer_of(name) not in (None, "storage")}
    assert ours <= {"roguelike", "roguelike.APP_ID", "roguelike.__version__"}, ours
    assert {name.split(".")[0] for names in found.values() for name in names} - set(sys.stdlib_module_names) <= {
        "roguelike",
        "platformdirs",
    }


def climbs_two_folders(source: str) -> list[int]:
    """The lines of a source that take a path's ``.parent.parent``."""
    return [
        node.lineno
        for node in nodes(source)
        if isinstance(node, ast.Attribute)
        and node.attr == "parent"
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "parent"
    ]


def test_no_module_finds_the_data_directory_by_climbing_from_a_file() -> None:
    found = {module: climbs_two_folders(path.read_text(encoding="utf-8")) for module, path in our_modules().items()}
    assert {module: lines for module, lines in found.items() if lines} == {}


def test_climbing_two_folders_is_caught() -> None:
    assert climbs_two_folders("root = replay.parent.parent") == [1]
    assert climbs_two_folders("folder = replay.parent\nroot = DataDir.of_replay(replay)") == []


# The process-wide settings, keys and sound: who may read them (docs/architecture.md, "Settings and how
# the game looks"). Everything below the screens is handed what it needs as arguments; screens and
# frontends read them through roguelike.screens.ambient; the command line installs them.
AMBIENT = {
    "roguelike.settings": {"preferences", "current", "use"},
    "roguelike.sound": {"active", "use"},
    "roguelike.screens.bindings": {"active", "use"},
}
INSTALLERS = {"use"}
MAY_READ_AMBIENT = {"roguelike.screens.ambient"}
MAY_INSTALL_AMBIENT = {"roguelike.screens.ambient", "roguelike.cli.play", "roguelike.cli.looks"}


def ambient_calls(source: str) -> list[str]:
    """Calls in a source of the settings', keys' or sound's accessors (``settings.current()``, ``active()``...)."""
    modules: dict[str, str] = {}  # local name -> module of ours with accessors
    functions: dict[str, str] = {}  # local name -> "module.accessor"
    for node in nodes(source):
        if isinstance(node, ast.Import):
            modules.update({alias.asname or alias.name: alias.name for alias in node.names if alias.name in AMBIENT})
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                whole = f"{node.module}.{alias.name}"
                if whole in AMBIENT:
                    modules[alias.asname or alias.name] = whole
                elif alias.name in AMBIENT.get(node.module, ()):
                    functions[alias.asname or alias.name] = whole
    found = []
    for node in nodes(source):
        if not isinstance(node, ast.Call):
            continue
        called = node.func
        if isinstance(called, ast.Name) and called.id in functions:
            found.append(functions[called.id])
        elif isinstance(called, ast.Attribute):
            owner = ast.unparse(called.value)
            if modules.get(owner) is not None and called.attr in AMBIENT[modules[owner]]:
                found.append(f"{modules[owner]}.{called.attr}")
    return found


def ambient_violations(module: str, source: str) -> list[str]:
    """Reads (or installs) of the settings, keys or sound where this module may not."""
    return [
        f"{module} calls {call}"
        for call in ambient_calls(source)
        if module not in (MAY_INSTALL_AMBIENT if call.rsplit(".", 1)[1] in INSTALLERS else MAY_READ_AMBIENT)
    ]


def test_only_the_ambient_module_reads_the_settings_keys_and_sound_and_the_command_line_installs_them() -> None:
    modules = our_modules()
    assert ambient_calls(modules["roguelike.screens.ambient"].read_text(encoding="utf-8"))
    broken = [
        v for module, path in modules.items() for v in ambient_violations(module, path.read_text(encoding="utf-8"))
    ]
    assert broken == []


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("roguelike.render.draw", "from roguelike import settings\nsettings.current()"),
        ("roguelike.sound.audio", "import roguelike.settings\nroguelike.settings.preferences()"),
        ("roguelike.screens.ingame", "from roguelike.screens import bindings as keys\nkeys.active()"),
        ("roguelike.frontend.terminal", "def f():\n    from roguelike.sound import active\n    active().take_bell()"),
        ("roguelike.screens.rebind", "from roguelike.screens import bindings\nbindings.use(None)"),
    ],
)
def test_a_new_ambient_read_is_caught(module: str, source: str) -> None:
    assert ambient_violations(module, source)
    assert ambient_violations("roguelike.screens.ambient", source) == []
