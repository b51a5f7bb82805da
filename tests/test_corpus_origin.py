"""A bot's game keeps its bot origin through re-recording, so the corpus never ranks as played games.

The corpus's bot games name the ``bot`` origin in their replay header (outside the
checksums: their commands and records are those the bots played); re-recording keeps it,
and a proof of such a file says ``bot`` and never ranks.
"""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest

from conftest import ROOT
from replay_helpers import bot_commands
from roguelike.replay import corpus
from roguelike.replay.fileformat import FORMAT_VERSION, ReplayError, header_bytes, read_replay
from roguelike.replay.library import origin_of
from roguelike.scores.proof import prove_file

CORPUS = ROOT / "replays"


@pytest.mark.parametrize("recipe", corpus.load_recipes(CORPUS), ids=lambda recipe: recipe.file)
def test_every_bot_game_of_the_corpus_names_the_bot_origin(recipe: corpus.Recipe) -> None:
    replay = read_replay(CORPUS / recipe.file)
    assert replay.header.origin == "bot" and origin_of(replay) == "bot"


def test_a_bot_game_of_the_corpus_proves_as_a_bots_and_does_not_rank() -> None:
    proof = prove_file(CORPUS / "death-overdose.replay")
    assert proof.origin == "bot" and not proof.ranked


def test_rerecording_gives_a_bots_game_its_origin_and_keeps_every_record_byte(tmp_path: Path) -> None:
    path = tmp_path / "game.replay"
    commands = bot_commands(11, 60)
    corpus.record(path, path.stem, 11, "Bot", commands, FORMAT_VERSION)  # recorded before origins were kept
    before = read_replay(path)
    records = path.read_bytes()[before.ends[0] :]
    assert prove_file(path).origin == "played"
    said = corpus.write_recording(path, 11, "Bot", commands, origin=corpus.BOT_ORIGIN)
    after = read_replay(path)
    assert said == "origin marked (bot)" and after.header.origin == "bot"
    assert (after.steps, after.header.date, after.header.version) == (
        before.steps,
        before.header.date,
        before.header.version,
    )
    assert path.read_bytes()[after.ends[0] :] == records
    assert prove_file(path).origin == "bot" and not prove_file(path).ranked


def test_rerecording_a_replay_from_its_own_commands_keeps_its_origin(tmp_path: Path) -> None:
    path = tmp_path / "game.replay"
    corpus.record(path, path.stem, 11, "Bot", bot_commands(11, 40), FORMAT_VERSION, origin="bot")
    out, err = io.StringIO(), io.StringIO()
    assert corpus.rerecord_one(path, out, err) == 0
    assert out.getvalue().endswith("unchanged\n") and read_replay(path).header.origin == "bot"


def test_a_header_naming_an_origin_that_ranks_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "game.replay"
    corpus.record(path, path.stem, 11, "Bot", bot_commands(11, 5), FORMAT_VERSION, origin="bot")
    replay = read_replay(path)
    claimed = replace(replay.header, origin="daily")  # well framed, its CRC right: only the claim is wrong
    path.write_bytes(header_bytes(claimed) + path.read_bytes()[replay.ends[0] :])
    with pytest.raises(ReplayError, match="origin 'daily'"):
        read_replay(path)
