"""Take the README's pictures of each climate in a real terminal and in the browser.

Run: ``.venv/bin/python tools/climate-pictures.py [OUT_FOLDER]`` (default ``docs``), with the
``web`` extra, Playwright, tmux and Debian's ``chromium``. For each row of ``PICTURES`` (the
seeds and turns of the README's window pictures, ``hedonic screenshot --seed N --turns T``)
the built-in bot plays the same game with ``hedonic simulate --name Bot`` into a new data
folder, so that the game is saved at the very turn the window picture shows. Then:

- the terminal: ``hedonic play --terminal`` in a tmux window of 80x25 resumes it from the title
  screen; ``tmux capture-pane -e`` reads the screen with its colours, a small converter here
  turns that into HTML (the game's own DejaVu Sans Mono) and Chromium photographs it as
  ``screenshot-terminal-CLIMATE.png``;
- the browser: ``hedonic play --web`` serves a second copy, Chromium resumes it through the
  game's own page and photographs the canvas as ``screenshot-web-CLIMATE.png``.

Each screen is checked, character for character, against ``hedonic screenshot --text`` of the
same recipe: a screen that differs is reported (and kept, as the nearest there is).
"""

from __future__ import annotations

import base64
import html
import os
import re
import secrets
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the repository's bench helpers


@dataclass(frozen=True)
class Picture:
    """One climate's recipe: the seed and the turns the bot plays (as the window picture's caption)."""

    climate: str
    seed: int
    turns: int


# The README's window pictures (``hedonic screenshot --seed N --turns T``): change both together.
PICTURES = (
    Picture("desert", 27, 188),
    Picture("watery", 65, 211),
    Picture("islands", 12, 484),
    Picture("tundra", 9, 313),
)
COLUMNS, ROWS = 80, 25
NAME = "Bot"
LIMIT = 60.0  # seconds: a bound against hanging, not a speed requirement
FONT = ROOT / "roguelike/data/fonts/DejaVuSansMono.ttf"
FONT_PX, LINE_PX = 18, 20  # about the window pictures' 11x20 cells
WEB_VIEWPORT = {"width": 880, "height": 560}  # the page fits 11-pixel cells, as the window pictures


# --- ANSI (as tmux capture-pane -e writes it) to HTML ---------------------------------------

SGR = re.compile(r"\x1b\[([0-9;:]*)m")
OTHER_ESCAPE = re.compile(r"\x1b(\[[0-9;?]*[A-Za-ln-z]|\][^\x07]*\x07|[()][0-9A-Za-z])")
DEFAULT_FG, DEFAULT_BG = "#d0d0d0", "#000000"
# xterm's sixteen colours.
BASIC = (
    "#000000", "#cd0000", "#00cd00", "#cdcd00", "#0000ee", "#cd00cd", "#00cdcd", "#e5e5e5",
    "#7f7f7f", "#ff0000", "#00ff00", "#ffff00", "#5c5cff", "#ff00ff", "#00ffff", "#ffffff",
)  # fmt: skip


@dataclass(frozen=True)
class Style:
    """The look of one cell: colours (``#rrggbb`` or None for the terminal's default) and attributes."""

    fg: str | None = None
    bg: str | None = None
    bold: bool = False
    underline: bool = False
    reverse: bool = False


def hex_colour(red: int, green: int, blue: int) -> str:
    """``#rrggbb``."""
    return f"#{red:02x}{green:02x}{blue:02x}"


