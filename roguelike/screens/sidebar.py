"""The in-view list (Brogue's sidebar): what the player sees, with what the tactics need.

Each monster in sight says what its hit does and whether it has noticed the player; each
dose in sight, the true range it would give now and its risk, from the very function the
look panel uses (:func:`~roguelike.assist.readout.shown_odds`, over ``dose_odds``); each find in
sight (only the High see them), what taking it does. At the
Perfect High every monster and dose the map shows is listed. Under them, the doses the
player knows of out of sight (remembered on explored tiles, or shown by a Perfect High),
nearest first, dimmer. Frontends with room beside the 80x25 game draw it there
(:mod:`roguelike.screens.roomy`); the ``V`` readout says it in words for a screen reader.
Each entry keeps its cell on the map, so the mouse over it does what it does over the cell
(:func:`~roguelike.screens.mouse.point_at_list`). Read-only over the game.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import tcod.console

from components import Dose, Find, Monster, Position, StateOfMind
from roguelike.assist.readout import direction, shown_odds
from roguelike.content import formulas
from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.content.doses import DOSE_KINDS
from roguelike.content.finds import FIND_KINDS
from roguelike.core.game import Game
from roguelike.core.names import fit
from roguelike.render.colours import RGB, Scheme, Slot
from roguelike.render.text import wrap
from roguelike.screens.help import colour_of_kind
from roguelike.screens.look import WARNING

TITLE = "In view"
REMEMBERED = "Remembered"
DIM = 0.6  # a remembered dose's name, against one in view
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
    at: tuple[int, int]  # its cell on the map (hovering the entry describes it, a click travels there)
    remembered: bool = False  # a known dose out of sight
    dose: bool = False  # a dose: the list says where it lies, in view or not


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
    return (
        [monster_entry(game, at, monster) for at, monster in monsters]
        + [dose_entry(game, at, dose) for at, dose in doses]
        + [find_entry(game, at, find) for at, find in finds]
    )


def remembered(game: Game) -> list[Entry]:
    """The doses the player knows of out of sight (explored, or shown by a Perfect High), nearest first."""
    if formulas.is_perfect_high(game.player_component(StateOfMind).value):
        return []  # all of them are in view
    pos, visible, known = game.player_component(Position), game.view.visible, game.state.floor.dose_known()
    doses = sorted(
        (max(abs(p.x - pos.x), abs(p.y - pos.y)), p.y, p.x, d)
        for _, p, d in game.doses()
        if known[p.y, p.x] and not visible[p.y, p.x]
    )
    return [replace(dose_entry(game, Position(x, y), dose), remembered=True) for _, y, x, dose in doses]


def listed(game: Game) -> list[Entry]:
    """Everything the list shows: what is in view, then the doses remembered out of sight."""
    return in_view(game) + remembered(game)


def monster_entry(game: Game, at: Position, monster: Monster) -> Entry:
    """A monster: what its hit does, and whether it hunts the player."""
    kind = MONSTER_KINDS[monster.kind]
    hunting = monster.target == game.state.player
    return Entry(
        kind.glyph,
        capital(kind.name),
        colour_of_kind(kind.key, kind.colour),
        where(game, at),
        ((kind.hit_summary, False), (HUNTS if hunting else UNNOTICED, hunting)),
        (at.x, at.y),
    )


def dose_entry(game: Game, at: Position, dose: Dose) -> Entry:
    """A dose: the gains it would give now (the look panel's true figures) and the risk."""
    kind = DOSE_KINDS[dose.kind]
    odds = shown_odds(game, dose.kind, dose.floor)
    gives = f"+{odds.low}..+{odds.high}{odds.if_purer(f', purer +{odds.purest}')}"
    return Entry(
        kind.glyph,
        capital(kind.name),
        colour_of_kind(kind.key, kind.colour),
        where(game, at),
        ((gives, False), (odds.risk.value, odds.could_kill)),
        (at.x, at.y),
        dose=True,
    )


def find_entry(game: Game, at: Position, find: Find) -> Entry:
    """A find (seen only while High): what taking it does, and how to take it."""
    kind = FIND_KINDS[find.kind]
    return Entry(
        kind.glyph,
        kind.name,
        colour_of_kind(kind.key, kind.colour),
        where(game, at),
        ((kind.effect(), False), (TAKE_FIND, False)),
        (at.x, at.y),
    )


def where(game: Game, at: Position) -> str:
    """Where a thing is from the player, by direction and distance."""
    pos = game.player_component(Position)
    return direction(at.x - pos.x, at.y - pos.y)


def capital(name: str) -> str:
    """A name with its first letter in capitals (``Normal dose``)."""
    return name[:1].upper() + name[1:]


def in_view_words(game: Game) -> str:
    """The list in words, by direction and distance (the ``V`` readout)."""
    seen, known = in_view(game), remembered(game)
    parts = [f"In view: {said(seen)}" if seen else NOTHING] + ([f"{REMEMBERED}: {said(known)}"] if known else [])
    return " ".join(parts)


def said(entries: list[Entry]) -> str:
    """Entries in words, one sentence each."""
    return " ".join(f"{entry.name} {entry.where}: {'; '.join(text for text, _ in entry.lines)}." for entry in entries)


Row = list[tuple[str, RGB]]


def sidebar_rows(game: Game, width: int, scheme: Scheme) -> list[tuple[Row, Entry | None]]:
    """The sidebar's rows, each with the entry it belongs to: a title, each entry's name row and its
    wrapped lines; then the remembered doses under their heading. Every dose, in view or
    remembered, says where it lies (the way to it is what the list is read for)."""
    text = scheme[Slot.TEXT]
    seen, known = in_view(game), remembered(game)
    rows: list[tuple[Row, Entry | None]] = [([(TITLE, text)], None), ([], None)]
    if not seen:
        rows.append(([(NOTHING, text)], None))
    for index, entry in enumerate(seen + known):
        if index == len(seen):
            rows += [([], None), ([(REMEMBERED, text)], None)]
        colour = dimmed(entry.colour) if entry.remembered else entry.colour
        rows.append(([(entry.glyph, colour), (" ", text), (fit(entry.name, width - 2), colour)], entry))
        for line, warning in ((entry.where, False), *entry.lines) if entry.dose else entry.lines:
            rows += [([("  " + part, WARNING if warning else text)], entry) for part in wrap(line, width - 2) or [""]]
    return rows


def dimmed(colour: RGB) -> RGB:
    """A remembered dose's colour: its own, dimmer."""
    return int(colour[0] * DIM), int(colour[1] * DIM), int(colour[2] * DIM)


def sidebar_lines(game: Game, width: int, scheme: Scheme) -> list[Row]:
    """The sidebar's rows as drawn."""
    return [row for row, _ in sidebar_rows(game, width, scheme)]


def fitted_rows(game: Game, width: int, height: int, scheme: Scheme) -> list[tuple[Row, Entry | None]]:
    """The rows that fit ``height``, each entry whole; what does not fit ends with a count of the
    things left out (never of none)."""
    rows = sidebar_rows(game, width, scheme)
    if len(rows) <= height:
        return rows
    kept, cut = rows[: height - 1], rows[height - 1 :]
    last = kept[-1][1] if kept else None
    if last is not None and any(entry is last for _, entry in cut):
        kept = [row for row in kept if row[1] is not last]  # an entry is listed whole or counted as left out
    shown = len({id(entry) for _, entry in kept if entry is not None})
    left_out = len(listed(game)) - shown
    return kept + [([(f"{left_out} more: V reads all"[:width], scheme[Slot.TEXT])], None)]


def draw_sidebar(
    console: tcod.console.Console, game: Game, left: int, width: int, scheme: Scheme
) -> list[tuple[int, int] | None]:
    """The list in the columns from ``left`` (``width`` wide), down the whole console; returns
    the map cell of the entry each row belongs to (for the mouse)."""
    console.draw_rect(left, 0, width, console.height, ch=ord(" "), bg=scheme[Slot.PANEL_BG])
    cells: list[tuple[int, int] | None] = []
    for y, (row, entry) in enumerate(fitted_rows(game, width - 1, console.height, scheme)):
        x = left + 1
        for text, colour in row:
            console.print(x, y, text, fg=colour)
            x += len(text)
        cells.append(None if entry is None else entry.at)
    return cells
