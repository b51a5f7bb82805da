"""The message area: two hits in one turn read as one line with a count; the log keeps both."""

from __future__ import annotations

import argparse
from pathlib import Path

from components import Attributes
from roguelike.cli.saves import games_for
from roguelike.core.commands import Wait, Wizard
from roguelike.screens.ingame import InGameScreen
from roguelike.screens.messages import MessageLogScreen
from save_helpers import screen_rows

GRIP = "An Anxiety grips you: -1 Will."


def test_two_anxieties_hitting_at_once_show_one_line_with_a_count(tmp_path: Path) -> None:
    session = games_for(argparse.Namespace(data_dir=str(tmp_path), seed=3, wizard=True)).new("Merlin")
    session.apply(Wizard("monster", kind="anxiety"))
    session.apply(Wizard("monster", kind="anxiety"))
    will = session.game.player_component(Attributes).will
    session.apply(Wait())  # they notice the player: that turn they hold still
    assert session.game.player_component(Attributes).will == will
    session.apply(Wait())
    assert session.game.player_component(Attributes).will == will - 2  # two real hits, not one said twice
    texts = [message.text for message in session.game.state.messages]
    assert texts.count(GRIP) == 2  # the log (checksummed state) keeps both
    rows = screen_rows(InGameScreen(session))
    assert sum(GRIP in row for row in rows) == 1 and any(f"{GRIP} (x2)" in row for row in rows)
    assert sum(GRIP in row for row in screen_rows(MessageLogScreen(session.game))) == 2  # the full log shows each
    session.close()
