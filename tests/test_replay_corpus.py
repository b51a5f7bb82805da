"""The regression corpus in replays/: every file verifies, and it covers every way to die."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from conftest import ROOT
from replay_helpers import only_replay
from roguelike.content import formulas
from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.core.epoch import RULES_EPOCH
from roguelike.core.game import Game
from roguelike.replay.corpus import MANIFEST, load_recipes, rerecord_paths
from roguelike.replay.fileformat import Replay, read_replay
from roguelike.replay.playback import Playback
from roguelike.replay.verify import Outcome, verify
from test_crash_reports import explode_at_turn

CORPUS = ROOT / "replays"
FILES = sorted(CORPUS.glob("*.replay"))
RERECORD = "hedonic replay --rerecord replays/"
BUMP = f"the rules changed: bump RULES_EPOCH (roguelike/core/epoch.py) and re-record ({RERECORD})"
# Every cause of death the game has: the State of Mind's two and each lethal monster.
# A new one needs a corpus recipe (see replays/README.md).
WAYS_TO_DIE = {"exhaustion", "overdose"} | {kind.key for kind in MONSTER_KINDS.values() if kind.hit.kills}
SEVERAL_FLOORS = 3


def played_out(replay: Replay) -> Game:
    """The game at the end of a replay."""
    playback = Playback(replay)
    playback.seek_step(len(replay.steps))
    return playback.game


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_every_corpus_replay_verifies(path: Path) -> None:
    problem = corpus_problem(read_replay(path))
    assert problem is None, f"{path.name}: {problem}"


def corpus_problem(replay: Replay) -> str | None:
    """What the corpus guard says of a corpus replay (None when it verifies under this epoch)."""
    if replay.header.epoch != RULES_EPOCH:
        return (
            f"recorded under rules epoch {replay.header.epoch}, and the game plays epoch {RULES_EPOCH}: "
            f"re-record ({RERECORD}), which keeps the old file in replays/epochs/"
        )
    verdict = verify(replay)
    if verdict.outcome is Outcome.MATCHED:
        return None
    return "\n".join([*verdict.details, f"If the game changed on purpose, {BUMP}"])


def test_the_corpus_guard_asks_for_an_epoch_bump_when_the_rules_change(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(formulas, "STATE_OF_MIND_START", formulas.STATE_OF_MIND_START + 1)
    problem = corpus_problem(read_replay(CORPUS / "death-overdose.replay"))
    assert problem is not None and "bump RULES_EPOCH" in problem and RERECORD in problem


def test_the_corpus_holds_every_way_to_die_and_a_game_across_floors() -> None:
    games = [played_out(read_replay(path)) for path in FILES]
    causes = {game.state.cause_of_death for game in games}
    assert WAYS_TO_DIE <= causes, f"no corpus replay dies of {WAYS_TO_DIE - causes}"
    assert max(game.state.depth for game in games) >= SEVERAL_FLOORS


def test_every_recipe_has_its_file_showing_what_it_is_for() -> None:
    recipes = load_recipes(CORPUS)
    assert recipes
    for recipe in recipes:
        assert recipe.shown_by(played_out(read_replay(CORPUS / recipe.file))), f"{recipe.file}: {RERECORD}"


def test_rerecording_an_unchanged_game_changes_no_file(tmp_path: Path) -> None:
    copy = tmp_path / "replays"
    shutil.copytree(CORPUS, copy)
    out = io.StringIO()
    assert rerecord_paths([copy], out, io.StringIO()) == 0
    stale = f"the corpus is not what the game and its bots make now: {RERECORD}\n{out.getvalue()}"
    assert out.getvalue().count(": unchanged (seed") == len(load_recipes(CORPUS)), stale
    for path in FILES:
        assert (copy / path.name).read_bytes() == path.read_bytes(), stale
    assert (copy / MANIFEST).read_text() == (CORPUS / MANIFEST).read_text(), stale


def test_a_fixed_bugs_replay_is_rerecorded_from_its_own_commands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from roguelike.cli.main import main

    explode_at_turn(monkeypatch, 20)
    main(["simulate", "--seed", "5", "--turns", "100", "--data-dir", str(tmp_path)])
    crashed = only_replay(tmp_path)
    before = read_replay(crashed)
    assert before.crash is not None
    monkeypatch.undo()  # the bug is fixed
    assert rerecord_paths([crashed], io.StringIO(), io.StringIO()) == 0
    after = read_replay(crashed)
    assert after.crash is None and len(after.steps) == len(before.steps) + 1
    assert [s.command for s in after.steps] == [s.command for s in before.steps] + [before.crash.command]
    assert verify(after).outcome is Outcome.MATCHED
