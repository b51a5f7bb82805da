"""The accounts of hosted play: sign up, log in, log out, and who a connection is (its signed session cookie).

What is kept, in the ``accounts`` table: the name as signed up, the name folded to lower case (the
key, so ``Ann`` and ``ann`` are one account), the password's argon2id hash (argon2-cffi's encoded
form: its parameters and salt with it) and the time it was made; and a *generation*: logging out
adds one to it, which ends every session of the account (each cookie names the generation it was
made in). No e-mail, nothing else.

- Names: 1-20 letters, digits, ``-`` and ``_`` (``NAME``); pages escape every name anyway.
- Passwords: 8 to 256 characters (argon2 hashes a longer one as cheaply, but a form is read whole).
  A log-in verifies with argon2 and rehashes the password when the server's parameters have
  changed. An unknown name and a wrong password get the same answer, after the same work (an
  unknown name is verified against a hash of nothing), so names cannot be probed by log-in.
  At most two hashes run at once (argon2id takes 64 MiB each).
- Sessions: a cookie ``hedonic_session`` signed with HMAC-SHA256 under the data folder's
  ``session-key`` (``roguelike.server.sessionkey``), carrying the account, its generation and an
  expiry (``lifetime``, 30 days unless told); ``HttpOnly``, ``SameSite=Lax``, ``Secure`` when the
  request came over https (or when told: behind a proxy that ends TLS, say ``secure=True``).
- Log-in attempts, counted before any hashing: 10 per name and 30 per client address at once, then
  one more every 90 s and 30 s (``Limits``); sign-ups: 5 per address, then one every 12 minutes.
  Behind a reverse proxy every client is the proxy's address: give the proxy its own limits.
- Forged requests: every POST must come from this site's own page. Browsers send ``Origin`` (and
  ``Sec-Fetch-Site``) with every form they post; one naming another site is refused (403). Together
  with ``SameSite=Lax`` this needs no token in the pages and no state on the server, and unlike
  SameSite alone it also stops another site logging a visitor into the forger's account. A request
  with neither header is no browser's form post and is let through. "This site" is the Host asked for,
  or ``origin`` when told (behind a proxy that does not pass the visitor's Host on).
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Column, Connection, Engine, Integer, String, Table, Text, select, update
from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from roguelike.server import accountpages as pages
from roguelike.server import store
from roguelike.server.quota import Allowance, Clock
from roguelike.server.sessionkey import Signer, session_key

NAME = re.compile(r"[A-Za-z0-9_-]{1,20}", re.ASCII)
LONGEST_NAME = 64  # what a log-in looks up at most (an operator may have made a longer one by hand)
SHORTEST_PASSWORD, LONGEST_PASSWORD = 8, 256
FORM_BYTES = 4096
COOKIE = "hedonic_session"
DAY = 86400.0
WRONG = "Wrong name or password."
HASHING = threading.BoundedSemaphore(2)  # argon2id takes 64 MiB a hash: at most two at once, whatever comes

accounts = Table(
    "accounts",
    store.metadata,
    Column("folded", String(LONGEST_NAME), primary_key=True),  # the name in lower case: Ann and ann are one
    Column("name", String(LONGEST_NAME), nullable=False),  # as signed up
    Column("hash", Text, nullable=False),  # argon2's encoded hash: the parameters and salt with it
    Column("created", String(32), nullable=False),
    Column("generation", Integer, nullable=False),  # a cookie made in an older one is no longer a session
)


@dataclass(frozen=True)
class Limits:
    """How many log-ins and sign-ups may be tried: ``most`` at once, refilled over ``window`` seconds."""

    per_name: int = 10
    per_address: int = 30
    window: float = 900.0
    signups: int = 5
    signup_window: float = 3600.0


@dataclass(frozen=True)
class Account:
    """An account's row."""

    folded: str
    name: str
    hash: str
    generation: int


Handler = Callable[[Request], Awaitable[Response]]


