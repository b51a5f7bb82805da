"""The accounts of hosted play: sign-up, log-in, log-out, sessions, limits, forged forms and the session-key file,
through the pages as a browser uses them (Starlette's TestClient) on SQLite, and on PostgreSQL where a database's
own rules matter (one account per name whatever its capitals)."""

from __future__ import annotations

import os
import re
import stat
import threading
from collections.abc import Iterator
from html import escape
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher, extract_parameters
from sqlalchemy import Engine, insert, select
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.testclient import TestClient
from starlette.websockets import WebSocket

from roguelike.server import accountpages as pages
from roguelike.server import store
from roguelike.server.accounts import COOKIE, WRONG, Accounts, Limits, accounts
from roguelike.server.sessionkey import KEY_FILE, KeyFileRefused
from server_helpers import database, postgres  # noqa: F401

CHEAP = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)  # argon2id still, at a test's cost
PASSWORD = "correct horse"


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    """A SQLite database in the test's folder."""
    made = store.open_engine(f"sqlite:///{tmp_path}/scores.sqlite")
    yield made
    made.dispose()


@pytest.fixture
def clock() -> Clock:
    return Clock()


def served(found: Accounts, base_url: str = "http://testserver") -> TestClient:
    """A client of an app with the accounts' routes, ``/`` answering whom a request is, ``/ws`` a WebSocket's."""

    async def whom(request: Request) -> Response:
        return PlainTextResponse(str(found.account_of(request)))

    async def whom_over_websocket(websocket: WebSocket) -> None:
        await websocket.accept()
        await websocket.send_text(str(found.account_of(websocket)))
        await websocket.close()

    routes = [*found.routes(), Route("/", whom), WebSocketRoute("/ws", whom_over_websocket)]
    return TestClient(Starlette(routes=routes), base_url=base_url, follow_redirects=False)


def accounts_in(engine: Engine, tmp_path: Path, clock: Clock, **options: Any) -> Accounts:
    """Accounts keeping their key in the test's folder, hashing cheaply, on the test's clock."""
    return Accounts(engine, tmp_path, clock=clock, hasher=options.pop("hasher", CHEAP), **options)


def sign_up(client: TestClient, name: str, password: str = PASSWORD, again: str | None = None) -> Any:
    """Post the sign-up form."""
    return client.post("/signup", data={"name": name, "password": password, "again": again or password})


def log_in(client: TestClient, name: str, password: str = PASSWORD, **headers: str) -> Any:
    """Post the log-in form."""
    return client.post("/login", data={"name": name, "password": password}, headers=headers)


def whom(client: TestClient) -> str:
    """Whom the client is logged in as ("None" when no one)."""
    return str(client.get("/").text)


def test_signing_up_logs_in_with_an_http_only_lax_cookie(engine: Engine, tmp_path: Path, clock: Clock) -> None:
    with served(accounts_in(engine, tmp_path, clock)) as client:
        assert "Sign up" in client.get("/signup").text and whom(client) == "None"
        answer = sign_up(client, "Ann")
        assert answer.status_code == 303 and answer.headers["location"] == "/"
        cookie = answer.headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Max-Age=2592000" in cookie
        assert "Secure" not in cookie  # plain http: a Secure cookie would never come back
        assert whom(client) == "Ann"
        assert "You are logged in as <strong>Ann</strong>" in client.get("/login").text
        with client.websocket_connect("/ws") as websocket:
            assert websocket.receive_text() == "Ann"
    with engine.connect() as db:
        row = db.execute(select(accounts)).one()
    assert (row.folded, row.name, row.generation) == ("ann", "Ann", 0)
    assert row.hash.startswith("$argon2id$") and PASSWORD not in row.hash
    assert row.created == "2023-11-14T22:13:20Z"


def test_over_https_the_cookie_is_secure(engine: Engine, tmp_path: Path, clock: Clock) -> None:
    with served(accounts_in(engine, tmp_path, clock), base_url="https://testserver") as client:
        assert "Secure" in sign_up(client, "Ann").headers["set-cookie"]
    told = accounts_in(engine, tmp_path, clock, secure=True)  # behind a proxy that ends TLS
    with served(told) as client:
        assert "Secure" in log_in(client, "Ann").headers["set-cookie"]


