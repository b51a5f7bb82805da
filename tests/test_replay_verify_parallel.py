"""``hedonic replay --verify`` on several files: side by side in worker processes, reported in order."""

from __future__ import annotations

import io
from pathlib import Path

from replay_helpers import record_bot_game
from roguelike.cli.verifying import replay_files, verify_files
from roguelike.ground.pool import BYTES_PER_WORKER, cores, workers_for
from roguelike.replay.fileformat import read_replay, replay_bytes
from test_replay_record_verify import changed_command


def three_replays(tmp_path: Path) -> list[Path]:
    """A good replay, one whose 15th command was changed (it diverges), and a damaged file."""
    good, _ = record_bot_game(tmp_path / "good", seed=3, turns=40)
    changed, _ = record_bot_game(tmp_path / "changed", seed=5, turns=30)
    changed.write_bytes(replay_bytes(changed_command(read_replay(changed), 15)))
    damaged = tmp_path / "damaged.replay"
    damaged.write_bytes(b"not a replay at all")
    return [good, changed, damaged]


def verified(paths: list[Path], jobs: int) -> tuple[int, str, str]:
    """The exit status and what ``--verify --jobs N`` prints."""
    out, err = io.StringIO(), io.StringIO()
    status = verify_files(paths, out, err, jobs)
    return status, out.getvalue(), err.getvalue()


def test_several_workers_report_exactly_what_one_does_in_the_order_given(tmp_path: Path) -> None:
    paths = three_replays(tmp_path)
    alone, together = verified(paths, jobs=1), verified(paths, jobs=3)
    assert together == alone
    status, out, err = together
    assert status == 2  # the worst: a damaged file
    lines = out.splitlines()
    assert lines[0].startswith(f"{paths[0]}: ") and "verified" in lines[0]
    assert lines[1].startswith(f"{paths[1]}: diverged at turn ")
    assert "damaged.replay" in err


def test_a_divergence_among_good_files_gives_status_one(tmp_path: Path) -> None:
    good, changed, _ = three_replays(tmp_path)
    assert verified([changed, good], jobs=2)[0] == 1
    assert verified([good, good], jobs=2)[0] == 0


def test_a_folder_stands_for_its_replays_in_name_order(tmp_path: Path) -> None:
    (tmp_path / "corpus").mkdir()
    for seed in (4, 2):
        made, _ = record_bot_game(tmp_path / str(seed), seed=seed, turns=10)
        made.rename(tmp_path / "corpus" / f"seed-{seed}.replay")
    (tmp_path / "corpus" / "notes.txt").write_text("not a replay")
    found, empty = replay_files([tmp_path / "corpus"])
    assert empty == []
    assert [path.name for path in found] == ["seed-2.replay", "seed-4.replay"]
    status, out, _ = verified([tmp_path / "corpus"], jobs=2)
    assert status == 0 and out.count("verified") == 2


def test_a_folder_without_replays_is_named_as_bad_input_not_a_success(tmp_path: Path) -> None:
    good, _ = record_bot_game(tmp_path / "good", seed=3, turns=10)
    (tmp_path / "empty").mkdir()
    status, out, err = verified([tmp_path / "empty", good], jobs=2)
    assert status == 2 and "verified" in out
    assert err == f"hedonic replay: {tmp_path / 'empty'}: a folder without replay files (*.replay)\n"


FORKED_WITH = """
import io, os, sys
from pathlib import Path
from roguelike.cli.verifying import verify_files
seen = []
os.register_at_fork(before=lambda: seen.append({"tcod", "roguelike.replay.verify"} <= set(sys.modules)))
status = verify_files([Path(p) for p in sys.argv[1:]], io.StringIO(), io.StringIO(), 2)
print(status, seen)
"""


def test_the_workers_are_forked_with_the_game_already_imported(tmp_path: Path) -> None:
    import subprocess
    import sys

    paths = [record_bot_game(tmp_path / str(seed), seed=seed, turns=10)[0] for seed in (1, 2)]
    run = subprocess.run(
        [sys.executable, "-c", FORKED_WITH, *map(str, paths)],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).parent.parent,
    )
    assert run.stdout.strip() == "0 [True, True]"  # every fork shares the imports


def test_by_default_a_few_small_files_are_verified_in_one_process(tmp_path: Path) -> None:
    small = [record_bot_game(tmp_path / str(seed), seed=seed, turns=10)[0] for seed in (1, 2, 3)]
    assert workers_for(small) == 1
    big = tmp_path / "big.replay"
    big.write_bytes(bytes(3 * BYTES_PER_WORKER))
    assert workers_for([big, *small]) == min(3, cores())
