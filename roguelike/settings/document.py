"""Settings as a human-readable JSON document, and back, saying what is wrong with each value.

Reading never fails: a value that is missing takes its default, a value that is wrong
takes its default and adds a problem (naming the key and what is wrong), and a key this
version does not know is kept as it was, so a newer game's settings survive an older one.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from roguelike.content.interrupts import Disturbance
from roguelike.settings.options import (
    Glyphs,
    Motion,
    PaletteName,
    Scaling,
    Settings,
    TileSize,
    WindowPlace,
    tile_size,
)

FORMAT_VERSION = 1
VERSION_KEY = "version"
WINDOW_KEYS = ("x", "y", "width", "height")
# Generous for a few keys, small enough that a wrong file is not read into memory whole.
MAX_BYTES = 64 * 1024


@dataclass(frozen=True)
class Reading:
    """What a settings document held: the settings, what was wrong, and keys kept unread."""

    settings: Settings
    problems: tuple[str, ...] = ()
    unknown: tuple[tuple[str, Any], ...] = ()
    given: frozenset[str] = frozenset()  # the settings the file gave (and that could be read)


class Wrong(ValueError):
    """One value cannot be used, and why."""


def enum_value(kind: type[enum.Enum]) -> Callable[[Any], Any]:
    """A reader of one enum's values, written as their names in the file."""

    def read(value: Any) -> Any:
        for member in kind:
            if member.value == value:
                return member
        names = ", ".join(str(member.value) for member in kind)
        raise Wrong(f"{json.dumps(value)} is not one of {names}")

    return read


def read_tiles(value: Any) -> TileSize:
    """A tile size written ``"WxH"``."""
    if not isinstance(value, str):
        raise Wrong(f'{json.dumps(value)} is not a tile size written like "11x20"')
    try:
        return tile_size(value)
    except ValueError as error:
        raise Wrong(str(error)) from None


def read_bool(value: Any) -> bool:
    """``true`` or ``false``."""
    if not isinstance(value, bool):
        raise Wrong(f"{json.dumps(value)} is not true or false")
    return value


def read_window(value: Any) -> WindowPlace | None:
    """``{"x": .., "y": .., "width": .., "height": ..}`` in pixels, or null."""
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != set(WINDOW_KEYS):
        raise Wrong(f"expected an object with {', '.join(WINDOW_KEYS)}")
    numbers = [value[key] for key in WINDOW_KEYS]
    if not all(type(number) is int and abs(number) < 1 << 16 for number in numbers):
        raise Wrong("the window's place and size must be whole numbers of pixels")
    place = WindowPlace(*numbers)
    if place.width <= 0 or place.height <= 0:
        raise Wrong("the window's size must be positive")
    return place


def read_volume(value: Any) -> int:
    """A volume in percent, a whole number from 0 to 100."""
    if type(value) is not int or not 0 <= value <= 100:
        raise Wrong(f"{json.dumps(value)} is not a volume from 0 to 100")
    return value


def read_interrupts(value: Any) -> frozenset[Disturbance]:
    """The kinds of change that stop automation: a list of their names."""
    if not isinstance(value, list):
        raise Wrong(f'{json.dumps(value)} is not a list of names like ["monster", "dose"]')
    read = enum_value(Disturbance)
    return frozenset(read(name) for name in value)


READERS: dict[str, Callable[[Any], Any]] = {
    "palette": enum_value(PaletteName),
    "motion": enum_value(Motion),
    "glyphs": enum_value(Glyphs),
    "tiles": read_tiles,
    "fullscreen": read_bool,
    "scaling": enum_value(Scaling),
    "window": read_window,
    "interrupts": read_interrupts,
    "confirm_lethal": read_bool,
    "volume": read_volume,
    "sound_effects": read_bool,
    "drone": read_bool,
    "bell": read_bool,
}
assert set(READERS) == {f.name for f in fields(Settings)}, "every setting needs a reader"


def write_value(value: Any) -> Any:
    """A setting as it is written in the file."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, TileSize):
        return str(value)
    if isinstance(value, WindowPlace):
        return {key: getattr(value, key) for key in WINDOW_KEYS}
    if isinstance(value, frozenset):
        return [kind.value for kind in Disturbance if kind in value]
    return value


def to_text(
    settings: Settings, unknown: tuple[tuple[str, Any], ...] = (), left_out: frozenset[str] = frozenset()
) -> str:
    """The settings file's text: our keys in a fixed order (but ``left_out``), then the keys we did not know."""
    document: dict[str, Any] = {VERSION_KEY: FORMAT_VERSION}
    for name in READERS:
        value = getattr(settings, name)
        if value is not None and name not in left_out:
            document[name] = write_value(value)
    document.update(unknown)
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def from_bytes(data: bytes) -> Reading:
    """Read a settings file's bytes; anything unusable becomes a problem and a default."""
    if len(data) > MAX_BYTES:
        return Reading(Settings(), (f"it is larger than {MAX_BYTES // 1024} KB, too large for settings",))
    try:
        document = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        return Reading(Settings(), (f"byte {error.start} is not UTF-8 text",))
    except json.JSONDecodeError as error:
        return Reading(Settings(), (f"not valid JSON at line {error.lineno}, column {error.colno}: {error.msg}",))
    except RecursionError:
        return Reading(Settings(), ("it is nested too deeply to be settings",))
    except ValueError:  # not JSONDecodeError: Python's limit on the digits of a number read from text
        return Reading(Settings(), ("it holds a number too long to be a setting",))
    if not isinstance(document, dict):
        return Reading(Settings(), ("it holds no settings (a JSON object {...} was expected)",))
    return from_document(document)


def from_document(document: dict[str, Any]) -> Reading:
    """Settings from a parsed JSON object."""
    values: dict[str, Any] = {}
    problems: list[str] = []
    version = document.get(VERSION_KEY, FORMAT_VERSION)
    if type(version) is not int:
        problems.append(f"{VERSION_KEY}: {json.dumps(version)} is not a whole number")
    for name, read in READERS.items():
        if name not in document:
            continue
        try:
            values[name] = read(document[name])
        except Wrong as error:
            problems.append(f"{name}: {error}")
    unknown = tuple((key, value) for key, value in document.items() if key not in READERS and key != VERSION_KEY)
    if type(version) is int and version > FORMAT_VERSION:
        unknown = ((VERSION_KEY, version), *unknown)  # a newer game's file stays marked as its own
    return Reading(Settings(**values), tuple(problems), unknown, frozenset(values))
