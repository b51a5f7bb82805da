"""Help in pages: Controls, Rules, Bestiary, Doses, Highs and Legend (Left/Right or Tab to turn).

Opened with ? during play and from the title. The Bestiary shows the monsters met in
any game (the others as ``?``); the Doses page tells what each kind would give at the
player's Tolerance when there is a game to ask. Each page is built as entries (a rule, a
monster, a paragraph) that :mod:`roguelike.screens.helplayout` lays out, so however long the
tables grow nothing is cut or lost: a page taller than the screen is turned in even parts
(its tab says ``Rules 1/2``, the hints ``(1/2) more: Right``), cut between entries.
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
from roguelike.screens.helplayout import BLANK, HINTS, TOP, WIDTH, Colour, Entry, Heading, Line, line_text, parts_of
from roguelike.screens.style import HEADING, HINT, NORMAL, SELECTED, TEXT

KEY = (170, 200, 255)
UNMET = (90, 90, 105)
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


def labelled(rows: Iterable[tuple[str, str]], colour: Colour = TEXT) -> list[Entry]:
    """Label and text rows, the text wrapped beside its label; an indented label carries on the entry above."""
    entries: list[Entry] = []
    for label, text in rows:
        lines = [
            [(f"{label if index == 0 else '':<{LABEL_WIDTH}}", HEADING), (part, colour)]
            for index, part in enumerate(wrap(text, TEXT_WIDTH) or [""])
        ]
        if entries and label.startswith(" "):
            entries[-1].extend(lines)
        else:
            entries.append(lines)
    return entries


def paragraph(text: str, colour: Colour = HINT) -> Entry:
    """Text wrapped to the page, kept together."""
    return [[(part, colour)] for part in wrap(text, WIDTH - 2)]


def controls(known: Known) -> list[Entry]:
    """Every key, then how the game takes the controls."""
    entries: list[Entry] = []
    for action, keys in helptext.CONTROLS:
        line: Line = [(f"{action:<32}", TEXT), (keys, KEY)]
        if entries and not action:  # more keys for the action above
            entries[-1].append(line)
        else:
            entries.append([line])
    return [*entries, BLANK, paragraph(" ".join(helptext.CONTROLS_NOTE))]


def rules(known: Known) -> list[Entry]:
    """The State of Mind, its bands, the attributes and what each does."""
    return labelled(helptext.RULES)


MOVES_WIDTH = WIDTH - 5 - 12 - 25  # what is left of the row for how a monster acts


def bestiary(known: Known) -> list[Entry]:
    """Every kind met in any game, glyph in its colour; the rest as ``?``."""
    entries: list[Entry] = [
        [[("Monsters you have met in this game or any before:", HINT)]],
        BLANK,
        Heading([[(f"{'':<5}{'':<12}{'its hit':<25}how it acts", HINT)]]),
    ]
    for kind in MONSTER_KINDS.values():
        if kind.key not in known.met:
            entries.append([[("  ?  ", UNMET), ("(not met yet)", UNMET)]])
            continue
        hits, moves = wrap(kind.hit_summary, 24) or [""], wrap(kind.moves, MOVES_WIDTH) or [""]
        entry: Entry = []
        for row, (hit, move) in enumerate(itertools.zip_longest(hits, moves, fillvalue="")):
            glyph, name = (kind.glyph, kind.name) if row == 0 else (" ", "")
            entry.append(
                [
                    (f"  {glyph}  ", colour_of_kind(kind.key, kind.colour)),
                    (f"{name:<12}", HEADING),
                    (f"{hit:<25}", TEXT),
                    (move, HINT),
                ]
            )
        entries.append(entry)
    return [*entries, BLANK, [[("Every monster dies to one hit, and you strike first by walking into one.", HINT)]]]


def doses(known: Known) -> list[Entry]:
    """Every kind of dose, its ranges and what it does; at the player's Tolerance, what it would give."""
    entries: list[Entry] = []
    if known.tolerance is not None and known.state_of_mind is not None:
        entries.append([[(helptext.odds_heading(known.depth, known.tolerance, known.state_of_mind), KEY)]])
    for kind in DOSE_KINDS.values():
        where = f"  floor {kind.from_floor}+" if kind.from_floor > 1 else ""
        entry: Entry = [
            [
                (f"  {kind.glyph}  ", colour_of_kind(kind.key, kind.colour)),
                (f"{kind.name:<17}", HEADING),
                (helptext.dose_lines(kind), TEXT),
                (where, HINT),
            ],
            [(f"{'':<7}{helptext.what_it_does(kind)}", HINT)],
        ]
        if known.tolerance is not None and known.state_of_mind is not None:
            odds = dose_odds(kind, known.depth, known.state_of_mind, known.tolerance)
            entry.append([(f"{'':<7}{helptext.odds_text(odds)}", KEY)])
        entries.append(entry)
    return entries + [paragraph(note) for note in helptext.DOSE_NOTES]


