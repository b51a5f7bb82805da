"""Help pages hold whatever the tables grow to: every word reaches the 80x25 screen, whole.

The content tables are swapped for ones many rows longer (throwaway monsters, doses,
finds, rules, keys) and every part of every page is turned to and read back from the
console it draws on.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator
from typing import TypeVar

import pytest
import tcod.console
from tcod.event import KeySym, Modifier

from roguelike.content import formulas
from roguelike.content.bestiary import MONSTER_KINDS, MonsterKind
from roguelike.content.doses import DOSE_KINDS, DoseKind
from roguelike.content.finds import FIND_KINDS, FindKind
from roguelike.screens import help, helptext
from roguelike.screens.help import HINTS, PAGES, TOP, HelpScreen, Known, fitted, line_text, parts_of
from save_helpers import key, screen_rows

FILLER = (
    "an unusually long-winded explanation of what this throwaway row would do to the player"
    " if it were ever real, told at length so that it wraps over several rows of the screen"
)
Kind = TypeVar("Kind", MonsterKind, DoseKind, FindKind)


def throwaway_kinds(table: dict[str, Kind], count: int, **texts: str) -> dict[str, Kind]:
    """The table and ``count`` more rows made from its first, named ``extra0``..., their texts long."""
    first = next(iter(table.values()))
    more = {}
    for number in range(count):
        name = f"extra{number}"
        more[name] = dataclasses.replace(
            first, key=name, name=name, **{field: f"{name} {text}" for field, text in texts.items()}
        )
    return {**table, **more}


@pytest.fixture
def long_tables(monkeypatch: pytest.MonkeyPatch) -> Iterator[Known]:
    """Every table the help reads, many rows longer; what the help knows of all the monsters."""
    monsters = throwaway_kinds(MONSTER_KINDS, 30, hit_summary=FILLER[:60], moves=FILLER)
    monkeypatch.setattr(help, "MONSTER_KINDS", monsters)
    monkeypatch.setattr(help, "DOSE_KINDS", throwaway_kinds(DOSE_KINDS, 20, description=FILLER))
    monkeypatch.setattr(help, "FIND_KINDS", throwaway_kinds(FIND_KINDS, 20, description=FILLER))
    monkeypatch.setattr(helptext, "RULES", helptext.RULES + tuple((f"Rule {n}", FILLER) for n in range(30)))
    monkeypatch.setattr(helptext, "CONTROLS", helptext.CONTROLS + tuple((f"Action {n}", FILLER) for n in range(30)))
    monkeypatch.setattr(helptext, "HIGHS", helptext.HIGHS + tuple((f"High {n}", FILLER) for n in range(10)))
    monkeypatch.setattr(helptext, "LEGEND", helptext.LEGEND + (("#", FILLER),) * 20)
    yield Known(met=frozenset(monsters), tolerance=4, depth=6, state_of_mind=30)


def shown_parts(screen: HelpScreen) -> Iterator[tuple[str, list[str]]]:
    """Each part of every page, turned to with the keys, as the 80x25 rows it draws."""
    first = screen.title
    while True:
        yield screen.title, screen_rows(screen)
        screen.on_event(key(KeySym.RIGHT))
        if screen.title == first:
            return


def topic(title: str) -> str:
    """``Rules`` of ``Rules 2/3``."""
    return title.rsplit(" ", 1)[0] if title[-1].isdigit() else title


def words_shown(known: Known) -> dict[str, list[str]]:
    """Every word each page shows on screen, part after part, in order."""
    shown: dict[str, list[str]] = {}
    for title, rows in shown_parts(HelpScreen(known)):
        assert f" {title} " in rows[0] + " ", f"the tab of {title} is cut: {rows[0]!r}"
        shown.setdefault(topic(title), []).extend(" ".join(rows[TOP:HINTS]).split())
    return shown


def is_subsequence(words: list[str], within: list[str]) -> bool:
    """Whether ``words`` appear in ``within`` in this order."""
    remaining = iter(within)
    return all(word in remaining for word in words)


def every_word_reaches_the_screen(known: Known) -> dict[str, list[str]]:
    """Each page's words, as its builder makes them, are the words its parts show: none cut, none lost."""
    shown = words_shown(known)
    assert list(shown) == [title for title, _ in PAGES]
    for title, build in PAGES:
        built = " ".join(line_text(line) for line in build(known)).split()
        assert shown[title] == built, f"{title}: words cut or lost on screen"
    return shown


