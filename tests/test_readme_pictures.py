"""Every picture in the README matches the recipe its caption gives (and so does any in the docs that gives one).

A screenshot's caption says how it is drawn (``drawn by `hedonic screenshot --seed N ...```);
this draws each again and compares the pixels, so a change that alters what a screen shows
fails here until the picture is drawn again (or the caption fixed). The README's pictures
no command here can draw are named, with why, in ``NOT_DRAWN_HERE``; the docs' charts of
other commands (balance, review) are theirs to keep.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from conftest import ROOT
from roguelike.cli.main import main
from roguelike.render.png import decode_png

PICTURE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+\.png)\)")
RECIPE = re.compile(r"drawn by `hedonic screenshot ([^`]+)`")
NOT_DRAWN_HERE = {
    "docs/screenshot-web.png": "the browser game, taken in Chromium",
    "docs/review-chart.png": "a chart of `hedonic review` (its caption is its command; the coach's tests keep it)",
    "docs/screenshot-lobby.png": "hosted play's lobby in Chromium (tools/hosted-pictures.py takes it again)",
    "docs/screenshot-witnessed.png": "a witnessed daily board in Chromium (tools/hosted-pictures.py takes it again)",
}
NOT_DRAWN_HERE |= {
    f"docs/screenshot-{frontend}-{climate}.png": "a climate in tmux or Chromium (tools/climate-pictures.py takes it again)"
    for frontend in ("terminal", "web")
    for climate in ("desert", "watery", "islands", "tundra")
}


def pictures(pages: list[Path]) -> list[tuple[str, str]]:
    """Each picture the pages show: its path from the repository root, and its caption."""
    found = []
    for page in pages:
        for caption, target in PICTURE.findall(page.read_text(encoding="utf-8")):
            found.append(((page.parent / target).resolve().relative_to(ROOT).as_posix(), caption))
    return found


# The README is the front door; the player's manual shows the rest of the screens.
README = [(path, RECIPE.search(caption)) for path, caption in pictures([ROOT / "README.md", ROOT / "docs/manual.md"])]
# Each picture once (the README and the manual share some), with the recipe its caption gives.
RECIPES = sorted(
    {
        path: recipe.group(1)
        for path, recipe in README
        + [(path, RECIPE.search(caption)) for path, caption in pictures(sorted((ROOT / "docs").glob("*.md")))]
        if recipe
    }.items()
)


def test_every_readme_picture_has_a_recipe_or_says_why_not() -> None:
    unexplained = [path for path, recipe in README if recipe is None and path not in NOT_DRAWN_HERE]
    assert unexplained == [], "give each a `drawn by `hedonic screenshot ...`` caption"
    assert len([recipe for _, recipe in README if recipe]) >= 10


@pytest.mark.parametrize(
    ("path", "args"), RECIPES, ids=lambda value: Path(value).name if value.endswith(".png") else ""
)
def test_the_picture_matches_its_recipe(path: str, args: str, tmp_path: Path) -> None:
    out = tmp_path / "drawn.png"
    assert main(["screenshot", *shlex.split(args), "--out", str(out)]) == 0
    drawn, kept = decode_png(out.read_bytes()), decode_png((ROOT / path).read_bytes())
    assert drawn.shape == kept.shape and (drawn == kept).all(), (
        f"{path} is no longer what `hedonic screenshot {args}` draws: draw it again "
        f"(`hedonic screenshot {args} --out {path}`) or fix its caption"
    )
