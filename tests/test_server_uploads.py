"""The score server in-process: an upload is verified in a child, once, and only what it proved is shown."""

from __future__ import annotations

import io
import zipfile
from dataclasses import replace
from pathlib import Path

from starlette.testclient import TestClient

from roguelike.core.commands import Mark
from roguelike.replay.fileformat import read_replay, replay_bytes
from roguelike.scores.proof import prove_file
from server_helpers import CORPUS, database, played_bytes, postgres, served, upload, verdict  # noqa: F401

SHORT = next(path for path in CORPUS if path.name == "death-exhaustion.replay")
SHORT_PLAYED = played_bytes(SHORT)  # the corpus's bot game as a played one, which ranks


def test_an_upload_is_accepted_pending_then_verified_with_the_recomputed_score(served: TestClient) -> None:
    answer = served.post("/runs", content=SHORT_PLAYED)
    assert answer.status_code == 202 and answer.json()["status"] == "pending" and answer.json()["new"] is True
    run = verdict(served, answer.json()["hash"])
    proof = prove_file(SHORT)
    assert run["status"] == "verified" and run["score"] == proof.score and proof.score is not None
    assert run["breakdown"][-1]["points"] == proof.score and run["turns"] == proof.turns
    assert served.get(f"/runs/{answer.json()['hash']}/replay").content == SHORT_PLAYED


def test_the_same_file_twice_or_in_a_score_files_zip_is_one_run(served: TestClient) -> None:
    first = upload(served, SHORT_PLAYED)
    again = served.post("/runs", content=SHORT_PLAYED).json()
    bundle = io.BytesIO()
    with zipfile.ZipFile(bundle, "w") as score_file:
        score_file.writestr("game.replay", SHORT_PLAYED)
        score_file.writestr("morgue.txt", "the morgue is not part of the run")
    zipped = served.post("/runs", content=bundle.getvalue()).json()
    assert again["hash"] == zipped["hash"] == first and again["new"] is False and zipped["new"] is False
    verdict(served, first)
    board = served.get("/board.json").json()
    assert [entry["hash"] for entry in board["ranked"]] == [first]


def test_oversize_too_long_and_garbage_are_refused_with_one_line(database: str) -> None:
    from roguelike.server.app import ScoreServer, ServerConfig
    from roguelike.server.envelope import Limits

    limits = Limits(max_bytes=SHORT.stat().st_size + 10, max_commands=100)
    with TestClient(ScoreServer(ServerConfig(database, limits)).app) as client:
        large = client.post("/runs", content=b"\0" * (limits.max_bytes + 1))
        long = client.post("/runs", content=SHORT_PLAYED)
        garbage = client.post("/runs", content=b"not a replay at all")
        damaged = bytearray(SHORT_PLAYED)
        damaged[200] ^= 0x10
        broken = client.post("/runs", content=bytes(damaged))
        assert client.get("/board.json").json()["pending"] == 0
    assert large.status_code == 413 and long.status_code == 400 and garbage.status_code == 400
    assert broken.status_code == 400 and "damaged" in broken.text
    assert "more than 100 commands" in long.text
    assert all(answer.text.count("\n") == 1 for answer in (large, long, garbage, broken))


def tampered(path: Path) -> bytes:
    """A replay with one command changed and every frame re-sealed (a cheater's edit, not a damaged file)."""
    replay = read_replay(path)
    steps = list(replay.steps)
    steps[5] = replace(steps[5], command=steps[6].command if steps[6].command != steps[5].command else Mark("bot"))
    return replay_bytes(replace(replay, steps=steps))


def test_a_tampered_file_is_diverged_at_its_step_and_never_on_the_board(served: TestClient) -> None:
    digest = upload(served, tampered(SHORT))
    run = verdict(served, digest)
    assert run["status"] == "diverged" and run["score"] is None and run["diverged_at_step"] is not None
    board = served.get("/board.json").json()
    listed = [entry["hash"] for part in ("ranked", "unranked", "unverified") for entry in board[part]]
    assert digest not in listed and digest not in served.get("/board").text


def test_the_board_is_ordered_by_recomputed_scores_whatever_the_upload_order(
    served: TestClient, tmp_path: Path
) -> None:
    played = []
    for path in sorted(CORPUS, key=lambda path: path.stat().st_size):
        played.append(tmp_path / path.name)
        played[-1].write_bytes(played_bytes(path))
    digests = [upload(served, path.read_bytes()) for path in played]
    for digest in digests:
        verdict(served, digest)
    proved = sorted((prove_file(path) for path in played), key=lambda proof: -(proof.score or 0))
    board = served.get("/board.json").json()
    assert [entry["score"] for entry in board["ranked"]] == [proof.score for proof in proved if proof.ranked]
    assert [entry["rank"] for entry in board["ranked"]] == list(range(1, len(board["ranked"]) + 1))
    page = served.get("/board", headers={"accept": "text/html"}).text
    places = [page.index(f">{entry['score']}<") for entry in board["ranked"]]
    assert places == sorted(places)


def test_unranked_origins_and_living_games_are_shown_apart_never_ranked(served: TestClient, tmp_path: Path) -> None:
    from test_scores_hall import played

    bot = played(tmp_path / "bot", "Botty", 11, "bot")
    living = read_replay(SHORT)
    alive = replay_bytes(replace(living, header=replace(living.header, origin=None), steps=living.steps[:40]))
    digests = [upload(served, bot.read_bytes()), upload(served, alive)]
    runs = [verdict(served, digest) for digest in digests]
    assert [run["status"] for run in runs] == ["verified", "verified"] and not any(run["ranked"] for run in runs)
    board = served.get("/board.json").json()
    assert board["ranked"] == []
    assert {entry["hash"]: entry["why"] for entry in board["unranked"]} == {
        digests[0]: "unranked origin: bot",
        digests[1]: "the game is not over",
    }
    assert "Verified, not ranked" in served.get("/board").text


def test_unknown_runs_and_malformed_queries_are_answered_plainly(served: TestClient) -> None:
    assert served.get("/runs/" + "0" * 64).status_code == 404
    assert served.get("/runs/../../etc/passwd").status_code == 404
    assert served.get("/board?epoch=x").status_code == 400
    assert served.get("/board.json?daily=yesterday").status_code == 400
    assert served.get("/board.json?daily=2026-11-26").json()["ranked"] == []
