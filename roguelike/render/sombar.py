"""The State of Mind drawn: the panel's bar with its bands, and the graph of a whole life.

The bar marks where Desperation starts (it moves with Will), where Withdrawal ends and
where High begins. The graph bins a :class:`~roguelike.core.chart.Chart` into columns of
block characters, coloured by band, with doses and floor changes marked beneath it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import tcod.console

from roguelike.content import formulas
from roguelike.content.doses import SMALL_DOSE
from roguelike.core.chart import Chart
from roguelike.render.colours import CLASSIC, Scheme, Slot

BLOCKS = " ▁▂▃▄▅▆▇█"
AXIS = (120, 120, 140)
GRID = (34, 32, 44)


def bar_x(value: int, width: int) -> int:
    """The bar cell of a State-of-Mind value."""
    return min(width - 1, width * formulas.clamp(value, 0, formulas.STATE_OF_MIND_MAX) // formulas.STATE_OF_MIND_MAX)


def draw_som_bar(
    console: tcod.console.Console, x: int, y: int, width: int, som: int, will: int, scheme: Scheme = CLASSIC
) -> None:
    """A draining bar coloured by mood, with the Desperation line (``^``), Withdrawal and High (``|``)."""
    colour = scheme[Slot(formulas.mood_word(som, will))]
    filled = round(width * formulas.clamp(som, 0, formulas.STATE_OF_MIND_MAX) / formulas.STATE_OF_MIND_MAX)
    console.draw_rect(x, y, width, 1, ch=ord(" "), bg=scheme[Slot.BAR_EMPTY])
    if filled:
        console.draw_rect(x, y, filled, 1, ch=ord(" "), bg=colour)
    for mark in (formulas.WITHDRAWAL_BELOW, formulas.HIGH_ABOVE):
        console.print(x + bar_x(mark, width), y, "|", fg=scheme[Slot.BAR_MARK])
    console.print(x + bar_x(formulas.desperation_threshold(will), width), y, "^", fg=scheme[Slot.DESPERATE])


@dataclass(frozen=True)
class GraphBox:
    """Where a graph goes: the plot's top-left cell and size (axis and marks go around it)."""

    x: int
    y: int
    width: int
    height: int


def draw_life(
    console: tcod.console.Console, box: GraphBox, chart: Chart, died: bool = False, scheme: Scheme = CLASSIC
) -> None:
    """The State of Mind over a whole game, with dose (i) and floor (>) marks underneath."""
    values = chart.values.astype(np.int32)
    draw_axis(console, box)
    if len(values) == 0:
        console.print(box.x + 1, box.y + box.height // 2, "(no State of Mind recorded)", fg=AXIS)
        return
    columns = bins(len(values), box.width)
    for column, (first, last) in enumerate(columns):
        draw_column(console, box, column, int(values[first:last].max()), scheme)
    marks_row = box.y + box.height
    for turn in chart.doses:
        console.print(
            box.x + column_of(turn - chart.start, columns),
            marks_row,
            "i",
            fg=scheme.kind_colour(SMALL_DOSE.key, SMALL_DOSE.colour),
        )
    for turn, _ in chart.floors[1:]:
        console.print(box.x + column_of(turn - chart.start, columns), marks_row + 1, ">", fg=scheme[Slot.STAIRS_FG])
    if died:
        console.print(box.x + len(columns) - 1, marks_row + 1, "X", fg=scheme[Slot.DESPERATE])
    turns = f"turn {chart.start}"
    console.print(box.x, marks_row + 2, turns, fg=AXIS)
    end = f"turn {chart.end - 1}"
    console.print(box.x + box.width - len(end), marks_row + 2, end, fg=AXIS)


def draw_axis(console: tcod.console.Console, box: GraphBox) -> None:
    """Levels on the left and faint lines where Withdrawal ends and High begins."""
    for value in (formulas.STATE_OF_MIND_MAX, formulas.HIGH_ABOVE, formulas.WITHDRAWAL_BELOW, 0):
        row = box.y + level_row(value, box.height)
        console.print(box.x - 4, row, f"{value:>3}", fg=AXIS)
        if value in (formulas.HIGH_ABOVE, formulas.WITHDRAWAL_BELOW):
            console.draw_rect(box.x, row, box.width, 1, ch=0, bg=GRID)


def level_row(value: int, height: int) -> int:
    """The row (from the top of the plot) holding a State-of-Mind level."""
    clamped = formulas.clamp(value, 0, formulas.STATE_OF_MIND_MAX)
    return min(height - 1, (height * (formulas.STATE_OF_MIND_MAX - clamped)) // formulas.STATE_OF_MIND_MAX)


def bins(count: int, width: int) -> list[tuple[int, int]]:
    """Split ``count`` values into at most ``width`` consecutive, nearly equal runs."""
    columns = min(count, width)
    edges = [count * i // columns for i in range(columns + 1)]
    return [(edges[i], edges[i + 1]) for i in range(columns)]


def column_of(index: int, columns: list[tuple[int, int]]) -> int:
    """The column a value's index falls in."""
    for column, (first, last) in enumerate(columns):
        if first <= index < last:
            return column
    return len(columns) - 1 if index >= 0 else 0


def draw_column(console: tcod.console.Console, box: GraphBox, column: int, value: int, scheme: Scheme) -> None:
    """One column filled from the bottom up to ``value``, in eighths of a cell."""
    eighths = box.height * 8 * formulas.clamp(value, 0, formulas.STATE_OF_MIND_MAX) // formulas.STATE_OF_MIND_MAX
    for row in range(box.height):
        fill = formulas.clamp(eighths - (box.height - 1 - row) * 8, 0, 8)
        if fill:
            level = formulas.STATE_OF_MIND_MAX * (box.height - row) // box.height
            colour = scheme[Slot(band(level))]
            console.print(box.x + column, box.y + row, BLOCKS[fill], fg=colour)


def band(value: int) -> str:
    """The band a State-of-Mind level lies in (Desperation depends on Will, so not here)."""
    if value < formulas.WITHDRAWAL_BELOW:
        return "Withdrawal"
    return "High" if value > formulas.HIGH_ABOVE else "Sober"
