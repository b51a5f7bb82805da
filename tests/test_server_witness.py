"""The witnessed tier (issue 43): a certificate over a run's replay, account, seed and times holds only for those
bytes and fields and names what failed; another server's key is named as such; the key file is made once, 0600,
and a bad one is refused and left alone; the board lists witnessed runs above verified uploads."""

from __future__ import annotations

import io
import os
import stat
import zipfile
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy import Column, MetaData, Table, create_engine, inspect, select
from starlette.testclient import TestClient

from roguelike.cli.main import build_parser
from roguelike.cli.witness import witness
from roguelike.replay.fileformat import read_replay
from roguelike.server import store
from roguelike.server.app import ScoreServer, ServerConfig
from roguelike.server.board import Window, board_at
from roguelike.server.envelope import open_upload
from roguelike.server.witness import (
    HEADER,
    KEY_FILE,
    MALFORMED,
    REPLAY,
    SIGNATURE,
    UNTRUSTED,
    WITNESSED,
    Certificate,
    Malformed,
    WitnessKeyError,
    certificate_from,
    certify,
    key_id,
    public_pem,
    raw_public,
    server_key,
    verify,
    witnessed_zip,
)
from roguelike.server.witnessed import add_witnessed_run, keep_certified, retier
from server_helpers import CORPUS, database, distinct_files, played_bytes, postgres, upload, verdict  # noqa: F401

SHORT = next(path for path in CORPUS if path.name == "death-exhaustion.replay")
SHORT_PLAYED = played_bytes(SHORT)
HEADER_OF_SHORT = read_replay(SHORT).header  # the game's own reader: the certificate must agree with it
STARTED = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)
ENDED = STARTED + timedelta(minutes=42, milliseconds=7)


def certified(key: Ed25519PrivateKey, replay: bytes = SHORT_PLAYED, account: str = "ann") -> Certificate:
    """A certificate of the short corpus game, played by ``account`` on this key's server."""
    return certify(key, replay, account, HEADER_OF_SHORT.seed, HEADER_OF_SHORT.epoch, "2026-05-01", STARTED, ENDED)


def test_a_certificate_holds_for_its_run_and_its_file_form_reads_back_the_same() -> None:
    key = Ed25519PrivateKey.generate()
    certificate = certified(key)
    again = certificate_from(certificate.file_bytes())
    found = verify(again, SHORT_PLAYED, {raw_public(key.public_key())})
    assert again == certificate and found.kind == WITNESSED and found.witnessed
    assert (certificate.started, certificate.ended) == ("2026-05-01T09:00:00.000Z", "2026-05-01T09:42:00.007Z")
    assert certificate.key_id == key_id(raw_public(key.public_key())) and certificate.key_id in found.reason


