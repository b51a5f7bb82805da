"""Messages that name a kind of monster or dose give it the article English wants."""

from __future__ import annotations

import argparse
from pathlib import Path

from roguelike.cli.saves import games_for
from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.content.doses import DOSE_KINDS
from roguelike.content.wording import with_article
from roguelike.core.commands import Wizard


def test_a_name_starting_with_a_vowel_takes_an() -> None:
    assert with_article("Anxiety") == "an Anxiety" and with_article("extra-large dose") == "an extra-large dose"
    assert with_article("Hunger") == "a Hunger" and with_article("large dose", capital=True) == "A large dose"


def test_wizard_spawns_name_the_kind_with_its_article(tmp_path: Path) -> None:
    session = games_for(argparse.Namespace(data_dir=str(tmp_path), seed=3, wizard=True)).new("Merlin")
    for change in (
        Wizard("monster", kind="anxiety"),
        Wizard("dose", kind="extra_large_dose"),
        Wizard("monster", kind="voices"),
        Wizard("monster", kind="hunger"),
    ):
        session.apply(change)
    said = [message.text for message in session.game.state.messages]
    assert [line for line in said if line.startswith("Wizard:")] == [
        "Wizard: an Anxiety appears.",
        "Wizard: an extra-large dose appears.",
        "Wizard: Voices appear.",
        "Wizard: a Hunger appears.",
    ]
    session.close()


def test_first_sight_notices_and_dose_descriptions_open_with_the_right_article() -> None:
    for kind in MONSTER_KINDS.values():
        assert kind.sighting.startswith(f"{kind.one(capital=True)} ({kind.glyph})"), kind.key
    for dose in DOSE_KINDS.values():
        assert dose.description.startswith(with_article(dose.name, capital=True)), dose.key


def every_template_said() -> list[str]:
    """Every message the game builds from a template, filled with one and with several of each count."""
    from roguelike.assist.disturb import BAND_WORDS, monster_noun, notice_words
    from roguelike.content.wording import counted

    said: list[str] = []
    for kind in MONSTER_KINDS.values():
        for turns in (1, 3):
            said.append(kind.hit_text.format(amount=1, turns=counted(turns, "turn"), nerve=1, confidence=1))
        said += [
            kind.sighting,
            f"{kind.name} ({kind.glyph}): {kind.hit_summary}.",
            f"You see {monster_noun(kind.key)}.",
            notice_words(kind.key),
        ]
    said += [f"You see {with_article(dose.name)}." for dose in DOSE_KINDS.values()]
    said += [dose.description for dose in DOSE_KINDS.values()]
    said += [f"You are {words} now." for words in BAND_WORDS.values()]
    return said


def test_every_template_says_an_before_a_vowel_and_counts_in_the_right_number() -> None:
    import re

    for line in every_template_said():
        assert not re.search(r"\b[Aa] [aeiouAEIOU]", line), line
        assert not re.search(r"\b1 turns\b", line) and not re.search(r"\b([02-9]|\d\d+) turn\b", line), line
        assert not re.search(r"You are (Withdrawal|Desperation) now", line), line
    assert "Voices scream: -1 Confidence, stunned for 1 turn." in every_template_said()
    assert "You are in Withdrawal now." in every_template_said()