def highs(known: Known) -> list[Entry]:
    """High streaks and what they pay; every kind of find and what taking it does."""
    entries = [*labelled(helptext.HIGHS), BLANK]
    for kind in FIND_KINDS.values():
        entries.append(
            [
                [
                    (f"  {kind.glyph}  ", colour_of_kind(kind.key, kind.colour)),
                    (f"{kind.name:<10}", HEADING),
                    (kind.effect(), TEXT),
                ],
                [(f"{'':<7}{helptext.what_it_does(kind)}", HINT)],
            ]
        )
    return entries


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


def legend(known: Known) -> list[Entry]:
    """Every glyph of the map and panel, one to an entry."""
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
    return [[line] for line in [*lines, [("  :  ", KEY), (helptext.PULL_LEGEND, TEXT)]]]


PAGES: tuple[tuple[str, Callable[[Known], list[Entry]]], ...] = (
    ("Controls", controls),
    ("Rules", rules),
    ("Bestiary", bestiary),
    ("Doses", doses),
    ("Highs", highs),
    ("Legend", legend),
)


@dataclass(frozen=True)
class Part:
    """One screenful of a page: the page's name, which part of how many, and its rows."""

    topic: str
    number: int
    count: int
    rows: list[Line]
    repeated: int = 0  # its first rows repeat a heading of an earlier part (a table's column names)

    @property
    def title(self) -> str:
        """The page's name, with ``1/2`` when it is in parts."""
        return self.topic if self.count == 1 else f"{self.topic} {self.number}/{self.count}"


def pages(known: Known) -> list[Part]:
    """Every page, its lines fitted to the screen's width, a long one in numbered parts."""
    found: list[Part] = []
    for topic, build in PAGES:
        parts = parts_of(build(known))
        found += [Part(topic, number, len(parts), *laid) for number, laid in enumerate(parts, start=1)]
    return found


TURN_HINT = f"Left/Right or Tab: turn the page   1-{len(PAGES)}: jump   Esc: back"


def part_marker(part: Part) -> str:
    """Where a part stands in its page, at the hints' right: ``(1/2) more: Right``."""
    if part.count == 1:
        return ""
    return f"({part.number}/{part.count})" + (" more: Right" if part.number < part.count else "")


class HelpScreen(Screen):
    """The help pages; Left/Right or Tab turn them (a long page part by part), Esc goes back."""

    def __init__(self, known: Known | None = None, page: str = "Controls") -> None:
        self.pages = pages(known or Known())
        self.index = next((i for i, part in enumerate(self.pages) if part.title.startswith(page)), 0)
        self.told: int | None = None  # the part last read out to a screen reader

    @property
    def title(self) -> str:
        """The title of the part shown: ``Rules 1/2``."""
        return self.pages[self.index].title

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
            topic = PAGES[event.sym - KeySym.N1][0]
            self.index = next(i for i, part in enumerate(self.pages) if part.topic == topic)
        return None

    def spoken(self) -> list[str]:
        """The part shown, each time another is turned to (the first on opening), for a screen reader."""
        if self.told == self.index:
            return []
        opening, self.told = self.told is None, self.index
        part = self.pages[self.index]
        said = [f"Help: {', '.join(topic for topic, _ in PAGES)}."] if opening else []
        said.append(part.topic if part.count == 1 else f"{part.topic}, part {part.number} of {part.count}.")
        said += [" ".join(line_text(row).split()) for row in part.rows[part.repeated :] if line_text(row).strip()]
        return [*said, TURN_HINT] if opening or part.number < part.count else said

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """The page tabs, the part of the page shown, and how to turn and leave."""
        part = self.pages[self.index]
        x = 1
        for topic, _ in PAGES:
            current = topic == part.topic
            label = f" {part.title if current else topic} "
            console.print(x, 0, label, fg=(0, 0, 0) if current else NORMAL, bg=SELECTED if current else None)
            x += len(label) + 1
        for row, line in enumerate(part.rows):
            column = 2
            for text, colour in line:
                console.print(column, TOP + row, text, fg=colour)
                column += len(text)
        console.print(1, HINTS, TURN_HINT, fg=HINT)
        marker = part_marker(part)
        console.print(formulas.SCREEN_WIDTH - 1 - len(marker), HINTS, marker, fg=KEY)