def test_a_changed_byte_in_the_run_the_account_the_seed_or_the_times_fails_with_its_reason() -> None:
    key = Ed25519PrivateKey.generate()
    trusted = {raw_public(key.public_key())}
    certificate = certified(key)
    damaged = bytearray(SHORT_PLAYED)
    damaged[len(damaged) // 2] ^= 0x01
    later = STARTED + timedelta(milliseconds=1)
    changed: dict[str, tuple[Certificate, bytes]] = {
        "replay": (certificate, bytes(damaged)),
        "account": (replace(certificate, account="bob"), SHORT_PLAYED),
        "seed": (replace(certificate, seed=certificate.seed + 1), SHORT_PLAYED),
        "started": (replace(certificate, started=later.isoformat(timespec="milliseconds").replace("+00:00", "Z")),
                    SHORT_PLAYED),
        "ended": (replace(certificate, ended="2026-05-01T09:42:00.008Z"), SHORT_PLAYED),
        "daily": (replace(certificate, daily="2026-05-02"), SHORT_PLAYED),
        "signature": (replace(certificate, signature=f"{int(certificate.signature[0], 16) ^ 1:x}"
                              f"{certificate.signature[1:]}"), SHORT_PLAYED),
    }  # fmt: skip
    found = {name: verify(*case[:1], case[1], trusted) for name, case in changed.items()}
    assert {name: verdict.kind for name, verdict in found.items()} == {
        "replay": REPLAY,
        "account": SIGNATURE,
        "seed": HEADER,
        "started": SIGNATURE,
        "ended": SIGNATURE,
        "daily": SIGNATURE,
        "signature": SIGNATURE,
    }
    assert "the replay's bytes are not the certified ones" in found["replay"].reason
    assert "the signature does not match the certificate's fields" in found["account"].reason
    assert f"seed {certificate.seed + 1}" in found["seed"].reason and str(certificate.seed) in found["seed"].reason
    assert not any(verdict.witnessed for verdict in found.values())


def test_a_certificate_from_another_servers_key_is_named_as_such() -> None:
    ours, theirs = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    certificate = certified(theirs)
    found = verify(certificate, SHORT_PLAYED, {raw_public(ours.public_key())})
    their_id = key_id(raw_public(theirs.public_key()))
    assert found.kind == UNTRUSTED and found.key_id == their_id
    assert found.reason == f"signed by another server's key {their_id}, not one trusted here"
    # another key's public half put in the certificate (with its id) does not make the signature its own
    forged = replace(
        certificate, public_key=raw_public(ours.public_key()).hex(), key_id=key_id(raw_public(ours.public_key()))
    )
    assert verify(forged, SHORT_PLAYED, {raw_public(ours.public_key())}).kind == SIGNATURE


@pytest.mark.parametrize(
    ("written", "said"),
    [
        (b"not json {", "not JSON"),
        (b"[1, 2]", "not a certificate's fields"),
        (b"", "not JSON"),
    ],
)
def test_a_malformed_certificate_file_is_named(written: bytes, said: str, tmp_path: Path, capsys: Any) -> None:
    with pytest.raises(Malformed, match=said):
        certificate_from(written)
    replay, cert = tmp_path / "game.replay", tmp_path / "certificate.json"
    replay.write_bytes(SHORT_PLAYED)
    cert.write_bytes(written)
    assert run_cli(tmp_path, "verify", str(replay), str(cert)) == 1
    assert capsys.readouterr().out.startswith(f"{cert}: a malformed certificate: {said}")


def test_certificates_with_fields_of_the_wrong_kind_or_another_keys_id_are_malformed() -> None:
    key = Ed25519PrivateKey.generate()
    certificate = certified(key)
    wrong = [
        replace(certificate, key_id="0" * 16),
        replace(certificate, seed="1"),  # type: ignore[arg-type]
        replace(certificate, epoch=True),
        replace(certificate, started="2026-05-01 09:00:00"),
        replace(certificate, ended="2026-05-01T08:59:59.999Z"),
        replace(certificate, version=2),
        replace(certificate, signature="zz"),
    ]
    assert [verify(made, SHORT_PLAYED, {raw_public(key.public_key())}).kind for made in wrong] == [MALFORMED] * 7


def test_the_key_file_is_made_once_mode_0600_and_a_bad_one_is_named_and_left_alone(tmp_path: Path) -> None:
    made = server_key(tmp_path)
    path = tmp_path / KEY_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert raw_public(server_key(tmp_path).public_key()) == raw_public(made.public_key())  # read, not made again
    assert [name.name for name in tmp_path.iterdir()] == [KEY_FILE]  # no temporary file left
    for bad in (b"-----BEGIN PRIVATE KEY-----\ngarbage\n-----END PRIVATE KEY-----\n", b""):
        path.write_bytes(bad)
        with pytest.raises(WitnessKeyError, match=str(path)):
            server_key(tmp_path)
        assert path.read_bytes() == bad
    path.write_bytes(made.private_bytes_raw())  # raw bytes, not PEM
    with pytest.raises(WitnessKeyError, match="not an unencrypted PEM private key"):
        server_key(tmp_path)
    other = tmp_path / "open"
    other.mkdir()
    server_key(other)
    os.chmod(other / KEY_FILE, 0o644)
    with pytest.raises(WitnessKeyError, match="others may read this private key"):
        server_key(other)


def test_the_cli_verifies_an_exported_run_with_a_shared_key_and_names_another(tmp_path: Path, capsys: Any) -> None:
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    ours.mkdir()
    theirs.mkdir()
    assert run_cli(ours, "key") == 0
    shared = tmp_path / "ours.pem"
    shared.write_text(capsys.readouterr().out)
    key = server_key(ours / "server")
    exported = tmp_path / "run.zip"
    exported.write_bytes(witnessed_zip(SHORT_PLAYED, certified(key)))
    assert shared.read_text() == public_pem(key)
    assert run_cli(theirs, "verify", str(exported), "--key", str(shared)) == 0
    assert "witnessed: played by ann" in capsys.readouterr().out
    assert run_cli(theirs, "verify", str(exported)) == 1  # their own key is not ours
    assert f"signed by another server's key {certified(key).key_id}" in capsys.readouterr().out


def run_cli(data: Path, *words: str) -> int:
    """``hedonic --data-dir DATA witness WORDS``'s exit status."""
    args = build_parser().parse_args(["witness", *words])
    args.data_dir = str(data)
    return witness(args)


def test_the_board_lists_witnessed_runs_above_verified_uploads_and_the_unranked_apart(
    database: str, tmp_path: Path
) -> None:
    key = server_key(tmp_path)  # this server's: it trusts its own runs
    files = distinct_files(3)
    engine = store.open_engine(database)
    with engine.begin() as connection:
        seen = add_witnessed_run(connection, files[0], certified(key, files[0], account="<b>ann</b>"))
        uploaded = open_upload(files[1], store_limits()).digest
        store.add_run(connection, open_upload(files[1], store_limits()))
        bot = open_upload(files[2], store_limits()).digest
        store.add_run(connection, open_upload(files[2], store_limits()))
        for digest, score, ranked in ((seen, 10, True), (uploaded, 500, True), (bot, 900, False)):
            store.record_verdict(connection, digest, proved(score, ranked))
    with engine.connect() as connection:
        board = board_at(connection, HEADER_OF_SHORT.epoch, None, Window())
    engine.dispose()
    assert [row["hash"] for row in board.witnessed] == [seen] and board.witnessed[0]["rank"] == 1
    assert board.witnessed[0]["witness"]["account"] == "<b>ann</b>" and board.witnessed[0]["witness"]["trusted"]
    assert [row["hash"] for row in board.ranked] == [uploaded] and "witness" not in board.ranked[0]
    assert [row["hash"] for row in board.unranked] == [bot]
    assert board.totals == {"witnessed": 1, "ranked": 1, "unranked": 1, "unverified": 0}
    with TestClient(ScoreServer(ServerConfig(database, folder=str(tmp_path))).app) as client:
        page = client.get("/board", headers={"accept": "text/html"}).text
        exported = client.get(f"/runs/{seen}/witnessed")
    assert page.index("<h2>Witnessed</h2>") < page.index("<h2>Ranked verified uploads</h2>")
    assert "&lt;b&gt;ann&lt;/b&gt;" in page and "<b>ann</b>" not in page
    with zipfile.ZipFile(io.BytesIO(exported.content)) as bundle:
        assert bundle.read("game.replay") == files[0]
        assert certificate_from(bundle.read("certificate.json")) == certified(key, files[0], account="<b>ann</b>")
    with TestClient(ScoreServer(ServerConfig(database)).app) as client:  # a server that trusts no key
        elsewhere = client.get("/board.json").json()
    assert elsewhere["witnessed"] == [] and {row["hash"] for row in elsewhere["ranked"]} == {seen, uploaded}


def store_limits() -> Any:
    """The envelope's usual limits."""
    from roguelike.server.envelope import Limits

    return Limits()


def proved(score: int, ranked: bool) -> dict[str, Any]:
    """A verified verdict of that score."""
    return {
        "verdict": "verified",
        "ranked": ranked,
        "score": score,
        "turns": 50,
        "name": "Ann",
        "origin": "played" if ranked else "bot",
        "cause": "overdose",
        "recorded": "2026-05-01T10:00:00Z",
    }


def test_an_upload_signed_by_an_untrusted_key_is_a_verified_upload_saying_whose_key(
    database: str, tmp_path: Path
) -> None:
    theirs = Ed25519PrivateKey.generate()
    their_id = key_id(raw_public(theirs.public_key()))
    exported = witnessed_zip(SHORT_PLAYED, certified(theirs))
    with TestClient(ScoreServer(ServerConfig(database, folder=str(tmp_path))).app) as client:
        lying = client.post("/runs", content=witnessed_zip(SHORT_PLAYED, replace(certified(theirs), account="eve")))
        other = client.post("/runs", content=witnessed_zip(distinct_files(1)[0], certified(theirs)))
        answer = client.post("/runs", content=exported)
        digest = answer.json()["hash"]
        run = verdict(client, digest)
        board = client.get("/board.json").json()
        page = client.get("/board", headers={"accept": "text/html"}).text
    assert lying.status_code == 400 and "the certificate does not hold: the signature does not match" in lying.text
    assert other.status_code == 400 and "the replay's bytes are not the certified ones" in other.text
    assert answer.status_code == 202 and answer.json()["tier"] == "upload" and answer.json()["signed_by"] == their_id
    assert f"signed by another server's key {their_id}" in answer.json()["why"]
    assert run["status"] == "verified" and run["tier"] == "upload"
    assert board["witnessed"] == [] and [row["hash"] for row in board["ranked"]] == [digest]
    assert board["ranked"][0]["witness"] == {
        "account": "ann",
        "key": their_id,
        "trusted": False,
        "started": "2026-05-01T09:00:00.000Z",
        "ended": "2026-05-01T09:42:00.007Z",
    }
    assert f"signed by another server's key {their_id}" in page
    # the same server started trusting that key (--trust-key) ranks the run witnessed
    trusting = ServerConfig(database, folder=str(tmp_path), trusted=(raw_public(theirs.public_key()),))
    with TestClient(ScoreServer(trusting).app) as client:
        board = client.get("/board.json").json()
        again = client.post("/runs", content=exported).json()
    assert [row["hash"] for row in board["witnessed"]] == [digest] and board["ranked"] == []
    assert again["hash"] == digest and again["tier"] == "witnessed" and again["new"] is False


def test_a_plain_upload_sent_again_with_its_certificate_becomes_witnessed(database: str, tmp_path: Path) -> None:
    with TestClient(ScoreServer(ServerConfig(database, folder=str(tmp_path))).app) as client:
        plain = upload(client, SHORT_PLAYED)
        key = server_key(tmp_path)
        answer = client.post("/runs", content=witnessed_zip(SHORT_PLAYED, certified(key))).json()
        verdict(client, plain)
        board = client.get("/board.json").json()
    assert answer["hash"] == plain and answer["tier"] == "witnessed"
    assert [row["hash"] for row in board["witnessed"]] == [plain] and board["ranked"] == []


def test_a_database_from_before_tiers_gets_them_its_runs_uploads_its_board_index_with_the_tier(database: str) -> None:
    old = MetaData()
    table = Table(
        "runs",
        old,
        *[
            Column(column.name, column.type, primary_key=column.primary_key)
            for column in store.runs.columns
            if column.name not in ("certificate", "signer", "tier")
        ],
    )
    from sqlalchemy import Index

    Index("runs_board", table.c.epoch, table.c.standing, table.c.score.desc(), table.c.turns, table.c.hash)
    made = create_engine(database)
    old.create_all(made)
    row = {"hash": "a" * 64, "received": "2026-05-03T00:00:00Z", "epoch": 12, "commands": 3, "size": 9}
    with made.begin() as connection:
        connection.execute(table.insert(), [{**row, "status": "verified", "ranked": True, "standing": "ranked"}])
    made.dispose()
    engine = store.open_engine(database)
    indexes = {index["name"]: index["column_names"] for index in inspect(engine).get_indexes("runs")}
    with engine.connect() as connection:
        tiers = connection.execute(select(store.runs.c.tier)).scalars().all()
    engine.dispose()
    assert tiers == ["upload"]
    assert indexes["runs_board"][:3] == ["epoch", "standing", "tier"]
    assert indexes["runs_standing"] == ["epoch", "standing", "tier"]


def test_serve_trusts_the_keys_given_with_trust_key_and_names_a_bad_one(tmp_path: Path, capsys: Any) -> None:
    from roguelike.cli.serve import config_of, serve

    theirs = Ed25519PrivateKey.generate()
    shared, bad = tmp_path / "theirs.pem", tmp_path / "bad.pem"
    shared.write_text(public_pem(theirs))
    bad.write_text("not a key\n")
    args = build_parser().parse_args(["serve", "--trust-key", str(shared), "--trust-key", str(shared), "--port", "0"])
    args.data_dir = str(tmp_path / "data")
    config = config_of(args, None)
    assert config.trusted == (raw_public(theirs.public_key()),) * 2
    assert config.folder == str(tmp_path / "data" / "server")
    args.trust_key = [str(bad)]
    assert serve(args) == 1
    assert f"hedonic serve: {bad}: not a PEM public key" in capsys.readouterr().err


def test_the_witnessed_file_of_a_game_ranks_before_an_upload_of_it_until_its_key_is_no_longer_trusted(
    database: str,
) -> None:
    key = Ed25519PrivateKey.generate()
    one_game = sorted(distinct_files(2), key=lambda data: open_upload(data, store_limits()).digest)
    plain, seen = (replace(open_upload(data, store_limits()), game="g" * 64) for data in one_game)
    assert plain.digest < seen.digest  # equal placings: the hash alone would rank the upload
    engine = store.open_engine(database)
    with engine.begin() as connection:
        store.add_run(connection, plain)
        store.record_verdict(connection, plain.digest, proved(70, True))
        keep_certified(connection, seen, certified(key, seen.data), [raw_public(key.public_key())])
        store.record_verdict(connection, seen.digest, proved(70, True))
    assert standings_of(engine) == {seen.digest: "ranked", plain.digest: "copy"}
    retier(engine, [])  # the key no longer trusted: two uploads of one game, the hash decides again
    assert standings_of(engine) == {seen.digest: "copy", plain.digest: "ranked"}
    retier(engine, [raw_public(key.public_key())])
    assert standings_of(engine) == {seen.digest: "ranked", plain.digest: "copy"}
    engine.dispose()


def standings_of(engine: Any) -> dict[str, str]:
    """Every run's standing, by hash."""
    with engine.connect() as connection:
        return {row.hash: row.standing for row in connection.execute(select(store.runs.c.hash, store.runs.c.standing))}
