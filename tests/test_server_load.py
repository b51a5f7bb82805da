"""A bounded load on loopback: 200 uploads from 20 concurrent clients, each run decided once, none lost.

Twenty distinct games (a corpus game's first 1, 2, ... 20 commands), each uploaded ten times by clients racing each other: the server keeps 20
runs and verifies each once. Speed (p95 upload-to-verdict under 20 clients) is measured by
bench/bench_server.py, never asserted here.
"""

from __future__ import annotations

import threading

from sqlalchemy import func, select

from roguelike.server import store
from server_helpers import ServerProcess, database, distinct_files, post, postgres, wait_http  # noqa: F401

FILES, TIMES, CLIENTS = 20, 10, 20


def test_200_uploads_from_20_clients_make_20_runs_each_verified_once(database: str) -> None:
    uploads = [data for data in distinct_files(FILES) for _ in range(TIMES)]
    answers: list[tuple[str, bool]] = []
    lock = threading.Lock()
    server = ServerProcess("--db", database, "--port", "0", "--verifiers", "2")

    def client(mine: list[bytes]) -> None:
        for data in mine:
            answer = post(server.base, data)
            with lock:
                answers.append((answer["hash"], answer["new"]))

    try:
        threads = [threading.Thread(target=client, args=(uploads[number::CLIENTS],)) for number in range(CLIENTS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        digests = sorted({digest for digest, _ in answers})
        runs = wait_http(server.base, digests, 240)
    finally:
        server.stop()
    assert len(answers) == FILES * TIMES and len(digests) == FILES
    assert sum(new for _, new in answers) == FILES  # each file was new exactly once, whoever raced
    assert {run["status"] for run in runs.values()} == {"verified"}
    engine = store.open_engine(database)
    with engine.connect() as connection:
        assert connection.execute(select(func.count()).select_from(store.runs)).scalar() == FILES
    engine.dispose()