def test_a_name_is_one_account_whatever_its_capitals(database: str, tmp_path: Path, clock: Clock) -> None:  # noqa: F811
    engine = store.open_engine(database)
    try:
        found = accounts_in(engine, tmp_path, clock)
        with served(found) as client:
            assert sign_up(client, "Ann").status_code == 303
            again = sign_up(client, "aNN", "another password")
            assert again.status_code == 409 and pages.TAKEN in again.text
            with served(found) as other:
                assert log_in(other, "ANN").status_code == 303 and whom(other) == "Ann"
                assert log_in(other, "aNN", "another password").status_code == 401
        made: list[object] = []
        racers = [
            threading.Thread(target=lambda name=name: made.append(found.sign_up(name, PASSWORD))) for name in "Bb"
        ]
        for racer in racers:
            racer.start()
        for racer in racers:
            racer.join()
        assert sorted(map(bool, made)) == [False, True]  # two sign-ups at once of one name: one account
        with engine.connect() as db:
            assert sorted(db.execute(select(accounts.c.folded)).scalars()) == ["ann", "b"]
    finally:
        engine.dispose()


def test_an_unknown_name_and_a_wrong_password_get_the_same_answer(engine: Engine, tmp_path: Path, clock: Clock) -> None:
    with served(accounts_in(engine, tmp_path, clock)) as client:
        sign_up(client, "Ann")
        client.cookies.clear()
        wrong, unknown = log_in(client, "Ann", "not the password"), log_in(client, "Bob")
        assert wrong.status_code == unknown.status_code == 401
        assert WRONG in wrong.text and wrong.text.replace("Ann", "Bob") == unknown.text
        assert "set-cookie" not in wrong.headers and "set-cookie" not in unknown.headers
        assert whom(client) == "None"
        right = log_in(client, "Ann")
        assert right.status_code == 303 and whom(client) == "Ann"


@pytest.mark.parametrize(
    "name", ["", "A" * 21, "two words", "<script>alert(1)</script>", "\x1b[31mred", "x';DROP TABLE accounts;--", "Åsa"]
)
def test_sign_up_refuses_names_outside_the_rule(engine: Engine, tmp_path: Path, clock: Clock, name: str) -> None:
    with served(accounts_in(engine, tmp_path, clock)) as client:
        answer = sign_up(client, name)
        assert answer.status_code == 400 and pages.NAME_RULE in answer.text
        assert "<script>" not in answer.text and "\x1b" not in answer.text  # the name typed is shown back, escaped
    with engine.connect() as db:
        assert db.execute(select(accounts)).all() == []


@pytest.mark.parametrize(
    ("password", "again", "why"),
    [("short12", "short12", "8 to 256"), ("x" * 257, "x" * 257, "8 to 256"), (PASSWORD, PASSWORD + "!", "differ")],
)
def test_sign_up_refuses_passwords_too_short_too_long_or_mistyped(
    engine: Engine, tmp_path: Path, clock: Clock, password: str, again: str, why: str
) -> None:
    with served(accounts_in(engine, tmp_path, clock)) as client:
        answer = sign_up(client, "Ann", password, again)
        assert answer.status_code == 400 and why in answer.text and whom(client) == "None"


def test_log_ins_are_limited_per_name_and_per_address_until_time_passes(
    engine: Engine, tmp_path: Path, clock: Clock
) -> None:
    limits = Limits(per_name=3, per_address=5, window=60.0)  # a try back every 20 s a name, every 12 s an address
    found = accounts_in(engine, tmp_path, clock, limits=limits)
    for name in ("Ann", "Bob"):
        assert found.sign_up(name, PASSWORD) is not None
    with served(found) as client:
        assert [log_in(client, "Ann", "guess").status_code for _ in range(3)] == [401] * 3
        refused = log_in(client, "ann")  # the right password, but this name has had its tries
        assert refused.status_code == 429 and pages.TOO_MANY_LOGINS in refused.text and whom(client) == "None"
        assert log_in(client, "Bob").status_code == 303  # another name, from the same address: its 5th try
        assert log_in(client, "Bob").status_code == 429  # the address has had its tries
        clock.now += 20.0
        assert log_in(client, "Ann").status_code == 303 and whom(client) == "Ann"


def test_unknown_names_are_limited_as_known_ones_are(engine: Engine, tmp_path: Path, clock: Clock) -> None:
    found = accounts_in(engine, tmp_path, clock, limits=Limits(per_name=2, per_address=100))
    with served(found) as client:
        assert [log_in(client, name).status_code for name in ("Zed", "zed", "ZED")] == [401, 401, 429]


def test_sign_ups_are_limited_per_address(engine: Engine, tmp_path: Path, clock: Clock) -> None:
    found = accounts_in(engine, tmp_path, clock, limits=Limits(signups=2, signup_window=3600.0))
    with served(found) as client:
        assert [sign_up(client, name).status_code for name in ("a", "b", "c")] == [303, 303, 429]
        clock.now += 1800.0
        assert sign_up(client, "c").status_code == 303


