"""The player's settings as typed values: palette, motion, glyphs, tile size, fullscreen, scaling, sound, and more.

Settings change how the game looks, never what happens in it: they stay out of saves,
replays and checksums. Each option is a small enum (or a tile size from a fixed list),
so the renderer and the frontends read plain typed values.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Any

from roguelike.content.interrupts import ALL_DISTURBANCES, Disturbance


class PaletteName(enum.Enum):
    """Which colours the game draws with."""

    CLASSIC = "classic"
    COLOURBLIND = "colourblind"
    GREYSCALE = "greyscale"
    CONTRAST = "contrast"


class Motion(enum.Enum):
    """How much the screen may move and flash.

    The renderer reads this one value: ``FULL`` allows every effect, ``REDUCED`` (the
    default) keeps any flashing over a large area to at most :data:`MAX_FLASHES_PER_SECOND`
    (the usual photosensitivity guideline), ``NONE`` draws nothing that moves by itself.
    """

    FULL = "full"
    REDUCED = "reduced"
    NONE = "none"

    @property
    def moves(self) -> bool:
        """Whether anything may change on screen with time alone."""
        return self is not Motion.NONE

    @property
    def max_flashes_per_second(self) -> float | None:
        """The most flashes a second over a large area (None: no limit)."""
        return {Motion.FULL: None, Motion.REDUCED: MAX_FLASHES_PER_SECOND, Motion.NONE: 0.0}[self]

    @property
    def swirl_speed(self) -> float:
        """How fast the High hue swirl turns, in radians a second (0: it stands still)."""
        return {Motion.FULL: 4.0, Motion.REDUCED: 2.0, Motion.NONE: 0.0}[self]


# Flashes a second over a large area that reduced motion never exceeds (WCAG 2.3.1).
MAX_FLASHES_PER_SECOND = 3.0


class Glyphs(enum.Enum):
    """Whether the map uses Unicode symbols or plain ASCII."""

    UNICODE = "unicode"
    ASCII = "ascii"


class Scaling(enum.Enum):
    """How the 80x25 console fills a fullscreen (or enlarged) window."""

    INTEGER = "integer"  # whole multiples of the tile size: crisp, maybe with borders
    FIT = "fit"  # as large as fits, keeping the aspect: no borders on one axis, softer


@dataclass(frozen=True, order=True)
class TileSize:
    """A cell of the window in pixels; the font is loaded at the height."""

    width: int
    height: int

    def __str__(self) -> str:
        return f"{self.width}x{self.height}"

    def window(self, columns: int = 80, rows: int = 25) -> tuple[int, int]:
        """The pixels an 80x25 console takes at this size."""
        return self.width * columns, self.height * rows


# DejaVu Sans Mono's cell is about 0.6 of its height (checked by tests against the font).
# The smallest fits 80x25 inside 800x600; the largest fills 1920x1080.
TILE_SIZES: tuple[TileSize, ...] = (
    TileSize(10, 18),
    TileSize(11, 20),
    TileSize(14, 24),
    TileSize(16, 28),
    TileSize(19, 34),
    TileSize(22, 40),
    TileSize(24, 43),
)
DEFAULT_TILES = TileSize(11, 20)


# Room a window's frame and title bar take around the console, in pixels.
WINDOW_FRAME = (0, 36)


def largest_fitting(width: int, height: int) -> TileSize:
    """The largest listed tile size whose window fits a screen area (else the smallest)."""
    fitting = [size for size in TILE_SIZES if fits(size, (width, height))]
    return max(fitting) if fitting else min(TILE_SIZES)


def fits(size: TileSize, area: tuple[int, int]) -> bool:
    """Whether the 80x25 window of a tile size, with its frame, fits a screen area."""
    width, height = size.window()
    return width + WINDOW_FRAME[0] <= area[0] and height + WINDOW_FRAME[1] <= area[1]


def tiles_in_use(chosen: TileSize, area: tuple[int, int] | None) -> TileSize:
    """The tile size a window uses: the chosen one, or if its window would not fit the screen
    (when the screen is known), the largest that does (a window past the screen's edge is clipped)."""
    if area is None or fits(chosen, area):
        return chosen
    return min(chosen, largest_fitting(*area))


def tile_size(text: str) -> TileSize:
    """The listed tile size written ``WxH``; ValueError names the sizes there are."""
    for size in TILE_SIZES:
        if str(size) == text.strip().lower():
            return size
    raise ValueError(f"{text!r} is not a tile size; the sizes are {', '.join(map(str, TILE_SIZES))}")


@dataclass(frozen=True)
class WindowPlace:
    """Where the window was and how large, remembered between runs."""

    x: int
    y: int
    width: int
    height: int


@dataclass(frozen=True)
class Settings:
    """Everything the player can set."""

    palette: PaletteName = PaletteName.CLASSIC
    motion: Motion = Motion.REDUCED
    glyphs: Glyphs = Glyphs.UNICODE
    tiles: TileSize = DEFAULT_TILES
    fullscreen: bool = False
    scaling: Scaling = Scaling.INTEGER
    window: WindowPlace | None = None
    interrupts: frozenset[Disturbance] = ALL_DISTURBANCES  # what stops auto-explore, travel, rest
    confirm_lethal: bool = True  # a step into a dose that could overdose asks first
    volume: int = 60  # master volume in percent, one of VOLUMES (0: silent)
    sound_effects: bool = True
    drone: bool = True  # the State of Mind you can hear
    bell: bool = False  # in a terminal, the bell when the State of Mind comes near overdose

    def with_value(self, name: str, value: Any) -> Settings:
        """A copy with one option changed."""
        return replace(self, **{name: value})


# The options a player changes on the Settings screen, in its order, with their choices.
CHOICES: dict[str, tuple[Any, ...]] = {
    "palette": tuple(PaletteName),
    "motion": tuple(Motion),
    "glyphs": tuple(Glyphs),
    "tiles": TILE_SIZES,
    "fullscreen": (False, True),
    "scaling": tuple(Scaling),
    "confirm_lethal": (True, False),
}


# The volumes the Settings screen steps through, in percent.
VOLUMES: tuple[int, ...] = tuple(range(0, 101, 10))
# The options of the Sound page, in its order, with their choices.
SOUND_CHOICES: dict[str, tuple[Any, ...]] = {
    "volume": VOLUMES,
    "sound_effects": (False, True),
    "drone": (False, True),
    "bell": (False, True),
}


def next_choice(settings: Settings, name: str, step: int = 1) -> Any:
    """The choice after (or before, with ``step`` -1) the current one of an option."""
    choices = CHOICES[name] if name in CHOICES else SOUND_CHOICES[name]
    current = getattr(settings, name)
    index = choices.index(current) if current in choices else -step
    return choices[(index + step) % len(choices)]
