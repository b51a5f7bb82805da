"""The in-view list (Brogue's sidebar): what the player sees, with what the tactics need.

Each monster in sight says what its hit does and whether it has noticed the player; each
dose in sight, the true range it would give now and its risk, from the very function the
look panel uses (:func:`~roguelike.core.readout.shown_odds`, over ``dose_odds``); each find in
sight (only the High see them), what taking it does. At the
Perfect High every monster and dose the map shows is listed. Frontends with room beside
the 80x25 game draw it there (:mod:`roguelike.screens.roomy`); the ``V`` readout says it
in words for a screen reader. Read-only over the game.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

import tcod.console

from components import Dose, Find, Monster, Position, StateOfMind
from roguelike.content import formulas
from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.content.doses import DOSE_KINDS
from roguelike.content.finds import FIND_KINDS
from roguelike.core.game import Game
from roguelike.core.names import fit
from roguelike.core.readout import direction
from roguelike.render.colours import RGB, Scheme, Slot
from roguelike.screens.help import colour_of_kind
from roguelike.core.readout import shown_odds
from roguelike.screens.look import WARNING

TITLE = "In view"
NOTHING = "Nothing in view."
HUNTS = "hunts you"
UNNOTICED = "has not noticed you"
TAKE_FIND = "walk onto it to take it"


@dataclass(frozen=True)
class Entry:
    """One thing in view: its glyph and name in its colour, then its lines (text, warning?)."""

    glyph: str
    name: str
    colour: RGB
    where: str  # by direction and distance, for the readout
    lines: tuple[tuple[str, bool], ...]


def in_view(game: Game) -> list[Entry]:
    """The monsters in view, nearest first, then the doses in view, nearest first."""
    pos = game.player_component(Position)
    everything = formulas.is_perfect_high(game.player_component(StateOfMind).value)
    visible = game.view.visible

    def order(found: tuple[Position, object]) -> tuple[int, int, int]:
        at = found[0]
        return max(abs(at.x - pos.x), abs(at.y - pos.y)), at.y, at.x

    monsters = sorted(((p, m) for _, m, p in game.monsters() if everything or visible[p.y, p.x]), key=order)
    doses = sorted(((p, d) for _, p, d in game.doses() if everything or visible[p.y, p.x]), key=order)
    finds = sorted(((p, f) for _, p, f in game.finds() if visible[p.y, p.x]), key=order)  # only the High see them
    return [monster_entry(game, at, monster) for at, monster in monsters] + \
        [dose_entry(game, at, dose) for at, dose in doses] + [find_entry(game, at, find) for at, find in finds]


def monster_entry(game: Game, at: Position, monster: Monster) -> Entry:
    """A monster: what its hit does, and whether it hunts the player."""
    kind = MONSTER_KINDS[monster.kind]
    hunting = monster.target == game.state.player
    return Entry(kind.glyph, capital(kind.name), colour_of_kind(kind.key, kind.colour), where(game, at),
                 ((kind.hit_summary, False), (HUNTS if hunting else UNNOTICED, hunting)))


def dose_entry(game: Game, at: Position, dose: Dose) -> Entry:
    """A dose: the gains it would give now (the look panel's true figures) and the risk."""
    kind = DOSE_KINDS[dose.kind]
    odds = shown_odds(game, dose.kind, dose.floor)
    return Entry(kind.glyph, capital(kind.name), colour_of_kind(kind.key, kind.colour), where(game, at),
                 ((f"+{odds.low}..+{odds.high}, purer +{odds.purest}", False), (odds.risk.value, odds.could_kill)))


def find_entry(game: Game, at: Position, find: Find) -> Entry:
    """A find (seen only while High): what taking it does, and how to take it."""
    kind = FIND_KINDS[find.kind]
    return Entry(kind.glyph, kind.name, colour_of_kind(kind.key, kind.colour), where(game, at),
                 ((kind.effect(), False), (TAKE_FIND, False)))


def where(game: Game, at: Position) -> str:
    """Where a thing is from the player, by direction and distance."""
    pos = game.player_component(Position)
    return direction(at.x - pos.x, at.y - pos.y)


def capital(name: str) -> str:
    """A name with its first letter in capitals (``Normal dose``)."""
    return name[:1].upper() + name[1:]


def in_view_words(game: Game) -> str:
    """The list in words, by direction and distance (the ``V`` readout)."""
    entries = in_view(game)
    if not entries:
        return NOTHING
    said = [f"{entry.name} {entry.where}: {'; '.join(text for text, _ in entry.lines)}." for entry in entries]
    return "In view: " + " ".join(said)


def sidebar_lines(game: Game, width: int, scheme: Scheme) -> list[list[tuple[str, RGB]]]:
    """The sidebar's rows: a title, then each entry's name row and its wrapped lines."""
    text = scheme[Slot.TEXT]
    rows: list[list[tuple[str, RGB]]] = [[(TITLE, text)], []]
    entries = in_view(game)
    if not entries:
        return rows + [[(NOTHING, text)]]
    for entry in entries:
        rows.append([(entry.glyph, entry.colour), (" ", text), (fit(entry.name, width - 2), entry.colour)])
        for line, warning in entry.lines:
            for part in textwrap.wrap(line, width - 2) or [""]:
                rows.append([("  " + part, WARNING if warning else text)])
    return rows


def draw_sidebar(console: tcod.console.Console, game: Game, left: int, width: int, scheme: Scheme) -> None:
    """The list in the columns from ``left`` (``width`` wide), down the whole console; what does
    not fit ends with a count of the things left out."""
    console.draw_rect(left, 0, width, console.height, ch=ord(" "), bg=scheme[Slot.PANEL_BG])
    rows = sidebar_lines(game, width - 1, scheme)
    if len(rows) > console.height:
        shown = sum(1 for row in rows[:console.height - 1] if len(row) == 3)
        left_out = len(in_view(game)) - shown
        rows = rows[:console.height - 1] + [[(f"... and {left_out} more (V reads all)", scheme[Slot.TEXT])]]
    for y, row in enumerate(rows):
        x = left + 1
        for text, colour in row:
            console.print(x, y, text, fg=colour)
            x += len(text)