class Accounts:
    """Sign-up, log-in and log-out pages on one database, and the session cookies signed with the folder's key."""

    def __init__(
        self,
        engine: Engine,
        folder: Path | str,
        *,
        lifetime: float = 30 * DAY,
        clock: Clock = time.time,
        hasher: PasswordHasher | None = None,
        limits: Limits = Limits(),
        secure: bool | None = None,
        home: str = "/",
        origin: str | None = None,
    ) -> None:
        accounts.create(engine, checkfirst=True)  # whether or not this module was loaded before store.open_engine
        self.engine = engine
        self.clock = clock
        self.hasher = hasher or PasswordHasher()
        self.signer = Signer(session_key(Path(folder)), lifetime, clock)
        self.lifetime = lifetime
        self.secure = secure
        self.home = home
        self.origin = origin  # the site's public address: forms must come from it (else from the Host asked)
        self.by_name = Allowance(limits.per_name, limits.window, clock)
        self.by_address = Allowance(limits.per_address, limits.window, clock)
        self.signups = Allowance(limits.signups, limits.signup_window, clock)
        self.nothing = self.hasher.hash("")  # what an unknown name is verified against, to take as long

    def routes(self) -> list[Route]:
        """GET and POST /signup and /login, POST /logout."""
        return [
            Route("/signup", self.signup_page, methods=["GET"]),
            Route("/signup", self.from_this_site(self.signup), methods=["POST"]),
            Route("/login", self.login_page, methods=["GET"]),
            Route("/login", self.from_this_site(self.login), methods=["POST"]),
            Route("/logout", self.from_this_site(self.logout), methods=["POST"]),
        ]

    def account_of(self, connection: HTTPConnection) -> str | None:
        """The name of the account a request or WebSocket is logged in as (None: no cookie, or one forged, tampered
        with, expired, logged out, or of an account there is not)."""
        session = self.signer.read(connection.cookies.get(COOKIE, ""))
        if session is None:
            return None
        with self.engine.connect() as db:
            account = account_named(db, session[0])
        return account.name if account is not None and account.generation == session[1] else None

    async def signup_page(self, request: Request) -> Response:
        """The sign-up form."""
        return page(pages.signup_page(await asyncio.to_thread(self.account_of, request)))

    async def login_page(self, request: Request) -> Response:
        """The log-in form."""
        return page(pages.login_page(await asyncio.to_thread(self.account_of, request)))

    async def signup(self, request: Request) -> Response:
        """Make an account and log it in; or the form again, saying what was wrong."""
        form = await form_of(request)
        if form is None:
            return page(pages.signup_page(None, message=pages.UNREADABLE), 400)
        name, password = form.get("name", ""), form.get("password", "")
        problem = name_problem(name) or password_problem(password, form.get("again", ""))
        if problem:
            return page(pages.signup_page(None, name, problem), 400)
        if not self.signups.take(address(request), 1):
            return page(pages.signup_page(None, name, pages.TOO_MANY_SIGNUPS), 429)
        account = await asyncio.to_thread(self.sign_up, name, password)
        if account is None:
            return page(pages.signup_page(None, name, pages.TAKEN), 409)
        return self.logged_in(request, account)

    def sign_up(self, name: str, password: str) -> Account | None:
        """The new account (None when the name, in any case, is taken)."""
        with self.engine.connect() as db:
            if account_named(db, name.casefold()) is not None:
                return None  # not worth a hash
        with HASHING:
            hashed = self.hasher.hash(password)
        account = Account(name.casefold(), name, hashed, 0)
        made = datetime.fromtimestamp(self.clock(), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        with self.engine.begin() as db:
            row = {"folded": account.folded, "name": name, "hash": hashed, "created": made, "generation": 0}
            return account if store.insert_new(db, accounts, row) else None

    async def login(self, request: Request) -> Response:
        """Log in; or the form again, with one message for an unknown name and a wrong password."""
        form = await form_of(request)
        if form is None:
            return page(pages.login_page(None, message=pages.UNREADABLE), 400)
        name, password = form.get("name", ""), form.get("password", "")
        folded = name.casefold()[: LONGEST_NAME + 1]
        if not (self.by_address.take(address(request), 1) and self.by_name.take(folded, 1)):
            return page(pages.login_page(None, name, pages.TOO_MANY_LOGINS), 429)
        account = await asyncio.to_thread(self.log_in, name, password)
        if account is None:
            return page(pages.login_page(None, name, WRONG), 401)
        return self.logged_in(request, account)

    def log_in(self, name: str, password: str) -> Account | None:
        """The account whose name and password these are (None otherwise), its hash renewed if the parameters
        changed."""
        if not (0 < len(name) <= LONGEST_NAME and name.isprintable()) or len(password) > LONGEST_PASSWORD:
            return None  # no account can have such a name or password: nothing to learn from the time taken
        with self.engine.connect() as db:
            account = account_named(db, name.casefold())
        if not self.verified(account.hash if account else self.nothing, password) or account is None:
            return None
        if self.hasher.check_needs_rehash(account.hash):
            with HASHING:
                renewed = self.hasher.hash(password)
            with self.engine.begin() as db:
                db.execute(
                    update(accounts)
                    .where(accounts.c.folded == account.folded, accounts.c.hash == account.hash)
                    .values(hash=renewed)
                )
        return account

    def verified(self, hashed: str, password: str) -> bool:
        """Whether the password is the one hashed."""
        with HASHING:
            try:
                return self.hasher.verify(hashed, password)
            except (VerificationError, InvalidHashError):
                return False

    async def logout(self, request: Request) -> Response:
        """End every session of the account logged in (a new generation) and drop the cookie."""
        session = self.signer.read(request.cookies.get(COOKIE, ""))
        if session is not None:
            await asyncio.to_thread(self.end_sessions, *session)
        response = RedirectResponse("/login", status_code=303)
        response.delete_cookie(COOKIE, httponly=True, samesite="lax", secure=self.is_secure(request))
        return response

    def end_sessions(self, folded: str, generation: int) -> None:
        """Start a new generation of the account's sessions (once, however many log-outs of one session come)."""
        with self.engine.begin() as db:
            db.execute(
                update(accounts)
                .where(accounts.c.folded == folded, accounts.c.generation == generation)
                .values(generation=generation + 1)
            )

    def logged_in(self, request: Request, account: Account) -> Response:
        """Back home, with the session's cookie."""
        response = RedirectResponse(self.home, status_code=303)
        response.set_cookie(
            COOKIE,
            self.signer.cookie(account.folded, account.generation),
            max_age=int(self.lifetime),
            httponly=True,
            samesite="lax",
            secure=self.is_secure(request),
        )
        return response

    def from_this_site(self, handler: Handler) -> Handler:
        """The handler, for forms posted from this site's own pages only (others get 403)."""

        async def checked(request: Request) -> Response:
            if not same_origin(request, self.origin):
                return page(pages.message_page("Refused", pages.OTHER_SITE), 403)
            return await handler(request)

        return checked

    def is_secure(self, request: Request) -> bool:
        """Whether the cookie is sent over https only: as told, else when this request came over https."""
        return self.secure if self.secure is not None else request.url.scheme == "https"


def account_named(db: Connection, folded: str) -> Account | None:
    """The account of a folded name."""
    row = db.execute(
        select(accounts.c.folded, accounts.c.name, accounts.c.hash, accounts.c.generation).where(
            accounts.c.folded == folded
        )
    ).first()
    return Account(row.folded, row.name, row.hash, row.generation) if row is not None else None


def name_problem(name: str) -> str:
    """Why a name cannot be signed up with (empty when it can)."""
    return "" if NAME.fullmatch(name) else pages.NAME_RULE


def password_problem(password: str, again: str) -> str:
    """Why a password cannot be signed up with (empty when it can)."""
    if not SHORTEST_PASSWORD <= len(password) <= LONGEST_PASSWORD:
        return f"A password has {SHORTEST_PASSWORD} to {LONGEST_PASSWORD} characters."
    return "" if password == again else "The two passwords differ."


def same_origin(request: Request, public: str | None) -> bool:
    """Whether a posted form came from this site (``public``, else the Host it was sent to): its
    ``Sec-Fetch-Site`` and ``Origin`` (when sent) say so."""
    fetched = request.headers.get("sec-fetch-site")
    if fetched is not None and fetched not in ("same-origin", "none"):
        return False
    origin = request.headers.get("origin")
    if origin is None:
        return True
    if public is not None:
        return origin.lower() == public.lower().rstrip("/")
    return origin != "null" and urlsplit(origin).netloc.lower() == request.headers.get("host", "").lower()


async def form_of(request: Request) -> dict[str, str] | None:
    """A posted form's fields (None when it is not a small URL-encoded form in UTF-8)."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/x-www-form-urlencoded":
        return None
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > FORM_BYTES:
        return None
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > FORM_BYTES:
            return None
    try:
        return dict(parse_qsl(body.decode("utf-8"), keep_blank_values=True, max_num_fields=8, errors="strict"))
    except (UnicodeDecodeError, ValueError):
        return None


def address(request: Request) -> str:
    """The client's address."""
    return request.client.host if request.client else ""


def page(html: str, status: int = 200) -> HTMLResponse:
    """A page, never cached, never framed."""
    return HTMLResponse(html, status_code=status, headers=pages.HEADERS)
