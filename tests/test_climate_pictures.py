"""tools/climate-pictures.py's converter: a tmux capture with colours becomes the HTML it photographs.

The pictures themselves need Chromium and are checked by eye (docs/development.md); what is
tested here is that the terminal pictures show the cells and colours tmux captured.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

import pytest

from conftest import ROOT
from test_terminal_tmux import require_tmux


def load_tool() -> ModuleType:
    """The tool, imported from its file (its name has a hyphen)."""
    spec = importlib.util.spec_from_file_location("climate_pictures", ROOT / "tools/climate-pictures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


tool = load_tool()


def test_truecolour_cells_keep_their_glyph_and_colours_and_the_screen_is_80x25() -> None:
    screen = tool.ansi_cells("\x1b[38;2;255;0;0m\x1b[48;2;0;0;255m#\x1b[39m.\x1b[0m,")
    assert [len(row) for row in screen] == [80] * 25
    (hash_char, hash_style), (dot, dot_style), (comma, comma_style) = screen[0][:3]
    assert (hash_char, hash_style.fg, hash_style.bg) == ("#", "#ff0000", "#0000ff")
    assert (dot, dot_style.fg, dot_style.bg) == (".", None, "#0000ff")
    assert (comma, comma_style) == (",", tool.Style())


def test_a_line_ended_early_is_filled_with_its_last_background() -> None:
    screen = tool.ansi_cells("\x1b[48;2;1;2;3mab")
    assert screen[0][79] == (" ", tool.Style(bg="#010203"))


def test_256_and_16_colours_and_reverse() -> None:
    screen = tool.ansi_cells("\x1b[38;5;196ma\x1b[38;5;244mb\x1b[91mc\x1b[7;42md")
    assert [style.fg for _, style in screen[0][:3]] == ["#ff0000", "#808080", "#ff0000"]
    assert 'style="color:#00cd00;background:#ff0000"' in tool.span("d", screen[0][3][1])


def test_other_escapes_are_dropped_but_colours_kept() -> None:
    screen = tool.ansi_cells("\x1b[?25l\x1b[2J\x1b[38;2;9;9;9mx")
    assert screen[0][0] == ("x", tool.Style(fg="#090909"))


def test_the_page_has_one_row_a_line_with_runs_of_one_style_and_escaped_text() -> None:
    page = tool.screen_html(tool.ansi_cells("\x1b[38;2;255;255;255m<@>\x1b[38;2;0;0;0m&"), font=None)
    assert page.count("<div>") == 25
    assert '<span style="color:#ffffff;background:#000000">&lt;@&gt;</span>' in page
    assert '<span style="color:#000000;background:#000000">&amp;' in page


@pytest.mark.slow
def test_what_tmux_captures_of_a_coloured_program_is_what_the_picture_shows() -> None:
    require_tmux()
    script = "printf '\\033[38;2;10;20;30m\\033[48;2;40;50;60m~~\\033[0m ok'; sleep 30"
    with tempfile.TemporaryDirectory(prefix="hh-tmux-", dir="/tmp") as folder:
        env = {key: value for key, value in os.environ.items() if key != "TMUX"}
        tmux = tool.Tmux(Path(folder) / "s", env, shlex.join(["sh", "-c", script]))
        try:
            deadline = time.monotonic() + 30
            while "ok" not in tmux.text()[0] and time.monotonic() < deadline:
                time.sleep(0.05)
            screen = tool.ansi_cells(tmux.ansi())
        finally:
            tmux.run("kill-server")
    wave = tool.Style(fg="#0a141e", bg="#28323c")
    assert screen[0][:5] == [("~", wave), ("~", wave), (" ", tool.Style()), ("o", tool.Style()), ("k", tool.Style())]


def test_the_table_gives_the_recipes_of_the_readme_window_pictures() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for picture in tool.PICTURES:
        caption = re.search(
            rf"!\[[^\]]*--seed (\d+) --turns (\d+)`\]\(docs/screenshot-{picture.climate}\.png\)", readme
        )
        assert caption is not None, f"the README shows no window picture of {picture.climate}"
        assert (int(caption[1]), int(caption[2])) == (picture.seed, picture.turns), (
            f"tools/climate-pictures.py's {picture.climate} row differs from the README's window picture"
        )
