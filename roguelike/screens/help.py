"""Help in pages: Controls, Rules, Bestiary, Doses, Highs and Legend (Left/Right or Tab to turn).

Opened with ? during play and from the title. The Bestiary shows the monsters met in
any game (the others as ``?``); the Doses page tells what each kind would give at the
player's Tolerance when there is a game to ask. However long the tables grow, nothing is
cut or lost: a line wider than the screen wraps at its words, and a page taller than the
screen is turned in parts (its tab says ``Rules 1/2``), an entry kept whole where it can be.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import tcod.console
import tcod.event
from tcod.event import KeySym, Modifier

from components import StateOfMind, Tolerance
from roguelike.content import formulas
from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.content.doses import DOSE_KINDS, dose_odds
from roguelike.content.finds import FIND_KINDS
from roguelike.core.game import PLAYER_COLOUR, Game
from roguelike.render.colours import Slot
from roguelike.render.text import wrap
from roguelike.screens import ambient, helptext
from roguelike.screens.base import Pop, Screen, Transition
from roguelike.screens.style import HEADING, HINT, NORMAL, SELECTED, TEXT

Colour = tuple[int, int, int]
Line = list[tuple[str, Colour]]
KEY = (170, 200, 255)
UNMET = (90, 90, 105)
TOP = 2  # the tabs, then a blank row
HINTS = formulas.SCREEN_HEIGHT - 1  # the row that says how to turn and leave
ROWS = HINTS - TOP  # rows of text a part of a page holds
WIDTH = formulas.SCREEN_WIDTH - 2  # columns of text, from the margin to the edge
NARROWEST = 24  # text wrapped beside a column keeps at least this many columns
ENTRY_MARGIN = 5  # a row blank this far in continues the entry above it
LABEL_WIDTH = 14
TEXT_WIDTH = WIDTH - LABEL_WIDTH
CLOSE_KEYS = frozenset({KeySym.ESCAPE, KeySym.RETURN, KeySym.KP_ENTER, KeySym.Q, KeySym.QUESTION, KeySym.SLASH})
NEXT_KEYS = frozenset({KeySym.RIGHT, KeySym.KP_6, KeySym.L, KeySym.PAGEDOWN, KeySym.SPACE})
PREVIOUS_KEYS = frozenset({KeySym.LEFT, KeySym.KP_4, KeySym.H, KeySym.PAGEUP})


@dataclass(frozen=True)
class Known:
    """What the help may tell about the player: monsters met, and in a game the Tolerance, the
    floor and the State of Mind (a dose's true figures depend on all three)."""

    met: frozenset[str] = frozenset()
    tolerance: int | None = None
    depth: int = 1
    state_of_mind: int | None = None


def known_in(game: Game, met: frozenset[str]) -> Known:
    """What the help may tell the player of a game."""
    return Known(
        met, game.player_component(Tolerance).value, game.state.depth, game.player_component(StateOfMind).value
    )


def labelled(rows: Iterable[tuple[str, str]], colour: Colour = TEXT) -> list[Line]:
    """Label and text rows, the text wrapped beside its label."""
    lines: list[Line] = []
    for label, text in rows:
        for index, part in enumerate(wrap(text, TEXT_WIDTH) or [""]):
            lines.append([(f"{label if index == 0 else '':<{LABEL_WIDTH}}", HEADING), (part, colour)])
    return lines


def controls(known: Known) -> list[Line]:
    """Every key, then how the game takes the controls."""
    lines = [[(f"{action:<32}", TEXT), (keys, KEY)] for action, keys in helptext.CONTROLS]
    return lines + [[]] + [[(part, HINT)] for part in wrap(" ".join(helptext.CONTROLS_NOTE), 76)]


def rules(known: Known) -> list[Line]:
    """The State of Mind, its bands, the attributes and what each does."""
    return labelled(helptext.RULES)


MOVES_WIDTH = WIDTH - 5 - 12 - 25  # what is left of the row for how a monster acts


def bestiary(known: Known) -> list[Line]:
    """Every kind met in any game, glyph in its colour; the rest as ``?``."""
    lines: list[Line] = [
        [("Monsters you have met in this game or any before:", HINT)],
        [],
        [(f"{'':<5}{'':<12}{'its hit':<25}how it acts", HINT)],
    ]
    for kind in MONSTER_KINDS.values():
        if kind.key not in known.met:
            lines.append([("  ?  ", UNMET), ("(not met yet)", UNMET)])
            continue
        hits, moves = wrap(kind.hit_summary, 24) or [""], wrap(kind.moves, MOVES_WIDTH) or [""]
        for row, (hit, move) in enumerate(itertools.zip_longest(hits, moves, fillvalue="")):
            glyph, name = (kind.glyph, kind.name) if row == 0 else (" ", "")
            lines.append(
                [
                    (f"  {glyph}  ", colour_of_kind(kind.key, kind.colour)),
                    (f"{name:<12}", HEADING),
                    (f"{hit:<25}", TEXT),
                    (move, HINT),
                ]
            )
    return lines + [[], [("Every monster dies to one hit, and you strike first by walking into one.", HINT)]]


def doses(known: Known) -> list[Line]:
    """Every kind of dose, its ranges and what it does; at the player's Tolerance, what it would give."""
    lines: list[Line] = []
    if known.tolerance is not None and known.state_of_mind is not None:
        lines.append([(helptext.odds_heading(known.depth, known.tolerance, known.state_of_mind), KEY)])
    for kind in DOSE_KINDS.values():
        where = f"  floor {kind.from_floor}+" if kind.from_floor > 1 else ""
        lines.append(
            [
                (f"  {kind.glyph}  ", colour_of_kind(kind.key, kind.colour)),
                (f"{kind.name:<17}", HEADING),
                (helptext.dose_lines(kind), TEXT),
                (where, HINT),
            ]
        )
        lines.append([(f"{'':<7}{helptext.what_it_does(kind)}", HINT)])
        if known.tolerance is not None and known.state_of_mind is not None:
            odds = dose_odds(kind, known.depth, known.state_of_mind, known.tolerance)
            lines.append([(f"{'':<7}{helptext.odds_text(odds)}", KEY)])
    return lines + [[(part, HINT)] for note in helptext.DOSE_NOTES for part in wrap(note, 76)]


def highs(known: Known) -> list[Line]:
    """High streaks and what they pay; every kind of find and what taking it does."""
    lines = labelled(helptext.HIGHS) + [[]]
    for kind in FIND_KINDS.values():
        lines.append(
            [
                (f"  {kind.glyph}  ", colour_of_kind(kind.key, kind.colour)),
                (f"{kind.name:<10}", HEADING),
                (kind.effect(), TEXT),
            ]
        )
        lines.append([(f"{'':<7}{helptext.what_it_does(kind)}", HINT)])
    return lines


def colour_of_kind(key: str, colour: Colour) -> Colour:
    """A monster's or a dose's colour in the palette in force."""
    return ambient.look().scheme.kind_colour(key, colour)


def glyph_colours() -> dict[str, Colour]:
    """The map's and the bar's glyphs in the colours of the palette in force."""
    look = ambient.look()
    tile_fg, _ = look.scheme.tile_colours()
    tiles = {chr(int(glyph)): (int(r), int(g), int(b)) for glyph, (r, g, b) in zip(look.tile_glyphs, tile_fg)}
    player = look.scheme.kind_colour("player", PLAYER_COLOUR)
    return {**tiles, "@": player, "^": look.scheme[Slot.DESPERATE], "|": look.scheme[Slot.BAR_MARK]}


def legend(known: Known) -> list[Line]:
    """Every glyph of the map and panel."""
    rows = helptext.LEGEND + helptext.BAR_LEGEND
    colour_of = glyph_colours()
    lines: list[Line] = [[(f"  {glyph}  ", colour_of[glyph]), (text, TEXT)] for glyph, text in rows]
    lines += [
        [(f"  {kind.glyph}  ", colour_of_kind(kind.key, kind.colour)), (f"{kind.name.capitalize()}: see Doses", TEXT)]
        for kind in DOSE_KINDS.values()
    ]
    lines += [
        [(f"  {kind.glyph}  ", colour_of_kind(kind.key, kind.colour)), (f"{kind.name}: see Bestiary", TEXT)]
        for kind in MONSTER_KINDS.values()
    ]
    finds: Line = [("  ", TEXT)] + [(kind.glyph, colour_of_kind(kind.key, kind.colour)) for kind in FIND_KINDS.values()]
    lines.append(
        finds + [(" " * max(1, 3 - len(FIND_KINDS) + 1), TEXT), ("finds, seen only while High: see Highs", TEXT)]
    )
    return lines + [[("  :  ", KEY), (helptext.PULL_LEGEND, TEXT)]]


PAGES: tuple[tuple[str, Callable[[Known], list[Line]]], ...] = (
    ("Controls", controls),
    ("Rules", rules),
    ("Bestiary", bestiary),
    ("Doses", doses),
    ("Highs", highs),
    ("Legend", legend),
)


def pages(known: Known) -> list[tuple[str, list[Line]]]:
    """Every page, its lines fitted to the screen's width, a long one split into numbered parts."""
    found: list[tuple[str, list[Line]]] = []
    for title, build in PAGES:
        parts = parts_of([row for line in build(known) for row in fitted(line)])
        for number, part in enumerate(parts):
            found.append((title if len(parts) == 1 else f"{title} {number + 1}/{len(parts)}", part))
    return found


def fitted(line: Line, width: int = WIDTH) -> list[Line]:
    """A line as rows no wider than ``width``: the text that would pass the edge wraps at a
    word, under where that text began (a word wider than a whole row is the only thing broken)."""
    rows: list[Line] = []
    while (cut := overflow(line, width)) is not None:
        index, start = cut
        text, colour = line[index]
        indent = min(start + len(text) - len(text.lstrip(" ")), width - NARROWEST)
        first, rest = split_at_word(text, width - start)
        if not first and start > indent:  # not one word fits here: the text starts the next row
            rows.append(line[:index])
            line = [(" " * indent, colour), (text.lstrip(" "), colour), *line[index + 1 :]]
            continue
        if not first:
            first, rest = text[: width - start], text[width - start :]
        rows.append([*line[:index], (first, colour)])
        line = [(" " * indent, colour), (rest.lstrip(" "), colour), *line[index + 1 :]]
    return [*rows, line]


def overflow(line: Line, width: int) -> tuple[int, int] | None:
    """The first piece of a line whose text passes ``width``, and the column it starts at."""
    start = 0
    for index, (text, _) in enumerate(line):
        if start + len(text.rstrip()) > width:
            return index, start
        start += len(text)
    return None


def split_at_word(text: str, room: int) -> tuple[str, str]:
    """The most whole words of ``text`` that fit in ``room`` columns, and the rest ("" first if none fit)."""
    space = text.rfind(" ", 0, room + 1)
    if space <= 0 or not text[:space].strip():
        return "", text
    return text[:space].rstrip(" "), text[space:]


def parts_of(rows: list[Line], size: int = ROWS) -> list[list[Line]]:
    """Rows in parts of at most ``size``, each part ending before an entry rather than inside one
    (unless the entry is longer than half a part); no part starts with a blank row."""
    parts: list[list[Line]] = []
    while len(rows) > size:
        cut = size
        while cut > size // 2 and continues(rows[cut]):
            cut -= 1
        parts.append(rows[: cut if not continues(rows[cut]) else size])
        rows = rows[len(parts[-1]) :]
        while rows and not line_text(rows[0]).strip():
            rows = rows[1:]
    return [*parts, rows] if rows or not parts else parts


def continues(row: Line) -> bool:
    """Whether a row carries on the entry above it (its first columns blank, text further on)."""
    text = line_text(row)
    return bool(text.strip()) and not text[:ENTRY_MARGIN].strip()


def line_text(line: Line) -> str:
    """A line's text, without its colours."""
    return "".join(text for text, _ in line)


class HelpScreen(Screen):
    """The help pages; Left/Right or Tab turn them, Esc goes back."""

    def __init__(self, known: Known | None = None, page: str = "Controls") -> None:
        self.pages = pages(known or Known())
        self.index = next((i for i, (title, _) in enumerate(self.pages) if title.startswith(page)), 0)

    @property
    def title(self) -> str:
        """The title of the page shown."""
        return self.pages[self.index][0]

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """Turn the page, or go back."""
        if not isinstance(event, tcod.event.KeyDown):
            return None
        if event.sym in CLOSE_KEYS:
            return Pop()
        backwards = event.sym in PREVIOUS_KEYS or (event.sym == KeySym.TAB and bool(event.mod & Modifier.SHIFT))
        if backwards or event.sym in NEXT_KEYS or event.sym == KeySym.TAB:
            self.index = (self.index + (-1 if backwards else 1)) % len(self.pages)
        elif KeySym.N1 <= event.sym < KeySym.N1 + len(PAGES):
            self.index = next(i for i, (t, _) in enumerate(self.pages) if t.startswith(PAGES[event.sym - KeySym.N1][0]))
        return None

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """The page tabs, the page, and how to turn and leave."""
        x = 1
        for title, _ in PAGES:
            current = self.title.startswith(title)
            label = f" {self.title if current else title} "
            console.print(x, 0, label, fg=(0, 0, 0) if current else NORMAL, bg=SELECTED if current else None)
            x += len(label) + 1
        for row, line in enumerate(self.pages[self.index][1]):
            column = 2
            for text, colour in line:
                console.print(column, TOP + row, text, fg=colour)
                column += len(text)
        console.print(1, HINTS, f"Left/Right or Tab: turn the page   1-{len(PAGES)}: jump   Esc: back", fg=HINT)
