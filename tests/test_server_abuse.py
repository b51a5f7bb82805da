"""Uploads that try to game the board or fill the disk (issue 47: R3, R4, R6, R20), in-process.

One game is one run whatever its file's bytes; an upload naming an epoch cannot switch the
board; garbage in valid framing is refused before it is stored, a client's stored bytes are
bounded per hour, and the bytes of a run the game's reader refused are dropped; what the
game's reader accepts (a zeroed tail a power cut left) the server accepts too.
"""

from __future__ import annotations

import os
import zlib
from dataclasses import replace

import msgpack
import pytest
from sqlalchemy import func, select
from starlette.testclient import TestClient

from roguelike.core.epoch import RULES_EPOCH
from roguelike.ground.replayframe import FRAME, MASK32, PREAMBLE
from roguelike.replay.fileformat import ReplayError, parse_replay, read_replay, replay_bytes
from roguelike.server import store
from roguelike.server.app import ScoreServer, ServerConfig
from roguelike.server.board import Window, board_at
from roguelike.server.envelope import Envelope, Limits, Refused, open_upload
from server_helpers import CORPUS, database, distinct_files, played_bytes, postgres, served, upload, verdict  # noqa: F401

SHORT = next(path for path in CORPUS if path.name == "death-exhaustion.replay")


class FakeClock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def framed(payload: bytes) -> bytes:
    """One frame of the replay file around a payload (valid length, complement and CRC)."""
    return FRAME.pack(len(payload), len(payload) ^ MASK32, zlib.crc32(payload)) + payload


def header_part(data: bytes) -> bytes:
    """A replay's preamble and header frame."""
    length = FRAME.unpack_from(data, PREAMBLE.size)[0]
    return data[: PREAMBLE.size + FRAME.size + length]


def test_files_of_one_game_are_one_run_whatever_their_header_or_a_cut_frame_appended(served: TestClient) -> None:
    data = played_bytes(SHORT)
    replay = read_replay(SHORT)
    headers = [
        replace(replay.header, game_id="another-id"),
        replace(replay.header, date="2030-01-01T00:00:00+00:00"),
        replace(replay.header, version="9.9"),
    ]
    variants = [replay_bytes(replace(replay, header=header)) for header in headers]
    variants.append(data + framed(b"\x93\x00\x01\x02")[:9])  # a cut frame appended: the game reads up to it
    first = upload(served, data)
    verdict(served, first)
    answers = [served.post("/runs", content=variant).json() for variant in variants]
    assert [(answer["hash"], answer["new"]) for answer in answers] == [(first, False)] * len(variants)
    board = served.get("/board.json").json()
    assert [entry["hash"] for entry in board["ranked"]] == [first] and board["unranked"] == []


def test_a_broken_copy_uploaded_first_cannot_keep_the_honest_file_of_its_game_out(served: TestClient) -> None:
    replay = read_replay(SHORT)
    steps = list(replay.steps)
    steps[3] = replace(steps[3], checksum="00" * 8)  # the same commands, a checksum the game never gave
    broken = upload(served, replay_bytes(replace(replay, steps=steps)))
    assert verdict(served, broken)["status"] == "diverged"
    answer = served.post("/runs", content=played_bytes(SHORT)).json()
    assert answer["new"] is True and verdict(served, answer["hash"])["status"] == "verified"


def test_two_files_of_one_game_verified_side_by_side_rank_once(database: str) -> None:
    proved = {"verdict": "verified", "score": 50, "ranked": True, "turns": 9, "name": "Bot", "recorded": "2026"}
    engine = store.open_engine(database)
    for digest, recorded in (("a", "2026-02"), ("b", "2026-01")):
        with engine.begin() as connection:
            store.add_run(connection, Envelope(digest.encode(), digest * 64, 3, 9, "g" * 64))
            store.record_verdict(connection, digest * 64, {**proved, "recorded": recorded})
    with engine.connect() as connection:
        board = board_at(connection, 3, None, Window())
    engine.dispose()
    assert [entry["hash"] for entry in board.ranked] == ["b" * 64]
    assert [(entry["hash"], entry["why"]) for entry in board.unranked] == [
        ("a" * 64, f"the same game as run {'b' * 12}")
    ]


