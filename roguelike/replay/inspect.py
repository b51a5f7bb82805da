"""The whole game state at one turn of a replay, as readable JSON, and where two replays part.

``hedonic replay FILE --inspect N`` prints :func:`readable` of the game at turn N:
every entity with its components by their saved names and fields by name, every floor
summarised (tile counts, explored cells, stairs, dormant things by kind) and the
current floor's map as rows of text. ``hedonic replay --diff A B`` finds the first
step at which two replays of one seed differ and says what differs.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import numpy as np

from components.registry import SAVED_COMPONENTS
from roguelike.content.terrain import GLYPHS
from roguelike.core.floor import Floor, Tile
from roguelike.core.game import Game
from roguelike.core.snapshot import to_plain
from roguelike.replay.fileformat import Replay
from roguelike.replay.playback import Playback

Readable = dict[str, Any]


class NotThere(Exception):
    """The replay cannot show that turn (past its end, or it diverges before); says why."""


def game_at_turn(replay: Replay, turn: int) -> Playback:
    """The replay played to the first command that reaches ``turn``, checked on the way."""
    if not 0 <= turn <= replay.final_turn:
        raise NotThere(f"turn {turn} is not in the replay, which runs from turn 0 to {replay.final_turn}")
    playback = Playback(replay)
    playback.seek_turn(turn)
    if playback.diverged_at is not None:
        playback.close()
        raise NotThere(f"this game no longer plays the replay the same way (diverged at step {playback.diverged_at})")
    return playback


def readable(game: Game) -> Readable:
    """The game as JSON-ready values with names: what a developer reads to understand a state."""
    plain = to_plain(game)
    return {
        "name": plain["name"],
        "seed": plain["seed"],
        "turn": plain["turn"],
        "depth": plain["depth"],
        "rng": plain["rng"],
        "cause_of_death": plain["cause"],
        "player": plain["player"],
        "next_entity": plain["next_entity"],
        "origin": plain.get("origin"),
        "monsters_still": plain.get("monsters_still", False),  # wizard marks
        "messages": [{"turn": turn, "text": text} for turn, text in plain["messages"]],
        "entities": [{"id": entity, **named(packed)} for entity, packed in plain["entities"]],
        "floors": [floor_summary(game.state.floors[depth], game.state.depth) for depth in sorted(game.state.floors)],
    }


def named(packed: list[Any]) -> dict[str, Any]:
    """A packed entity's components by name, each a table of its fields by name."""
    found: dict[str, Any] = {}
    for name, values in packed:
        fields = [field.name for field in dataclasses.fields(SAVED_COMPONENTS[name])]
        found[name] = {field: plain_value(value) for field, value in zip(fields, values)}
    return found


def plain_value(value: Any) -> Any:
    """A field value as JSON has it (tuples as lists, copies rather than the game's own)."""
    if isinstance(value, (list, tuple)):
        return [plain_value(item) for item in value]
    if isinstance(value, dict):
        return {str(key): plain_value(item) for key, item in value.items()}
    return value


def floor_summary(floor: Floor, current: int) -> Readable:
    """A floor in a few lines: tiles by kind, explored cells, stairs, dormant things; the map if current."""
    tiles = Counter(Tile(value).name.lower() for value in floor.tiles.ravel().tolist())
    dormant = Counter(kind_of(dict(entity)) for entity in floor.dormant)
    summary: Readable = {
        "depth": floor.depth,
        "tiles": dict(sorted(tiles.items())),
        "explored": int(np.count_nonzero(floor.explored)),
        "down": list(floor.down_stairs),
        "up": list(floor.up_stairs) if floor.up_stairs else None,
        "arrival": list(floor.arrival),
        "dormant": dict(sorted(dormant.items())),
    }
    if floor.depth == current:
        summary["map"] = ["".join(GLYPHS[value] for value in row) for row in floor.tiles.tolist()]
    return summary


def kind_of(components: dict[str, Any]) -> str:
    """What a packed entity is, in a word: ``monster:Hunger``, ``dose:small``, or its components."""
    for name in ("monster", "dose"):
        if name in components:
            return f"{name}:{components[name][0]}"
    return "+".join(sorted(components))


def differences(left: Any, right: Any, where: str = "", limit: int = 20) -> list[str]:
    """Where two readable states differ, one line each (at most ``limit``)."""
    found: list[str] = []
    walk(left, right, where, found, limit)
    return found


def walk(left: Any, right: Any, where: str, found: list[str], limit: int) -> None:
    """Compare recursively, noting leaves that differ."""
    if len(found) >= limit or left == right:
        return
    if by_id(left) and by_id(right):  # entities: matched by id, so one removed shifts nothing
        left, right = ({f"#{item['id']}": item for item in side} for side in (left, right))
    if isinstance(left, dict) and isinstance(right, dict):
        for key in list(left) + [key for key in right if key not in left]:
            walk(
                left.get(key, "(absent)"),
                right.get(key, "(absent)"),
                f"{where}.{key}" if where else str(key),
                found,
                limit,
            )
    elif isinstance(left, list) and isinstance(right, list) and len(left) == len(right):
        for index, (a, b) in enumerate(zip(left, right)):
            walk(a, b, f"{where}[{index}]", found, limit)
    else:
        found.append(f"{where}: {short(left)} vs {short(right)}")


def by_id(value: Any) -> bool:
    """Whether a value is a list of tables with ids (the entities)."""
    return isinstance(value, list) and bool(value) and all(isinstance(item, dict) and "id" in item for item in value)


def short(value: Any, limit: int = 70) -> str:
    """A value on part of one line."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
