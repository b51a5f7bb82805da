"""Colour modes: detection and the 256- and 16-colour mappings against known colours."""

from __future__ import annotations

import numpy as np
import pytest

from roguelike.frontend.palette import (
    ANSI16,
    ColourMode,
    detect_mode,
    sgr_background,
    sgr_foreground,
    to_16_pair,
    to_256,
)


def rgb(*colours: tuple[int, int, int]) -> np.ndarray:
    """An array of RGB colours as the console stores them."""
    return np.array(colours, dtype=np.uint8)


@pytest.mark.parametrize(
    ("colour", "index"),
    [
        ((0, 0, 0), 16),
        ((255, 255, 255), 231),
        ((255, 0, 0), 196),
        ((0, 255, 0), 46),
        ((0, 0, 255), 21),
        ((95, 135, 175), 67),
        ((128, 128, 128), 244),
        ((8, 8, 8), 232),
        ((238, 238, 238), 255),
        ((100, 100, 100), 241),
        ((255, 90, 220), 206),
        ((47, 0, 255), 21),
        ((48, 0, 255), 57),
        ((47, 0, 0), 233),
    ],
)
def test_256_colour_index(colour: tuple[int, int, int], index: int) -> None:
    assert to_256(rgb(colour)).tolist() == [index]


def test_256_mapping_keeps_the_array_shape() -> None:
    colours = np.zeros((25, 80, 3), dtype=np.uint8)
    colours[3, 4] = (255, 0, 0)
    keys = to_256(colours)
    assert keys.shape == (25, 80)
    assert keys[3, 4] == 196 and keys[0, 0] == 16


@pytest.mark.parametrize(
    ("colour", "index"),
    [
        ((0, 0, 0), 0),
        ((255, 255, 255), 15),
        ((170, 0, 0), 1),
        ((250, 80, 80), 9),
        ((0, 160, 0), 2),
        ((180, 180, 180), 7),
        ((90, 90, 90), 8),
        ((255, 255, 0), 11),
        ((0, 0, 200), 4),
        ((0, 200, 200), 6),
    ],
)
def test_16_colour_foreground(colour: tuple[int, int, int], index: int) -> None:
    fg, _ = to_16_pair(rgb(colour), rgb((0, 0, 0)), np.array([True]))
    assert fg.tolist() == [index]


def test_16_colour_backgrounds_avoid_bright_colours() -> None:
    _, bg = to_16_pair(rgb((0, 0, 0), (0, 0, 0)), rgb((255, 255, 255), (255, 0, 0)), np.array([True, True]))
    assert bg.tolist() == [7, 1]


def test_16_colours_keep_a_dim_glyph_readable_on_its_background() -> None:
    # Dark blue on black would both become black: the glyph must take another colour.
    fg, bg = to_16_pair(rgb((0, 0, 60)), rgb((0, 0, 0)), np.array([True]))
    assert bg.tolist() == [0]
    assert fg.tolist() == [4]


def test_16_colours_leave_blank_and_same_coloured_cells_alone() -> None:
    fg, bg = to_16_pair(rgb((0, 0, 60), (30, 30, 30)), rgb((0, 0, 0), (30, 30, 30)), np.array([False, True]))
    assert fg.tolist() == bg.tolist() == [0, 0]


def test_16_colour_palette_is_the_vga_one() -> None:
    assert ANSI16[3].tolist() == [170, 85, 0]
    assert len(ANSI16) == 16


@pytest.mark.parametrize(
    ("env", "colours", "mode"),
    [
        ({"COLORTERM": "truecolor"}, 8, ColourMode.TRUECOLOUR),
        ({"COLORTERM": "24bit"}, 256, ColourMode.TRUECOLOUR),
        ({}, 1 << 24, ColourMode.TRUECOLOUR),
        ({}, 256, ColourMode.COLOURS_256),
        ({"COLORTERM": "yes"}, 256, ColourMode.COLOURS_256),
        ({}, 8, ColourMode.COLOURS_16),
        ({}, 0, ColourMode.COLOURS_16),
        ({"COLORTERM": "truecolor", "HEDONIC_COLOURS": "16"}, 256, ColourMode.COLOURS_16),
        ({"HEDONIC_COLORS": "256"}, 8, ColourMode.COLOURS_256),
        ({"HEDONIC_COLOURS": "nonsense"}, 256, ColourMode.COLOURS_256),
    ],
)
def test_detect_mode(env: dict[str, str], colours: int, mode: ColourMode) -> None:
    assert detect_mode(env, colours) is mode


def test_sgr_parameters_per_mode() -> None:
    assert sgr_foreground(ColourMode.TRUECOLOUR, 0x0102FF) == "38;2;1;2;255"
    assert sgr_background(ColourMode.TRUECOLOUR, 0xFF0000) == "48;2;255;0;0"
    assert sgr_foreground(ColourMode.COLOURS_256, 196) == "38;5;196"
    assert sgr_background(ColourMode.COLOURS_256, 21) == "48;5;21"
    assert [sgr_foreground(ColourMode.COLOURS_16, key) for key in (0, 7, 8, 15)] == ["30", "37", "90", "97"]
    assert [sgr_background(ColourMode.COLOURS_16, key) for key in (0, 7)] == ["40", "47"]