def test_an_upload_naming_a_huge_epoch_never_switches_the_default_board(database: str) -> None:
    replay = read_replay(SHORT)
    huge = replay_bytes(replace(replay, header=replace(replay.header, epoch=2**31 - 1), steps=replay.steps[:3]))
    with TestClient(ScoreServer(ServerConfig(database, epoch=RULES_EPOCH)).app) as client:
        upload(client, huge)
        assert client.get("/board.json").json()["epoch"] == RULES_EPOCH  # nothing verified yet: this game's epoch
        digest = upload(client, played_bytes(SHORT))
        verdict(client, digest)
        board = client.get("/board.json").json()
    assert board["epoch"] == RULES_EPOCH and board["epochs"] == [RULES_EPOCH]
    assert [entry["hash"] for entry in board["ranked"]] == [digest]


def test_garbage_in_valid_framing_is_refused_before_it_is_stored(database: str) -> None:
    head = header_part(played_bytes(SHORT))
    noise = head + b"".join(framed(os.urandom(16 * 1024)) for _ in range(40))
    texts = head + b"".join(framed(msgpack.packb("x" * 16000)) for _ in range(40))
    bad_header = head[: PREAMBLE.size] + framed(msgpack.packb({"epoch": RULES_EPOCH})) + framed(msgpack.packb("x"))
    with TestClient(ScoreServer(ServerConfig(database)).app) as client:
        answers = [client.post("/runs", content=data) for data in (noise, texts, bad_header)]
    assert [answer.status_code for answer in answers] == [400, 400, 400], [answer.text for answer in answers]
    engine = store.open_engine(database)
    with engine.connect() as connection:
        assert connection.execute(select(func.count()).select_from(store.replays)).scalar() == 0
    engine.dispose()


def test_a_client_may_have_only_so_many_bytes_kept_an_hour(database: str) -> None:
    files = distinct_files(3)
    clock = FakeClock()
    config = ServerConfig(database, client_bytes=len(files[0]) + len(files[1]) + 10)
    with TestClient(ScoreServer(config, clock=clock).app) as client:
        kept = [client.post("/runs", content=data).status_code for data in files[:2]]
        over = client.post("/runs", content=files[2])
        again = client.post("/runs", content=files[0])  # a run kept already costs nothing
        clock.now += 3600
        later = client.post("/runs", content=files[2])
    assert kept == [202, 202] and over.status_code == 429 and over.text.count("\n") == 1
    assert again.status_code == 202 and later.status_code == 202


def test_the_bytes_of_a_run_the_games_reader_refuses_are_dropped(served: TestClient) -> None:
    head = header_part(played_bytes(SHORT))
    unknown = head + framed(msgpack.packb([0, 1, ["no-such-command", 7], 0, b"\0" * 8, {}]))
    digest = upload(served, unknown)
    assert verdict(served, digest)["status"] == "unreadable"
    assert served.get(f"/runs/{digest}/replay").status_code == 404
    assert served.get(f"/runs/{digest}").json()["status"] == "unreadable"


def power_cut(data: bytes, zeros: int) -> bytes:
    """The file with its last ``zeros`` bytes zeroed, as a power cut leaves the blocks never written."""
    return data[:-zeros] + b"\0" * zeros


def test_a_zeroed_tail_the_game_reads_is_accepted_and_verified(served: TestClient) -> None:
    replay = read_replay(SHORT)
    whole = replay_bytes(replace(replay, steps=replay.steps[:30]))
    last = len(whole) - len(replay_bytes(replace(replay, steps=replay.steps[:29])))
    for zeros in (last, 20):  # the whole last record, or the end of its payload only
        data = power_cut(whole, zeros)
        assert len(parse_replay(data).steps) == 29
        run = verdict(served, upload(served, data))
        assert run["status"] == "verified" and run["commands"] == 29


@pytest.mark.parametrize("cut", range(1, 8))
def test_whatever_the_games_reader_accepts_the_server_accepts_with_as_many_commands(cut: int) -> None:
    data = played_bytes(SHORT)
    end = PREAMBLE.size + (len(data) - PREAMBLE.size) * cut // 8
    tails = [
        data[:end],
        power_cut(data[:end], 12),
        power_cut(data[:end], 300),
        data[:end] + b"\0" * 40,
        data[:end] + os.urandom(40),
        power_cut(data[:end], 11),
    ]
    for sample in tails:
        try:
            steps = len(parse_replay(sample).steps)
        except ReplayError:
            with pytest.raises(Refused):  # what the game refuses as damaged, the server does not keep
                open_upload(sample, Limits())
            continue
        assert open_upload(sample, Limits()).commands == steps
