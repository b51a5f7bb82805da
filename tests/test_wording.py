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
    for change in (Wizard("monster", kind="anxiety"), Wizard("dose", kind="extra_large_dose"),
                   Wizard("monster", kind="voices"), Wizard("monster", kind="hunger")):
        session.apply(change)
    said = [message.text for message in session.game.state.messages]
    assert [line for line in said if line.startswith("Wizard:")] == [
        "Wizard: an Anxiety appears.", "Wizard: an extra-large dose appears.",
        "Wizard: Voices appear.", "Wizard: a Hunger appears.",
    ]
    session.close()


def test_first_sight_notices_and_dose_descriptions_open_with_the_right_article() -> None:
    for kind in MONSTER_KINDS.values():
        assert kind.sighting.startswith(f"{kind.one(capital=True)} ({kind.glyph})"), kind.key
    for dose in DOSE_KINDS.values():
        assert dose.description.startswith(with_article(dose.name, capital=True)), dose.key
