"""Colour maths for the State-of-Mind palette, and the player's palettes (their slots).

Greyness and darkness come from the saved :class:`~components.Palette`; the psychedelic
hue swirl when High is cosmetic and driven by wall time only. The player's palette
(:class:`Scheme`: classic, colour-blind, greyscale, high contrast) gives every colour
with a meaning a :class:`Slot`; screens that draw such a colour read it from the
palette in force (``scheme_for(chosen.palette)``, handed down in a ``Look``).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.content.doses import DOSE_KINDS
from roguelike.content.finds import FIND_KINDS
from roguelike.content.terrain import by_value
from roguelike.render.greys import distinct_greys, monster_greys
from roguelike.settings import PaletteName

LUMA = np.array([0.299, 0.587, 0.114], dtype=np.float32)
FloatRGB = NDArray[np.float32]


def shade(rgb: FloatRGB, saturation: float, brightness: float) -> FloatRGB:
    """Desaturate toward grey and scale the brightness of ``(..., 3)`` colours."""
    grey = (rgb @ LUMA)[..., None]
    result: FloatRGB = ((grey + (rgb - grey) * saturation) * brightness).astype(np.float32)
    return result


def swirl(rgb: FloatRGB, phase: float, swing: float) -> FloatRGB:
    """Rotate hues by up to ``swing`` radians, in waves that flow across the ``[y, x, 3]`` grid."""
    height, width = rgb.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width]
    angle = (swing * np.sin(phase + (xs + ys) * 0.35)).astype(np.float32)
    return rotate_hue(rgb, angle)


def rotate_hue(rgb: FloatRGB, angle: NDArray[np.float32]) -> FloatRGB:
    """Rotate the hue of each colour by its angle (radians), keeping its luminance."""
    cos, sin = np.cos(angle)[..., None], np.sin(angle)[..., None]
    k = np.float32(1 / np.sqrt(3))
    cross = np.stack(
        [k * (rgb[..., 2] - rgb[..., 1]), k * (rgb[..., 0] - rgb[..., 2]), k * (rgb[..., 1] - rgb[..., 0])],
        axis=-1,
    )
    dot = (rgb.sum(axis=-1, keepdims=True) * k) * k
    result: FloatRGB = (rgb * cos - cross * sin + dot * (1 - cos)).astype(np.float32)
    return result


def to_bytes(rgb: FloatRGB) -> NDArray[np.uint8]:
    """Float colours clipped into 0..255 bytes."""
    result: NDArray[np.uint8] = np.clip(rgb, 0, 255).astype(np.uint8)
    return result


class Slot(enum.Enum):
    """A colour with a meaning; every palette gives each one its own RGB."""

    WALL_FG = "wall_fg"
    WALL_BG = "wall_bg"
    FLOOR_FG = "floor_fg"
    FLOOR_BG = "floor_bg"
    DOOR_FG = "door_fg"
    DOOR_BG = "door_bg"
    STAIRS_FG = "stairs_fg"
    STAIRS_BG = "stairs_bg"
    CREEPING_FG = "creeping_fg"  # a creeping wall's glyph, open (on the floor's ground) or shut (on the wall's)
    VEIL_FG = "veil_fg"  # a veil's glyph, shut or open
    DESPERATE = "Desperate"  # the mood bands, named as the panel names them
    WITHDRAWAL = "Withdrawal"
    SOBER = "Sober"
    HIGH = "High"
    BAR_EMPTY = "bar_empty"
    BAR_MARK = "bar_mark"
    PANEL_BG = "panel_bg"
    TEXT = "text"
    TAKEOVER = "takeover"
    PULL_ZONE = "pull_zone"  # background tint of the cells where a dose pulls a weak Will
    SAND_FG = "sand_fg"  # the climates' terrains: grounds stay dark so what stands on them reads
    DUNE_FG = "dune_fg"
    WATER_FG = "water_fg"
    WATER_BG = "water_bg"
    DEEP_FG = "deep_fg"
    DEEP_BG = "deep_bg"
    BRIDGE_FG = "bridge_fg"
    ICE_FG = "ice_fg"
    ICE_BG = "ice_bg"
    SNOW_FG = "snow_fg"


RGB = tuple[int, int, int]
# Each tile value's colour and background slots, as the terrain table names their roles.
TILE_SLOTS = tuple((Slot(row.colour_role), Slot(row.background_role)) for row in by_value())
MOOD_SLOTS = (Slot.DESPERATE, Slot.WITHDRAWAL, Slot.SOBER, Slot.HIGH)


@dataclass(frozen=True)
class Scheme:
    """One palette: an RGB for every slot and every kind of thing, and how the screen is finished.

    ``kinds`` is keyed by the content key (``"player"``, a dose kind's or a monster
    kind's key); a kind missing from it keeps the colour its content table gives it.
    A greyscale scheme also turns every other colour on the screen (menus, titles) grey;
    high contrast keeps the map bright however low the State of Mind.
    """

    name: PaletteName
    slots: Mapping[Slot, RGB]
    kinds: Mapping[str, RGB]
    grey_screen: bool = False
    least_brightness: float = 0.0  # how dark the State of Mind may make the map

    def __getitem__(self, slot: Slot) -> RGB:
        return self.slots[slot]

    def tile_colours(self) -> tuple[FloatRGB, FloatRGB]:
        """Foreground and background of every Tile value, as arrays indexed by tile (the terrain's roles)."""
        fg = [self[fore] for fore, _ in TILE_SLOTS]
        bg = [self[back] for _, back in TILE_SLOTS]
        return np.array(fg, dtype=np.float32), np.array(bg, dtype=np.float32)

    def kind_colour(self, key: str | None, base: RGB) -> RGB:
        """The colour of a kind of thing, or its content colour when this palette has none."""
        return self.kinds.get(key, base) if key is not None else base

    def finish(self, fg: NDArray[np.uint8], bg: NDArray[np.uint8]) -> None:
        """Turn a whole frame's colours into the palette's (in place): grey for greyscale."""
        if self.grey_screen:
            for layer in (fg, bg):
                grey = (layer.astype(np.float32) @ LUMA).astype(np.uint8)
                layer[...] = grey[..., None]


def grey(level: int) -> RGB:
    """A neutral grey."""
    return (level, level, level)


CLASSIC = Scheme(
    PaletteName.CLASSIC,
    {
        Slot.WALL_FG: (150, 110, 80),
        Slot.WALL_BG: (70, 45, 35),
        Slot.FLOOR_FG: (110, 110, 140),
        Slot.FLOOR_BG: (18, 18, 30),
        Slot.DOOR_FG: (210, 150, 60),
        Slot.DOOR_BG: (60, 40, 20),
        Slot.STAIRS_FG: (255, 255, 120),
        Slot.STAIRS_BG: (40, 40, 70),
        Slot.CREEPING_FG: (160, 150, 70),
        Slot.VEIL_FG: (200, 120, 230),
        Slot.DESPERATE: (220, 40, 40),
        Slot.WITHDRAWAL: (110, 120, 150),
        Slot.SOBER: (90, 200, 120),
        Slot.HIGH: (255, 80, 230),
        Slot.BAR_EMPTY: (40, 38, 50),
        Slot.BAR_MARK: (230, 230, 230),
        Slot.PANEL_BG: (12, 10, 22),
        Slot.TEXT: (200, 200, 210),
        Slot.TAKEOVER: (255, 120, 80),
        Slot.PULL_ZONE: (48, 22, 48),
        Slot.SAND_FG: (200, 170, 100),
        Slot.DUNE_FG: (230, 190, 110),
        Slot.WATER_FG: (90, 160, 220),
        Slot.WATER_BG: (14, 30, 52),
        Slot.DEEP_FG: (50, 90, 200),
        Slot.DEEP_BG: (8, 16, 60),
        Slot.BRIDGE_FG: (170, 120, 70),
        Slot.ICE_FG: (170, 230, 250),
        Slot.ICE_BG: (30, 48, 62),
        Slot.SNOW_FG: (225, 225, 235),
    },
    {},
)

# After Paul Tol's colour-blind safe schemes, lightened for a dark background, and
# checked by the tests under simulated protanopia, deuteranopia and tritanopia.
COLOURBLIND = Scheme(
    PaletteName.COLOURBLIND,
    {
        Slot.WALL_FG: (130, 122, 115),
        Slot.WALL_BG: (60, 55, 50),
        Slot.FLOOR_FG: (95, 100, 115),
        Slot.FLOOR_BG: (16, 16, 24),
        Slot.DOOR_FG: (238, 170, 70),
        Slot.DOOR_BG: (70, 50, 20),
        Slot.STAIRS_FG: (255, 255, 255),
        Slot.STAIRS_BG: (30, 60, 110),
        Slot.CREEPING_FG: (190, 160, 110),
        Slot.VEIL_FG: (170, 150, 255),
        Slot.DESPERATE: (204, 51, 17),
        Slot.WITHDRAWAL: (120, 120, 135),
        Slot.SOBER: (51, 150, 255),
        Slot.HIGH: (255, 221, 70),
        Slot.BAR_EMPTY: (36, 36, 44),
        Slot.BAR_MARK: (255, 255, 255),
        Slot.PANEL_BG: (10, 10, 18),
        Slot.TEXT: (210, 210, 215),
        Slot.TAKEOVER: (238, 119, 51),
        Slot.PULL_ZONE: (70, 55, 10),
        Slot.SAND_FG: (204, 187, 68),
        Slot.DUNE_FG: (238, 221, 136),
        Slot.WATER_FG: (68, 170, 238),
        Slot.WATER_BG: (12, 30, 56),
        Slot.DEEP_FG: (51, 102, 204),
        Slot.DEEP_BG: (6, 16, 64),
        Slot.BRIDGE_FG: (187, 136, 85),
        Slot.ICE_FG: (187, 238, 255),
        Slot.ICE_BG: (28, 46, 60),
        Slot.SNOW_FG: (230, 230, 230),
    },
    {
        "player": (255, 255, 255),
        "dose": (255, 120, 255),
        "strong_dose": (120, 255, 255),
        "small_dose": (255, 200, 255),
        "extra_large_dose": (255, 255, 140),
        "cardinal_dose": (255, 190, 80),
        "diagonal_dose": (150, 255, 120),
        "depression": (80, 130, 255),
        "hunger": (238, 119, 51),
        "anxiety": (238, 221, 136),
        "voices": (140, 100, 140),
        "shadows": (187, 187, 187),
        "regret": (51, 187, 238),
        "doubt": (175, 95, 0),
        "shame": (135, 0, 0),
        "sorrow": (0, 0, 135),
        "clarity": (255, 255, 255),
        "calm": (120, 200, 255),
        "insight": (255, 200, 40),
    },
)

GREYSCALE_FLOOR = 12  # the floor's ground, which every monster's grey must stand out from
GREYSCALE = Scheme(
    PaletteName.GREYSCALE,
    {
        Slot.WALL_FG: grey(140),
        Slot.WALL_BG: grey(66),
        Slot.FLOOR_FG: grey(100),
        Slot.FLOOR_BG: grey(GREYSCALE_FLOOR),
        Slot.DOOR_FG: grey(200),
        Slot.DOOR_BG: grey(45),
        Slot.STAIRS_FG: grey(255),
        Slot.STAIRS_BG: grey(80),
        Slot.CREEPING_FG: grey(175),
        Slot.VEIL_FG: grey(230),
        Slot.DESPERATE: grey(98),
        Slot.WITHDRAWAL: grey(136),
        Slot.SOBER: grey(188),
        Slot.HIGH: grey(255),
        Slot.BAR_EMPTY: grey(48),
        Slot.BAR_MARK: grey(255),
        Slot.PANEL_BG: grey(8),
        Slot.TEXT: grey(215),
        Slot.TAKEOVER: grey(255),
        Slot.PULL_ZONE: grey(36),
        Slot.SAND_FG: grey(150),
        Slot.DUNE_FG: grey(190),
        Slot.WATER_FG: grey(120),
        Slot.WATER_BG: grey(30),
        Slot.DEEP_FG: grey(70),
        Slot.DEEP_BG: grey(40),
        Slot.BRIDGE_FG: grey(170),
        Slot.ICE_FG: grey(220),
        Slot.ICE_BG: grey(50),
        Slot.SNOW_FG: grey(235),
    },
    {
        "player": grey(255),
        **{key: grey(255) for key in (*DOSE_KINDS, *FIND_KINDS)},
        **monster_greys(MONSTER_KINDS.values(), GREYSCALE_FLOOR),
    },
    grey_screen=True,
)
# How many monster kinds greys alone tell apart (6 between this floor and white); past it kinds
# share greys and their letters tell them apart (render/greys.py).
GREYSCALE_MONSTER_GREYS = distinct_greys(GREYSCALE_FLOOR)

# Pure black grounds and bright, saturated glyphs for low vision.
CONTRAST = Scheme(
    PaletteName.CONTRAST,
    {
        Slot.WALL_FG: (150, 150, 150),
        Slot.WALL_BG: (90, 90, 90),
        Slot.FLOOR_FG: (110, 110, 110),
        Slot.FLOOR_BG: (0, 0, 0),
        Slot.DOOR_FG: (255, 200, 0),
        Slot.DOOR_BG: (0, 0, 0),
        Slot.STAIRS_FG: (255, 255, 255),
        Slot.STAIRS_BG: (0, 0, 0),
        Slot.CREEPING_FG: (220, 170, 60),
        Slot.VEIL_FG: (210, 130, 255),
        Slot.DESPERATE: (255, 40, 0),
        Slot.WITHDRAWAL: (150, 150, 150),
        Slot.SOBER: (0, 140, 255),
        Slot.HIGH: (255, 255, 0),
        Slot.BAR_EMPTY: (30, 30, 30),
        Slot.BAR_MARK: (255, 255, 255),
        Slot.PANEL_BG: (0, 0, 0),
        Slot.TEXT: (255, 255, 255),
        Slot.TAKEOVER: (255, 160, 0),
        Slot.PULL_ZONE: (90, 0, 90),
        Slot.SAND_FG: (230, 200, 100),
        Slot.DUNE_FG: (255, 230, 140),
        Slot.WATER_FG: (80, 180, 255),
        Slot.WATER_BG: (0, 0, 70),
        Slot.DEEP_FG: (60, 110, 255),
        Slot.DEEP_BG: (0, 0, 110),
        Slot.BRIDGE_FG: (220, 150, 80),
        Slot.ICE_FG: (200, 245, 255),
        Slot.ICE_BG: (0, 50, 70),
        Slot.SNOW_FG: (255, 255, 255),
    },
    {
        "player": (255, 255, 255),
        "dose": (255, 0, 255),
        "strong_dose": (0, 255, 0),
        "small_dose": (255, 220, 160),
        "extra_large_dose": (255, 255, 0),
        "cardinal_dose": (255, 190, 80),
        "diagonal_dose": (80, 255, 80),
        "depression": (40, 90, 255),
        "hunger": (255, 100, 0),
        "anxiety": (255, 255, 0),
        "voices": (255, 120, 255),
        "shadows": (170, 170, 170),
        "regret": (0, 255, 255),
        "doubt": (135, 135, 95),
        "shame": (215, 0, 135),
        "sorrow": (0, 0, 215),
        "clarity": (255, 255, 255),
        "calm": (102, 255, 153),
        "insight": (255, 220, 0),
    },
    least_brightness=0.8,
)

SCHEMES: dict[PaletteName, Scheme] = {scheme.name: scheme for scheme in (CLASSIC, COLOURBLIND, GREYSCALE, CONTRAST)}


def scheme_for(name: PaletteName) -> Scheme:
    """The colours of a palette."""
    return SCHEMES[name]