def test_a_session_ends_when_it_expires(engine: Engine, tmp_path: Path, clock: Clock) -> None:
    with served(accounts_in(engine, tmp_path, clock, lifetime=3600.0)) as client:
        assert "Max-Age=3600" in sign_up(client, "Ann").headers["set-cookie"]
        clock.now += 3599.0
        assert whom(client) == "Ann"
        clock.now += 1.0
        assert whom(client) == "None"
        log_in(client, "Ann")
        assert whom(client) == "Ann"


def test_forged_and_tampered_cookies_are_refused(engine: Engine, tmp_path: Path, clock: Clock) -> None:
    found = accounts_in(engine, tmp_path, clock)
    elsewhere = tmp_path / "another server"
    elsewhere.mkdir()
    other = accounts_in(engine, elsewhere, clock)
    with served(found) as client:
        sign_up(client, "Ann")
        sign_up(client, "Bob")
        real = found.signer.cookie("ann", 0)
        body, mac = real.split(".")
        bob = found.signer.cookie("bob", 0).split(".")[0]
        forged = [
            other.signer.cookie("ann", 0),  # another key
            f"{bob}.{mac}",  # another account's body under Ann's signature
            f"{body[:-2]}{'A' if body[-2] != 'A' else 'B'}{body[-1]}.{mac}",  # one character changed
            f"{body}.{mac[:-1]}",
            body,
            "",
            "x" * 4000,
            found.signer.cookie("nobody", 0),  # rightly signed, for an account there is not
            found.signer.cookie("ann", 1),  # a generation the account has not reached
        ]
        client.cookies.clear()  # the sign-ups' own cookies
        for cookie in forged:
            client.cookies.set(COOKIE, cookie)
            assert whom(client) == "None", cookie
        client.cookies.set(COOKIE, real)
        assert whom(client) == "Ann"


def test_logging_out_ends_every_session_of_the_account(engine: Engine, tmp_path: Path, clock: Clock) -> None:
    found = accounts_in(engine, tmp_path, clock)
    with served(found) as here, served(found) as there:
        sign_up(here, "Ann")
        log_in(there, "Ann")
        kept = here.cookies[COOKIE]
        assert whom(here) == whom(there) == "Ann"
        answer = here.post("/logout")
        assert answer.status_code == 303 and answer.headers["location"] == "/login"
        assert f'{COOKIE}=""' in answer.headers["set-cookie"] and "Max-Age=0" in answer.headers["set-cookie"]
        assert whom(here) == "None" and whom(there) == "None"
        here.cookies.clear()
        here.cookies.set(COOKIE, kept)  # a copy of the cookie kept from before: no longer a session
        assert whom(here) == "None"
        log_in(here, "Ann")
        assert whom(here) == "Ann"


def test_forms_posted_from_another_site_are_refused(engine: Engine, tmp_path: Path, clock: Clock) -> None:
    with served(accounts_in(engine, tmp_path, clock)) as client:
        evil = {"origin": "https://evil.example"}
        answer = client.post("/signup", data={"name": "Ann", "password": PASSWORD, "again": PASSWORD}, headers=evil)
        assert answer.status_code == 403 and escape(pages.OTHER_SITE) in answer.text
        assert sign_up(client, "Ann").status_code == 303
        assert log_in(client, "Ann", **evil).status_code == 403
        assert log_in(client, "Ann", **{"sec-fetch-site": "cross-site"}).status_code == 403
        assert log_in(client, "Ann", origin="null").status_code == 403
        assert client.post("/logout", headers=evil).status_code == 403 and whom(client) == "Ann"
        own = {"origin": "http://testserver", "sec-fetch-site": "same-origin"}
        assert log_in(client, "Ann", **own).status_code == 303
    behind_a_proxy = accounts_in(engine, tmp_path, clock, origin="https://hedonic.example")  # Host: 127.0.0.1
    with served(behind_a_proxy, base_url="http://127.0.0.1:8025") as client:
        assert log_in(client, "Ann", origin="http://127.0.0.1:8025").status_code == 403
        assert log_in(client, "Ann", origin="https://hedonic.example").status_code == 303


def test_forms_that_cannot_be_read_are_refused(engine: Engine, tmp_path: Path, clock: Clock) -> None:
    with served(accounts_in(engine, tmp_path, clock)) as client:
        huge = client.post("/signup", data={"name": "Ann", "password": "x" * 5000, "again": "x"})
        as_json = client.post("/login", json={"name": "Ann", "password": PASSWORD})
        not_utf8 = client.post(
            "/login", content=b"name=%FF&password=x", headers={"content-type": "application/x-www-form-urlencoded"}
        )
        for answer in (huge, as_json, not_utf8):
            assert answer.status_code == 400 and pages.UNREADABLE in answer.text