def indexed(number: int) -> str:
    """One of xterm's 256 colours."""
    if number < 16:
        return BASIC[number]
    if number < 232:
        steps = (0, 95, 135, 175, 215, 255)
        number -= 16
        return hex_colour(steps[number // 36], steps[number // 6 % 6], steps[number % 6])
    grey = 8 + 10 * (number - 232)
    return hex_colour(grey, grey, grey)


def extended(codes: list[int]) -> tuple[str | None, list[int]]:
    """The colour of a ``38;5;n`` / ``38;2;r;g;b`` tail (None if malformed), and the codes after it."""
    if len(codes) >= 2 and codes[0] == 5:
        return indexed(codes[1] % 256), codes[2:]
    if len(codes) >= 4 and codes[0] == 2:
        red, green, blue = (min(255, value) for value in codes[1:4])
        return hex_colour(red, green, blue), codes[4:]
    return None, []


def apply_sgr(style: Style, parameters: str) -> Style:
    """The style after one Select Graphic Rendition sequence's parameters."""
    codes = [int(part) if part else 0 for part in re.split("[;:]", parameters)]
    while codes:
        code, codes = codes[0], codes[1:]
        if code == 0:
            style = Style()
        elif code in (38, 48):
            colour, codes = extended(codes)
            style = replace(style, fg=colour) if code == 38 else replace(style, bg=colour)
        elif 30 <= code <= 37 or 90 <= code <= 97:
            style = replace(style, fg=BASIC[code - 30 if code < 90 else code - 82])
        elif 40 <= code <= 47 or 100 <= code <= 107:
            style = replace(style, bg=BASIC[code - 40 if code < 100 else code - 92])
        elif code in (39, 49):
            style = replace(style, fg=None) if code == 39 else replace(style, bg=None)
        elif code in (1, 22):
            style = replace(style, bold=code == 1)
        elif code in (4, 24):
            style = replace(style, underline=code == 4)
        elif code in (7, 27):
            style = replace(style, reverse=code == 7)
    return style


def ansi_cells(text: str, columns: int = COLUMNS, rows: int = ROWS) -> list[list[tuple[str, Style]]]:
    """The screen a capture shows, ``rows`` rows of ``columns`` cells (blank cells added where a line
    ended early, in the style it ended with; the game draws no double-width glyph)."""
    screen: list[list[tuple[str, Style]]] = []
    style = Style()
    for line in text.split("\n")[:rows]:
        cells: list[tuple[str, Style]] = []
        for index, part in enumerate(SGR.split(OTHER_ESCAPE.sub("", line))):
            if index % 2:
                style = apply_sgr(style, part)
            else:
                cells += [(char, style) for char in part if char >= " "]
        screen.append((cells + [(" ", style)] * columns)[:columns])
    blank = [(" ", Style())] * columns
    return screen + [list(blank) for _ in range(rows - len(screen))]


def span(text: str, style: Style) -> str:
    """One run of cells of one style, as HTML."""
    fg, bg = style.fg or DEFAULT_FG, style.bg or DEFAULT_BG
    if style.reverse:
        fg, bg = bg, fg
    css = f"color:{fg};background:{bg}"
    css += ";font-weight:bold" if style.bold else ""
    css += ";text-decoration:underline" if style.underline else ""
    return f'<span style="{css}">{html.escape(text)}</span>'


def screen_html(screen: list[list[tuple[str, Style]]], font: Path | None = FONT) -> str:
    """A page showing the screen, one ``div`` a row of runs, in the game's font (embedded)."""
    rows = []
    for cells in screen:
        runs: list[tuple[str, Style]] = []
        for char, style in cells:
            if runs and runs[-1][1] == style:
                runs[-1] = (runs[-1][0] + char, style)
            else:
                runs.append((char, style))
        rows.append("<div>" + "".join(span(text, style) for text, style in runs) + "</div>")
    face = ""
    if font is not None:
        data = base64.b64encode(font.read_bytes()).decode("ascii")
        face = f'@font-face {{ font-family: "HedonicMono"; src: url("data:font/ttf;base64,{data}"); }}\n'
    return (
        '<!doctype html><html><head><meta charset="utf-8"><style>\n'
        + face
        + f"html, body {{ margin: 0; background: {DEFAULT_BG}; }}\n"
        + f'#screen {{ display: inline-block; font: {FONT_PX}px/{LINE_PX}px "HedonicMono", monospace; '
        + "white-space: pre; }\n"
        + f"#screen div {{ height: {LINE_PX}px; }}\n"
        + '</style></head><body><div id="screen">'
        + "".join(rows)
        + "</div></body></html>"
    )


# --- the game, played by the bot up to the picture's turn -----------------------------------


def hedonic(data: Path, *args: str) -> str:
    """``hedonic --data-dir DATA ARGS``'s standard output (CalledProcessError if it fails)."""
    command = [sys.executable, "-m", "roguelike", "--data-dir", str(data), *args]
    done = subprocess.run(command, env=game_env(data), capture_output=True, text=True, timeout=600, check=True)
    return done.stdout


def game_env(data: Path) -> dict[str, str]:
    """A user's environment with no display and no settings but the data folder's."""
    env = {key: value for key, value in os.environ.items() if key not in ("DISPLAY", "WAYLAND_DISPLAY", "TMUX")}
    env.update(HEDONIC_DATA_DIR=str(data), HOME=str(data.parent), PYTHONPATH=str(ROOT), LANG="C.UTF-8")
    return env


def saved_at_turn(data: Path, picture: Picture) -> None:
    """The bot plays the picture's game as ``hedonic screenshot`` does, saved as NAME's game in ``data``."""
    summary = hedonic(data, "simulate", "--seed", str(picture.seed), "--turns", str(picture.turns), "--name", NAME)
    if f"turns: {picture.turns}\n" not in summary or "cause: alive" not in summary:
        raise SystemExit(f"seed {picture.seed}: the bot did not play {picture.turns} turns alive:\n{summary}")


def window_text(data: Path, picture: Picture) -> list[str]:
    """The window picture's screen as text rows (``hedonic screenshot --text``)."""
    text = hedonic(data, "screenshot", "--seed", str(picture.seed), "--turns", str(picture.turns), "--text")
    return plain(text.split("\n")[:ROWS])


def plain(rows: list[str]) -> list[str]:
    """Rows as compared: empty cells as spaces, no trailing spaces, ``ROWS`` of them."""
    rows = [row.replace("\0", " ").rstrip() for row in rows][:ROWS]
    return rows + [""] * (ROWS - len(rows))


def until(done: Callable[[], bool], what: str) -> None:
    """Wait (polling) until ``done()``; SystemExit naming ``what`` after LIMIT seconds."""
    deadline = time.monotonic() + LIMIT
    while not done():
        if time.monotonic() > deadline:
            raise SystemExit(f"waited too long for {what}")
        time.sleep(0.1)


def report(frontend: str, picture: Picture, shown: list[str], wanted: list[str]) -> None:
    """Say whether the frontend shows what the window picture shows, and where not."""
    differing = [row for row in range(ROWS) if shown[row] != wanted[row]]
    if not differing:
        print(f"{picture.climate}: the {frontend} shows the window picture's screen")
        return
    print(f"{picture.climate}: the {frontend} differs from the window picture in rows {differing}:")
    for row in differing:
        print(f"  window  : {wanted[row]}\n  {frontend:8}: {shown[row]}")


# --- the terminal ---------------------------------------------------------------------------


class Tmux:
    """A tmux server of our own (no user configuration) with one 80x25 window running a command."""

    def __init__(self, socket_path: Path, env: dict[str, str], command: str) -> None:
        self.command = ["tmux", "-f", "/dev/null", "-S", str(socket_path)]
        self.env = env
        self.run("new-session", "-d", "-x", str(COLUMNS), "-y", str(ROWS), command)

    def run(self, *args: str) -> str:
        """A tmux command's output."""
        done = subprocess.run(self.command + list(args), env=self.env, capture_output=True, text=True, check=True)
        return done.stdout

    def text(self) -> list[str]:
        """The window's rows as plain text."""
        return plain(self.run("capture-pane", "-p").split("\n"))

    def ansi(self) -> str:
        """The window with its colours, trailing spaces kept."""
        return self.run("capture-pane", "-p", "-e", "-N")


def terminal_capture(data: Path, picture: Picture) -> tuple[str, list[str]]:
    """Resume the game in ``hedonic play --terminal`` under tmux: the screen as ANSI, and as text."""
    env = game_env(data) | {"TERM": "xterm-256color", "COLORTERM": "truecolor"}
    play = shlex.join([sys.executable, "-m", "roguelike", "--data-dir", str(data), "play", "--terminal"])
    with tempfile.TemporaryDirectory(prefix="hh-tmux-", dir="/tmp") as folder:  # a socket's path is short
        tmux = Tmux(Path(folder) / "s", env, f"exec {play}")
        try:
            until(lambda: f"Resume {NAME}" in "".join(tmux.text()), "the title screen in the terminal")
            tmux.run("send-keys", "Enter")
            until(lambda: f"Turn {picture.turns} " in "".join(tmux.text()), "the game in the terminal")
            until(lambda: settled(tmux.ansi), "the terminal to settle")
            return tmux.ansi(), tmux.text()
        finally:
            tmux.run("kill-server")


def settled(read: Callable[[], str]) -> bool:
    """Whether two reads a moment apart are the same."""
    first = read()
    time.sleep(0.3)
    return read() == first


def photograph_html(browser: Any, page_html: str, out: Path) -> None:
    """Chromium's picture of the page's ``#screen``."""
    page = browser.new_page(viewport={"width": 1200, "height": 800})
    page.set_content(page_html)
    page.evaluate("() => document.fonts.ready")
    page.locator("#screen").screenshot(path=str(out))
    page.close()


# --- the browser ----------------------------------------------------------------------------


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.create_server(("127.0.0.1", 0)) as probe:
        return int(probe.getsockname()[1])


def web_capture(browser: Any, data: Path, picture: Picture, out: Path) -> list[str]:
    """Resume the game in ``hedonic play --web`` in Chromium, photograph the canvas: its rows as text."""
    port, token = free_port(), secrets.token_hex(16)
    command = [sys.executable, "-m", "roguelike", "--data-dir", str(data), "play", "--web", "--no-browser"]
    command += ["--port", str(port), "--token", token]
    server = subprocess.Popen(command, env=game_env(data), stdout=subprocess.DEVNULL)
    try:
        page = browser.new_page(viewport=WEB_VIEWPORT)
        until(lambda: server.poll() is not None or answers(port), "the web server")
        if server.poll() is not None:
            raise SystemExit(f"`{shlex.join(command)}` ended with status {server.returncode}")
        page.goto(f"http://127.0.0.1:{port}/play?token={token}")
        page.wait_for_function("() => window.hedonic && window.hedonic.state.frames > 0")
        until(lambda: f"Resume {NAME}" in "".join(page_rows(page)), "the title screen in the browser")
        page.keyboard.press("Enter")
        until(lambda: f"Turn {picture.turns} " in "".join(page_rows(page)), "the game in the browser")
        until(lambda: settled(lambda: page.locator("#screen").screenshot().hex()), "the page to settle")
        page.locator("#screen").screenshot(path=str(out))
        return page_rows(page)
    finally:
        server.terminate()
        server.wait(30)


def page_rows(page: Any) -> list[str]:
    """The page's screen as text rows (its client's own ``hedonic.text()``)."""
    rows: list[str] = page.evaluate("() => hedonic.text()")
    return plain(rows)


def answers(port: int) -> bool:
    """Whether something listens on the loopback port."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return False
    return True


def main() -> int:
    """For each climate: play to the picture's turn, then photograph the terminal and the browser."""
    from bench.browser import chromium

    if shutil.which("tmux") is None:
        raise SystemExit("no tmux on PATH: apt-get install tmux")
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs"
    with chromium() as browser:
        for picture in PICTURES:
            with tempfile.TemporaryDirectory(prefix="hh-climate-") as folder:
                terminal_data, web_data = Path(folder) / "terminal", Path(folder) / "web"
                wanted = window_text(terminal_data, picture)
                saved_at_turn(terminal_data, picture)
                saved_at_turn(web_data, picture)
                ansi, shown = terminal_capture(terminal_data, picture)
                report("terminal", picture, shown, wanted)
                terminal_png = out / f"screenshot-terminal-{picture.climate}.png"
                photograph_html(browser, screen_html(ansi_cells(ansi)), terminal_png)
                web_png = out / f"screenshot-web-{picture.climate}.png"
                report("browser", picture, web_capture(browser, web_data, picture, web_png), wanted)
                print(f"wrote {terminal_png} and {web_png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
