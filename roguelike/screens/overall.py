"""The Overall page of Character stats: totals, bests, averages and causes of death."""

from __future__ import annotations

from collections import Counter

import tcod.console

from roguelike.core.names import fit
from roguelike.saves import CharacterRecord
from roguelike.screens.death import cause_name
from roguelike.screens.style import HEADING, HINT, TEXT

BAR = (200, 70, 90)
BAR_WIDTH = 40


def totals(records: list[CharacterRecord]) -> list[tuple[str, str]]:
    """Sums and averages over every character."""
    count = len(records)
    turns = sum(r.turns for r in records)
    doses = sum(r.doses for r in records)
    return [
        ("Characters", f"{count}"),
        ("Turns survived", f"{turns}"),
        ("Doses used", f"{doses}"),
        ("Close calls", f"{sum(r.close_calls for r in records)}"),
        ("Monsters slain", f"{sum(r.kills for r in records)}"),
        ("Average life", f"{turns / count:.0f} turns" if count else "-"),
        ("Average doses", f"{doses / count:.1f}" if count else "-"),
        ("Finds taken", f"{sum(sum(r.finds.values()) for r in records)}"),
    ]


def bests(records: list[CharacterRecord]) -> list[tuple[str, str]]:
    """The best of every character, with who did it."""
    found = []
    for label, key in (
        ("Longest life", "turns"),
        ("Deepest floor", "deepest"),
        ("Most kills", "kills"),
        ("Most doses", "doses"),
    ):
        best = max(records, key=lambda r: getattr(r, key), default=None)
        found.append((label, f"{getattr(best, key)} ({fit(best.name, 14)})" if best else "-"))
    high = max(records, key=lambda r: r.best_streak or 0, default=None)
    found.append(("Longest High", f"{high.best_streak} ({fit(high.name, 14)})" if high and high.best_streak else "-"))
    return found


def draw_overall(console: tcod.console.Console, records: list[CharacterRecord]) -> None:
    """Totals and averages, bests, and the causes of death as a bar chart."""
    for row, (label, value) in enumerate(totals(records)):
        console.print(2, 3 + row, f"{label:<16}{value:>12}", fg=TEXT)
    console.print(34, 3, "Bests", fg=HEADING)
    for row, (label, value) in enumerate(bests(records)):
        console.print(34, 4 + row, f"{label:<15}{value}", fg=TEXT)
    console.print(2, 12, "Causes of death", fg=HEADING)
    causes = Counter(cause_name(r.cause) for r in records).most_common(8)
    widest = max((n for _, n in causes), default=1)
    for row, (cause, number) in enumerate(causes):
        length = max(1, round(BAR_WIDTH * number / widest))
        console.print(4, 13 + row, f"{fit(cause, 14):<14}", fg=TEXT)
        console.print(19, 13 + row, "█" * length, fg=BAR)
        console.print(20 + length, 13 + row, f"{number}", fg=HINT)
    if not records:
        console.print(4, 13, "No character has died yet.", fg=TEXT)