def test_names_made_by_hand_are_shown_escaped(engine: Engine, tmp_path: Path, clock: Clock) -> None:
    name = "<b>x</b>'\x1b[31m;DROP--"
    found = accounts_in(engine, tmp_path, clock)
    with engine.begin() as db:
        row = {"folded": name.casefold(), "name": name, "hash": CHEAP.hash(PASSWORD), "created": "x", "generation": 0}
        db.execute(insert(accounts).values(row))
    with served(found) as client:
        client.cookies.set(COOKIE, found.signer.cookie(name.casefold(), 0))
        assert whom(client) == name
        for path in ("/login", "/signup"):
            text = client.get(path).text
            assert "&lt;b&gt;x&lt;/b&gt;&#x27;\ufffd[31m;DROP--" in text
            assert "<b>x" not in text and "\x1b" not in text
        client.cookies.clear()
        typed = log_in(client, "<img src=x onerror=alert(1)>", "whatever")
        assert typed.status_code == 401 and "&lt;img src=x onerror=alert(1)&gt;" in typed.text
        assert "<img" not in typed.text


def test_a_password_is_rehashed_when_the_parameters_change(engine: Engine, tmp_path: Path, clock: Clock) -> None:
    assert accounts_in(engine, tmp_path, clock).sign_up("Ann", PASSWORD) is not None
    stronger = PasswordHasher(time_cost=2, memory_cost=16, parallelism=1)
    with served(accounts_in(engine, tmp_path, clock, hasher=stronger)) as client:
        assert log_in(client, "Ann").status_code == 303
    with engine.connect() as db:
        hashed = db.execute(select(accounts.c.hash)).scalar_one()
    assert (extract_parameters(hashed).time_cost, extract_parameters(hashed).memory_cost) == (2, 16)
    with served(accounts_in(engine, tmp_path, clock, hasher=stronger)) as client:
        assert log_in(client, "Ann").status_code == 303 and log_in(client, "Ann", "wrong one").status_code == 401


def test_the_session_key_is_made_once_for_its_owner_only(engine: Engine, tmp_path: Path, clock: Clock) -> None:
    first = accounts_in(engine, tmp_path, clock)
    key = tmp_path / KEY_FILE
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and len(key.read_bytes()) == 65
    kept = key.read_bytes()
    again = accounts_in(engine, tmp_path, clock)  # a restart reads the key: sessions outlive it
    assert key.read_bytes() == kept and [path.name for path in tmp_path.iterdir() if "key" in path.name] == [KEY_FILE]
    with served(first) as client:
        sign_up(client, "Ann")
        cookie = client.cookies[COOKIE]
    with served(again) as client:
        client.cookies.set(COOKIE, cookie)
        assert whom(client) == "Ann"


@pytest.mark.parametrize(
    ("content", "mode", "why"),
    [
        (b"not a key\n", 0o600, "not a session key"),
        (b"", 0o600, "not a session key"),
        (b"ab" * 31 + b"\n", 0o600, "not a session key"),
        (b"ab" * 32 + b"\n", 0o644, "others may read the session key (mode 0644)"),
    ],
)
def test_a_bad_session_key_file_is_named_and_left_as_it_was(
    engine: Engine, tmp_path: Path, clock: Clock, content: bytes, mode: int, why: str
) -> None:
    key = tmp_path / KEY_FILE
    key.write_bytes(content)
    key.chmod(mode)
    with pytest.raises(KeyFileRefused) as refused:
        accounts_in(engine, tmp_path, clock)
    assert str(key) in str(refused.value) and why in str(refused.value)
    assert key.read_bytes() == content and stat.S_IMODE(key.stat().st_mode) == mode


def test_a_session_key_that_is_a_link_or_a_folder_is_refused(engine: Engine, tmp_path: Path, clock: Clock) -> None:
    target = tmp_path / "elsewhere"
    target.write_bytes(b"ab" * 32 + b"\n")
    target.chmod(0o600)
    key = tmp_path / KEY_FILE
    os.symlink(target, key)
    with pytest.raises(KeyFileRefused, match="symbolic link"):
        accounts_in(engine, tmp_path, clock)
    assert key.is_symlink()
    key.unlink()
    key.mkdir()
    with pytest.raises(KeyFileRefused, match=re.escape(str(key))):
        accounts_in(engine, tmp_path, clock)
    assert key.is_dir()
