"""Uploads from strangers (issue 46): damaged at random, huge, claiming a score, named to inject, in-process.

The envelope is the web process's only reader of an upload: hundreds of random cuts and bit
flips must meet it as they meet the game's own reader. A million commands are refused before
they are read; a score a file claims is never shown; a name is shown as text, never as markup.
"""

from __future__ import annotations

import io
import random
import zipfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import msgpack
import pytest
from sqlalchemy import func, select
from starlette.testclient import TestClient

from replay_helpers import play
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.ground.replayframe import FRAME, PREAMBLE
from roguelike.replay.fileformat import ReplayError, frame, parse_replay, preamble, read_replay, replay_bytes
from roguelike.replay.recorder import recording_observers
from roguelike.scores.proof import prove_file
from roguelike.server import store
from roguelike.server.app import ScoreServer, ServerConfig
from roguelike.server.envelope import Limits, Refused, open_upload
from server_helpers import CORPUS, database, played_bytes, postgres, served, upload, verdict  # noqa: F401

SHORT = next(path for path in CORPUS if path.name == "death-exhaustion.replay")
TRIES = 300
NASTY = "<script>alert(1)</script><img src=x onerror=alert(2)> '); DROP TABLE runs;-- &amp;"


@pytest.fixture
def sqlite_served(tmp_path: Path) -> Iterator[TestClient]:
    """The score server on a SQLite file, in this process."""
    with TestClient(ScoreServer(ServerConfig(f"sqlite:///{tmp_path}/scores.sqlite")).app) as client:
        yield client


def both_readers(sample: bytes) -> tuple[int | None, int | None]:
    """The commands the game's reader and the envelope read in a file (None: refused as damaged)."""
    try:
        game: int | None = len(parse_replay(sample).steps)
    except ReplayError:
        game = None
    try:
        server: int | None = open_upload(sample, Limits()).commands
    except Refused as refused:
        assert refused.status == 400 and "\n" not in refused.reason
        server = None
    return game, server


@pytest.mark.parametrize("damage", ["cut", "flip"])
def test_random_cuts_and_bit_flips_meet_the_envelope_as_they_meet_the_games_reader(damage: str) -> None:
    data = played_bytes(SHORT)
    chance = random.Random(f"issue 46 {damage}")
    differing = []
    for _ in range(TRIES):
        at = chance.randrange(PREAMBLE.size, len(data))
        if damage == "cut":
            sample = data[:at]
        else:
            flipped = bytearray(data)
            flipped[at] ^= 1 << chance.randrange(8)
            sample = bytes(flipped)
        game, server = both_readers(sample)
        if game != server:
            differing.append((at, game, server))
    assert differing == []


def million_commands() -> bytes:
    """A replay of 10^6 well-framed steps (the corpus game's header, its first command again and again)."""
    replay = read_replay(SHORT)
    data = SHORT.read_bytes()
    header_end = replay.ends[0]
    first = msgpack.unpackb(data[header_end + FRAME.size : replay.ends[1]], raw=False)
    steps = [frame([first[0], number, first[2], first[3], first[4], {}]) for number in range(1, 1_000_001)]
    return data[:header_end] + b"".join(steps)


def test_a_million_commands_are_refused_raw_zipped_or_under_a_generous_size_limit(tmp_path: Path) -> None:
    data = million_commands()
    bundle = io.BytesIO()
    with zipfile.ZipFile(bundle, "w", zipfile.ZIP_DEFLATED) as score_file:
        score_file.writestr("game.replay", data)
    assert len(bundle.getvalue()) < Limits().max_bytes < len(data)  # the zip passes the size limit, its replay not
    with TestClient(ScoreServer(ServerConfig(f"sqlite:///{tmp_path}/scores.sqlite")).app) as client:
        raw = client.post("/runs", content=data)
        zipped = client.post("/runs", content=bundle.getvalue())
        assert client.get("/board.json").json()["pending"] == 0
    assert (raw.status_code, zipped.status_code) == (413, 413)
    with pytest.raises(Refused) as refused:
        open_upload(data, Limits(max_bytes=len(data)))
    assert refused.value.status == 400 and "more than 50000 commands" in refused.value.reason