def test_the_help_as_shipped_shows_every_word_whole() -> None:
    every_word_reaches_the_screen(Known(met=frozenset(MONSTER_KINDS), tolerance=4, depth=6, state_of_mind=30))


def test_tables_many_rows_longer_page_through_every_word(long_tables: Known) -> None:
    shown = every_word_reaches_the_screen(long_tables)
    for name in (f"extra{n}" for n in range(20)):
        for page, field in (("Bestiary", FILLER), ("Doses", FILLER), ("Highs", FILLER)):
            assert is_subsequence(f"{name} {field}".split(), shown[page]), (page, name)
    assert is_subsequence(FILLER.split(), shown["Rules"]) and is_subsequence(FILLER.split(), shown["Legend"])
    titles = [title for title, _ in shown_parts(HelpScreen(long_tables))]
    assert {topic(title) for title in titles if "/" in title} == {title for title, _ in PAGES}  # each in parts


def test_the_parts_of_a_page_are_numbered_and_turned_both_ways(long_tables: Known) -> None:
    screen = HelpScreen(long_tables)
    titles = [title for title, _ in shown_parts(screen)]
    for name, group in itertools.groupby(titles, topic):
        numbered = list(group)
        if len(numbered) > 1:
            assert numbered == [f"{name} {n}/{len(numbered)}" for n in range(1, len(numbered) + 1)]
    screen.on_event(key(KeySym.TAB, Modifier.SHIFT))
    assert screen.title == titles[-1]
    screen.on_event(key(KeySym.N3))
    assert screen.title == next(title for title in titles if title.startswith("Bestiary"))
    screen.on_event(key(KeySym.LEFT))
    assert topic(screen.title) == "Rules" and screen.title.endswith(f"/{screen.title[-1]}")


def test_a_larger_console_shows_the_same_page() -> None:
    screen = HelpScreen(Known(met=frozenset(MONSTER_KINDS)), page="Bestiary")
    large = tcod.console.Console(120, 40, order="C")
    screen.on_draw(large, 0.0)
    rows = ["".join(chr(c) for c in row[: formulas.SCREEN_WIDTH]).rstrip() for row in large.rgb["ch"]]
    assert rows[: formulas.SCREEN_HEIGHT] == screen_rows(screen)


def test_a_line_too_wide_wraps_at_its_words_under_where_its_text_began() -> None:
    white = (255, 255, 255)
    rows = fitted([("  Q  ", white), ("Quibble     ", white), (FILLER, white), ("  floor 9+", white)])
    texts = [line_text(row) for row in rows]
    assert all(len(text) <= help.WIDTH for text in texts)
    assert " ".join(texts).split() == ["Q", "Quibble", *FILLER.split(), "floor", "9+"]
    assert all(text.startswith(" " * 17) and not text[17].isspace() for text in texts[1:-1])


def test_a_page_breaks_between_entries_where_it_can() -> None:
    white = (255, 255, 255)
    entry = [[("Label", white), (" text", white)], *([("          more", white)],) * 4]
    parts = parts_of(entry * 6, size=12)
    assert [len(part) for part in parts] == [10, 10, 10]
    assert all(not line_text(part[0]).startswith(" ") for part in parts)
    assert parts_of([*entry, [], []], size=5) == [entry]  # no part of blank rows alone
