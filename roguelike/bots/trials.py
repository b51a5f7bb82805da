"""Formulas tried for one balance run (``hedonic balance --try NAME=VALUE``), never in a real game.

A trial changes numbers of :mod:`roguelike.content.formulas` in the processes that play the
run's games, so a tuning idea can be measured on many seeds before it is written into the
code. Only a number read while a game plays can be tried: one built into something when its
module loads (a bestiary row, a default value, another formula's constant) would keep its old
value in the game while the report claimed the new one, so :func:`parse_trials` refuses it,
naming where it is built in. Balance games write no save and no replay, so nothing a trial
plays outlives the report, which names every value tried.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

from roguelike.content import formulas

Trial = tuple[tuple[str, Any], ...]  # (formula, value) pairs, in the order given

ROOT = Path(__file__).resolve().parents[2]
# Where the game and the bots read formulas: a formula these build in when they load is baked.
# Screens, frontends, servers, the coach, the tips' text and the wizard play no part in a balance
# game: what they build in does not matter here.
READERS = ("components", "systems", "roguelike")
NOT_PLAYED = (
    *(f"roguelike/{part}" for part in ("screens", "render", "frontend", "server", "cli", "coach")),
    "roguelike/content/tips.py",
    "roguelike/core/wizard.py",
)


def parse_trials(texts: list[str]) -> Trial:
    """``NAME=VALUE`` texts as a trial; ValueError naming the text that cannot be tried."""
    trial: dict[str, Any] = {}
    for text in texts:
        name, sign, literal = text.partition("=")
        name = name.strip()
        if not sign or not name.isupper() or not isinstance(getattr(formulas, name, None), (int, float, tuple)):
            raise ValueError(f"{text!r}: not NAME=VALUE with NAME a number or tuple of roguelike/content/formulas.py")
        trial[name] = checked_value(name, literal.strip())
        if name in baked():
            raise ValueError(
                f"{name} cannot be tried: it is built in when {baked()[name]} loads; change it in the code"
            )
    return tuple(trial.items())


def checked_value(name: str, literal: str) -> Any:
    """The value ``literal`` stands for, if it has the shape of the formula's own value."""
    try:
        value = ast.literal_eval(literal)
        value = tuple(value) if isinstance(value, list) else value  # [1, 2] as well as (1, 2)
    except (ValueError, SyntaxError):
        raise ValueError(f"{name}={literal}: the value is not a Python literal") from None
    if not fits(value, getattr(formulas, name)):
        raise ValueError(f"{name}={literal}: it must look like its value today, {getattr(formulas, name)!r}")
    return value


def fits(value: Any, today: Any) -> bool:
    """Whether ``value`` has the shape of ``today``'s: a tuple as long, element by element; a whole number
    where one is (the rules count in them), any number where a fraction is."""
    if isinstance(today, tuple):
        return isinstance(value, tuple) and len(value) == len(today) and all(map(fits, value, today))
    if isinstance(value, bool) or isinstance(today, bool):
        return False
    return isinstance(value, int) if isinstance(today, int) else isinstance(value, (int, float))


@contextmanager
def trying(trial: Trial) -> Iterator[None]:
    """The trial's formulas set in this process while a game plays, today's put back after."""
    today = [(name, getattr(formulas, name)) for name, _ in trial]
    try:
        for name, value in trial:
            setattr(formulas, name, value)
        yield
    finally:
        for name, value in today:
            setattr(formulas, name, value)


def describe(trial: Trial) -> list[str]:
    """The trial as the command line's ``--try`` options (a tuple read back from JSON is a list)."""
    return [
        f"--try {name}={repr(tuple(value) if isinstance(value, list) else value).replace(' ', '')}"
        for name, value in trial
    ]


@cache
def baked() -> dict[str, str]:
    """Each formula built in at load time, and the first file that does it."""
    found: dict[str, str] = {}
    for folder in READERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if str(path.relative_to(ROOT)).startswith(NOT_PLAYED):
                continue
            for name in load_time_uses(path):
                found.setdefault(name, str(path.relative_to(ROOT)))
    return found


def load_time_uses(path: Path) -> set[str]:
    """Formulas a module reads when it loads: outside function bodies (defaults and class bodies count)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    own = path.resolve() == Path(formulas.__file__).resolve()
    aliases = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "roguelike.content"
        for alias in node.names
        if alias.name == "formulas"
    }
    used: set[str] = set()
    for node in loading_nodes(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
            used.add(node.attr)
        elif own and isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id.isupper():
            used.add(node.id)
    return used


def loading_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node evaluated when a module loads: all but the bodies of functions and lambdas."""
    nodes: list[ast.AST] = []
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        nodes.append(node)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            pending += [*node.decorator_list, *node.args.defaults, *filter(None, node.args.kw_defaults)]
        elif not isinstance(node, ast.Lambda):
            pending += list(ast.iter_child_nodes(node))
    return nodes
