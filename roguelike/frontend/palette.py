"""Colour modes of the terminal frontend: truecolour, 256 colours and 16 colours.

Every mapping works on whole numpy arrays of RGB triples at once and turns them into
integer *colour keys*: the packed RGB value in truecolour, the xterm palette index
otherwise. The ANSI renderer diffs frames on these keys, so a change that the
terminal cannot show (two greens mapping to the same index) costs no bytes.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping

import numpy as np
from numpy.typing import NDArray

from roguelike.frontend.colourprobe import env_says_truecolour

# Levels of xterm's 6x6x6 colour cube (indices 16-231) and where one level gives way
# to the next (the midpoints between levels).
CUBE_LEVELS = np.array([0, 95, 135, 175, 215, 255], dtype=np.int32)
CUBE_THRESHOLDS = np.array([48, 115, 155, 195, 235], dtype=np.int32)
# The 24-step grey ramp, indices 232-255: 8, 18, ..., 238.
GREY_LEVELS = 8 + 10 * np.arange(24, dtype=np.int32)

# The 16 ANSI colours as the VGA text mode (and so the Linux console) shows them,
# in ANSI order: black, red, green, yellow (brown), blue, magenta, cyan, white, then bright.
ANSI16 = np.array(
    [
        (0, 0, 0),
        (170, 0, 0),
        (0, 170, 0),
        (170, 85, 0),
        (0, 0, 170),
        (170, 0, 170),
        (0, 170, 170),
        (170, 170, 170),
        (85, 85, 85),
        (255, 85, 85),
        (85, 255, 85),
        (255, 255, 85),
        (85, 85, 255),
        (255, 85, 255),
        (85, 255, 255),
        (255, 255, 255),
    ],
    dtype=np.int32,
)
# Backgrounds use only the first eight: bright backgrounds are missing or blink on
# the Linux console and on some older terminals.
BACKGROUNDS_16 = 8

# Which of the 16 are neutral (black, grey, dark grey, white), and how far a grey keeps from the others.
ANSI_GREYS = np.array([i in (0, 7, 8, 15) for i in range(16)])
GREY_SPREAD = 12
COLOURED_FOR_GREY = 1 << 40

RGBArray = NDArray[np.uint8]
KeyArray = NDArray[np.int32]


class ColourMode(enum.Enum):
    """How many colours the terminal shows."""

    TRUECOLOUR = "truecolour"
    COLOURS_256 = "256"
    COLOURS_16 = "16"


MODE_NAMES = {
    "truecolor": ColourMode.TRUECOLOUR,
    "truecolour": ColourMode.TRUECOLOUR,
    "24bit": ColourMode.TRUECOLOUR,
    "256": ColourMode.COLOURS_256,
    "16": ColourMode.COLOURS_16,
    "8": ColourMode.COLOURS_16,
}


def forced_mode(env: Mapping[str, str]) -> ColourMode | None:
    """The mode HEDONIC_COLOURS (or HEDONIC_COLORS) asks for, if any."""
    return MODE_NAMES.get(env.get("HEDONIC_COLOURS", env.get("HEDONIC_COLORS", "")).strip().lower())


def detect_mode(env: Mapping[str, str], number_of_colours: int) -> ColourMode:
    """The colour mode for a terminal: HEDONIC_COLOURS, then COLORTERM and the like, then terminfo."""
    forced = forced_mode(env)
    if forced is not None:
        return forced
    if env.get("COLORTERM", "").strip().lower() in ("truecolor", "24bit") or env_says_truecolour(env):
        return ColourMode.TRUECOLOUR
    if number_of_colours >= 1 << 24:
        return ColourMode.TRUECOLOUR
    if number_of_colours >= 256:
        return ColourMode.COLOURS_256
    return ColourMode.COLOURS_16


def pack_rgb(rgb: RGBArray) -> KeyArray:
    """Truecolour keys: each RGB triple packed as 0xRRGGBB."""
    # Four bytes 0, R, G, B read as one big-endian integer: one copy, no arithmetic.
    padded = np.zeros((*rgb.shape[:-1], 4), dtype=np.uint8)
    padded[..., 1:] = rgb
    packed: KeyArray = padded.view(">u4")[..., 0].astype(np.int32)
    return packed


def unpack_rgb(keys: KeyArray) -> NDArray[np.int32]:
    """RGB triples (as int32) of packed 0xRRGGBB keys."""
    return np.stack([keys >> 16, (keys >> 8) & 255, keys & 255], axis=-1).astype(np.int32)


def nearest_256(rgb: NDArray[np.int32]) -> KeyArray:
    """The nearest xterm-256 index (cube or grey ramp, never the themable 0-15)."""
    steps = np.searchsorted(CUBE_THRESHOLDS, rgb, side="right")
    cube = CUBE_LEVELS[steps]
    cube_index = 16 + 36 * steps[..., 0] + 6 * steps[..., 1] + steps[..., 2]
    grey_step = np.clip((rgb.sum(axis=-1) / 3 - 8 + 5) // 10, 0, 23).astype(np.int32)
    grey = GREY_LEVELS[grey_step][..., np.newaxis]
    cube_distance = ((rgb - cube) ** 2).sum(axis=-1)
    grey_distance = ((rgb - grey) ** 2).sum(axis=-1)
    keys: KeyArray = np.where(grey_distance < cube_distance, 232 + grey_step, cube_index)
    return keys.astype(np.int32)


def distances_16(rgb: NDArray[np.int32], palette_size: int = 16) -> NDArray[np.int64]:
    """Squared distance from each colour to each of the first ``palette_size`` ANSI colours.

    A grey (channels within ``GREY_SPREAD``) only goes to black, the greys or white: the
    nearest by distance alone is often brown, which would colour a greyscale palette.
    """
    wide = rgb.astype(np.int64)[..., np.newaxis, :]
    # Green counts most and blue least, roughly as the eye weighs them.
    weights = np.array([3, 4, 2], dtype=np.int64)
    difference = wide - ANSI16[:palette_size]
    distances: NDArray[np.int64] = (difference * difference * weights).sum(axis=-1)
    is_grey = (rgb.max(axis=-1) - rgb.min(axis=-1) <= GREY_SPREAD)[..., np.newaxis]
    distances += np.where(is_grey & ~ANSI_GREYS[:palette_size], COLOURED_FOR_GREY, 0)
    return distances


def per_colour(rgb: RGBArray, mapping: Callable[[NDArray[np.int32]], KeyArray]) -> KeyArray:
    """Apply a colour mapping once per distinct colour (a frame has few) and spread it back."""
    packed = pack_rgb(rgb)
    distinct, where = np.unique(packed, return_inverse=True)
    keys: KeyArray = mapping(unpack_rgb(distinct))[where].reshape(packed.shape)
    return keys


def to_256(rgb: RGBArray) -> KeyArray:
    """xterm-256 keys of an array of RGB colours."""
    return per_colour(rgb, nearest_256)


def to_16_pair(fg: RGBArray, bg: RGBArray, visible: NDArray[np.bool_]) -> tuple[KeyArray, KeyArray]:
    """The nearest ANSI colours for foregrounds and backgrounds, keeping glyphs readable.

    Where a visible glyph's foreground would land on its background's colour although
    the original colours differ, the foreground takes the next nearest colour instead.
    """
    bg_keys = per_colour(bg, lambda rgb: distances_16(rgb, BACKGROUNDS_16).argmin(axis=-1).astype(np.int32))
    fg_keys = per_colour(fg, lambda rgb: distances_16(rgb).argmin(axis=-1).astype(np.int32))
    lost = visible & (fg_keys == bg_keys) & (fg != bg).any(axis=-1)
    if lost.any():
        rows = distances_16(fg[lost].astype(np.int32))
        rows[np.arange(len(rows)), bg_keys[lost]] = np.iinfo(np.int64).max
        fg_keys[lost] = rows.argmin(axis=-1)
    return fg_keys, bg_keys


def colour_keys(mode: ColourMode, fg: RGBArray, bg: RGBArray, visible: NDArray[np.bool_]) -> tuple[KeyArray, KeyArray]:
    """Foreground and background keys of every cell in a colour mode."""
    match mode:
        case ColourMode.TRUECOLOUR:
            return pack_rgb(fg), pack_rgb(bg)
        case ColourMode.COLOURS_256:
            return to_256(fg), to_256(bg)
        case ColourMode.COLOURS_16:
            return to_16_pair(fg, bg, visible)


def sgr_colour(mode: ColourMode, key: int, layer: int) -> str:
    """SGR parameters that set a colour key; ``layer`` is 3 for the glyph, 4 for the cell."""
    match mode:
        case ColourMode.TRUECOLOUR:
            return f"{layer}8;2;{key >> 16};{(key >> 8) & 255};{key & 255}"
        case ColourMode.COLOURS_256:
            return f"{layer}8;5;{key}"
        case ColourMode.COLOURS_16:
            return str(layer * 10 + key if key < 8 else (layer + 6) * 10 + key - 8)


def sgr_foreground(mode: ColourMode, key: int) -> str:
    """SGR parameters that set the foreground to a colour key."""
    return sgr_colour(mode, key, 3)


def sgr_background(mode: ColourMode, key: int) -> str:
    """SGR parameters that set the background to a colour key."""
    return sgr_colour(mode, key, 4)