def streamed(data: bytes) -> Iterator[bytes]:
    """A body sent in pieces, its length never declared (chunked)."""
    for start in range(0, len(data), 64 * 1024):
        yield data[start : start + 64 * 1024]


def test_a_body_too_large_is_refused_when_its_length_is_not_declared(sqlite_served: TestClient) -> None:
    answer = sqlite_served.post("/runs", content=streamed(b"\0" * (Limits().max_bytes + 1)))
    assert answer.status_code == 413 and answer.text.count("\n") == 1
    assert sqlite_served.get("/board.json").json()["pending"] == 0


def claiming(data: bytes, score: int) -> bytes:
    """A replay whose header also claims a score (the game's reader ignores fields it does not know)."""
    replay = parse_replay(data)
    return (
        preamble(replay.format)
        + frame({**replay.header.to_plain(replay.format), "score": score, "turns": 1})
        + data[replay.ends[0] :]
    )


def test_a_claimed_score_is_never_shown_only_the_recomputed_one(sqlite_served: TestClient) -> None:
    forged = claiming(played_bytes(SHORT), 987_654_321)
    bundle = io.BytesIO()
    with zipfile.ZipFile(bundle, "w") as score_file:
        score_file.writestr("game.replay", forged)
        score_file.writestr("morgue.txt", "Bot died on floor 9 with 987654321 points")
    run = verdict(sqlite_served, upload(sqlite_served, bundle.getvalue()))
    proof = prove_file(SHORT)
    assert run["status"] == "verified" and run["score"] == proof.score != 987_654_321
    (entry,) = sqlite_served.get("/board.json").json()["ranked"]
    assert entry["score"] == proof.score and entry["turns"] == proof.turns
    page = sqlite_served.get("/board").text
    assert f">{proof.score}<" in page and "987654321" not in page and "987,654,321" not in page


def named(root: Path, name: str) -> bytes:
    """A game played to its death by a character ``name``; its replay's bytes."""
    game = Game.new(11, name)
    session = Session(game, recording_observers(root, game, "named"))
    play(session, 3000)
    session.close()
    return (root / "replays" / "named.replay").read_bytes()


def test_a_name_of_markup_and_sql_is_kept_as_it_is_and_shown_as_text(
    served: TestClient, database: str, tmp_path: Path
) -> None:
    digest = upload(served, named(tmp_path, NASTY))
    run = verdict(served, digest)
    assert run["status"] == "verified" and run["ranked"] and run["name"] == NASTY
    assert [entry["name"] for entry in served.get("/board.json").json()["ranked"]] == [NASTY]
    page = served.get("/board").text
    assert "<script>" not in page and "<img" not in page and "&amp;amp;" in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt; &#x27;); DROP TABLE" in page
    engine = store.open_engine(database)
    with engine.connect() as connection:
        assert connection.execute(select(func.count()).select_from(store.runs)).scalar() == 1  # the table stands
    engine.dispose()


def test_a_name_with_terminal_escapes_is_never_verified_nor_shown(sqlite_served: TestClient) -> None:
    replay = read_replay(SHORT)
    for name in ("\x1b[2J\x1b]0;owned\x07Bot", "Bot\u202eyalp", "Bot\nRanked #1"):
        data = replay_bytes(replace(replay, header=replace(replay.header, name=name, origin=None)))
        run = verdict(sqlite_served, upload(sqlite_served, data))
        assert run["status"] == "unreadable" and run["score"] is None and run["name"] is None
    board = sqlite_served.get("/board.json").json()
    assert board["ranked"] == board["unranked"] == board["unverified"] == []
