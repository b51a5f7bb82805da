"""Glyph fallbacks: the locale decides Unicode or ASCII; every cell stays one column."""

from __future__ import annotations

import pytest

from roguelike.frontend.glyphs import cell_text, locale_is_utf8


@pytest.mark.parametrize(
    ("env", "utf8"),
    [
        ({"LANG": "en_GB.UTF-8"}, True),
        ({"LANG": "C.utf8"}, True),
        ({"LC_ALL": "C", "LANG": "en_GB.UTF-8"}, False),
        ({"LC_CTYPE": "de_DE.UTF-8", "LANG": "C"}, True),
        ({"LANG": "fr_FR.ISO-8859-1"}, False),
        ({}, False),
        ({"LANG": "C", "HEDONIC_GLYPHS": "unicode"}, True),
        ({"LANG": "en_US.UTF-8", "HEDONIC_GLYPHS": "ascii"}, False),
    ],
)
def test_locale_decides_unicode(env: dict[str, str], utf8: bool) -> None:
    assert locale_is_utf8(env) is utf8


@pytest.mark.parametrize(
    ("glyph", "ascii"),
    [
        ("─", "-"),
        ("│", "|"),
        ("┌", "/"),
        ("┐", "\\"),
        ("└", "\\"),
        ("┘", "/"),
        ("╰", "\\"),
        ("┼", "+"),
        ("═", "="),
        ("║", "|"),
        ("╬", "+"),
        ("█", "#"),
        ("▓", "#"),
        ("░", ":"),
        ("·", "."),
        ("≈", "~"),
        ("☺", "@"),
        ("♣", "T"),
        ("↑", "^"),
        ("é", "e"),
        ("Ö", "O"),
        ("☃", "?"),
        ("A", "A"),
        ("~", "~"),
    ],
)
def test_ascii_fallbacks(glyph: str, ascii: str) -> None:
    assert cell_text(ord(glyph), unicode=False) == ascii


@pytest.mark.parametrize("glyph", ["─", "█", "·", "é", "≈", "☺"])
def test_unicode_locale_keeps_single_width_glyphs(glyph: str) -> None:
    assert cell_text(ord(glyph), unicode=True) == glyph


@pytest.mark.parametrize("codepoint", [0x4E2D, 0xFF21, 0x0301, 0x200B, 0x1F600])
def test_wide_and_zero_width_characters_are_replaced(codepoint: int) -> None:
    text = cell_text(codepoint, unicode=True)
    assert len(text) == 1 and text.isascii()


@pytest.mark.parametrize("codepoint", [0, 0x07, 0x0A, 0x0D, 0x1B, 0x7F, 0x9B, 0x110000])
def test_control_codepoints_become_spaces(codepoint: int) -> None:
    assert cell_text(codepoint, unicode=True) == " "
    assert cell_text(codepoint, unicode=False) == " "
