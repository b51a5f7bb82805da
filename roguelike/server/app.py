"""The score server's web application (Starlette): uploads, verdicts, boards and replays.

Routes:

- ``POST /runs``: a score file as the body; 202 with its hash (the same file again, or another
  file of the same game: the same run); an exported witnessed run (a zip holding ``game.replay``
  and ``certificate.json``) is kept with its certificate, witnessed when a key trusted here signed
  it (``roguelike.server.witnessed``), a verified upload saying whose key did otherwise; 413 or 400 with a one-line reason for a file too large,
  too long or not a replay; 429 when the client has sent more than its allowance this hour;
- ``GET /runs/{hash}``: the run's status (pending, verified, diverged, unreadable, unverifiable
  here, killed, failed) and what verification proved (score, breakdown, the diverging step);
- ``GET /runs/{hash}/replay``: the replay, to download and watch;
- ``GET /runs/{hash}/witnessed``: a certified run exported: a zip of its replay and certificate;
- ``GET /board`` (HTML, or JSON when asked for it) and ``GET /board.json``, with ``?epoch=N``
  and ``?daily=YYYY-MM-DD`` (a daily's board has the date's ``par`` for its epoch once a
  worker has worked it out: ``roguelike.server.daypar``), a page at a time: the first 100
  entries of each list, ``?page=N`` (from 1) or ``?offset=N`` (from 0) for others, and
  ``?limit=N`` (up to 1,000) entries a page.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy import Engine
from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from roguelike.server import store
from roguelike.server.board import MOST, PAGE, Window, board_at
from roguelike.server.child import ChildLimits
from roguelike.server.daypar import daily_par
from roguelike.server.envelope import Envelope, Limits, Refused, open_upload
from roguelike.server.page import board_page
from roguelike.server.quota import Allowance, Clock
from roguelike.server.witness import (
    Certificate,
    certificate_from,
    certificate_in,
    certify,
    raw_public,
    server_key,
    witnessed_zip,
)
from roguelike.server.witnessed import keep_certified, retier, signed_by

if TYPE_CHECKING:
    from roguelike.server.hosted.host import PlayOptions, Times
    from roguelike.server.hosted.routes import HostedPlay, Identity

HASH = re.compile(r"[0-9a-f]{64}")
STEP = re.compile(r"\(step (\d+)")
HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
}


@dataclass(frozen=True)
class ServerConfig:
    """What the server keeps its runs in, what it accepts, and how it verifies."""

    db_url: str
    limits: Limits = field(default_factory=Limits)
    child: ChildLimits = field(default_factory=ChildLimits)
    workers: int = 2
    queue_url: str | None = None
    verifier: tuple[str, ...] = ()
    epoch: int | None = None  # the rules epoch this server's game plays: the board's default before any is verified
    client_bytes: int = 64 * 1024 * 1024  # what one client address may have kept per hour
    folder: str | None = None  # the data folder: the witness key (none: this server signs nothing)
    trusted: tuple[bytes, ...] = ()  # other servers' raw public keys whose certified runs are witnessed here
    play: PlayOptions | None = None  # hosted play (``hedonic serve --play``): games that live on the server
    cluster_url: str | None = None  # a gateway's Redis (``hedonic serve gateway``): its games run on hosts


class Verifier(Protocol):
    """Where runs go to be verified: this machine's children, or RQ workers."""

    async def start(self) -> None:
        """Begin, taking up the runs left pending."""

    def submit(self, digest: str, epoch: int) -> None:
        """Verify a new run."""

    async def stop(self) -> None:
        """Stop."""


def make_verifier(config: ServerConfig, engine: Engine) -> Verifier:
    """Local children, or the queue when one is given."""
    if config.queue_url is None:
        from roguelike.server.local import LocalVerifier

        return LocalVerifier(engine, config.child, config.workers, config.verifier)
    from redis import Redis

    from roguelike.server.queue import QueueVerifier

    return QueueVerifier(engine, config.child, Redis.from_url(config.queue_url))


class ScoreServer:
    """The application and what it holds: the database engine and the verifier."""

    def __init__(
        self, config: ServerConfig, clock: Clock = time.monotonic, identity: Callable[[Engine], Identity] | None = None
    ) -> None:
        self.config = config
        self.allowance = Allowance(config.client_bytes, clock=clock)
        self.key = server_key(Path(config.folder)) if config.folder is not None else None
        self.trusted = frozenset((*config.trusted, *([raw_public(self.key.public_key())] if self.key else [])))
        if config.play is not None:
            from roguelike.server.hosted import log  # noqa: F401 (its tables join the store's before they are made)
        self.engine = store.open_engine(config.db_url)
        retier(self.engine, self.trusted)
        self.verifier = make_verifier(config, self.engine)
        self.app = Starlette(
            routes=[
                Route("/", lambda request: RedirectResponse("/board")),
                Route("/runs", self.upload, methods=["POST"]),
                Route("/runs/{digest}", self.run),
                Route("/runs/{digest}/replay", self.replay),
                Route("/runs/{digest}/witnessed", self.witnessed_export),
                Route("/board", self.board),
                Route("/board.json", self.board_json),
            ],
            lifespan=self.lifespan,
        )
        self.hosted: HostedPlay | None = None
        if config.play is not None and identity is not None:
            who = identity(self.engine)  # the accounts (their pages too, when they have them), or the one local player
            self.hosted = self.hosted_play(who)
            self.app.router.routes.extend([*getattr(who, "routes", list)(), *self.hosted.routes()])

    def hosted_play(self, who: Identity) -> HostedPlay:
        """Hosted play's routes: games run here, or (a gateway) followed from the hosts that run them."""
        from roguelike.server.hosted.routes import HostedPlay

        assert self.config.play is not None
        if self.config.cluster_url is None:
            return HostedPlay(self.engine, self.config.play, who, self.upload_ended)
        from roguelike.server.cluster.gamehost import host_name
        from roguelike.server.cluster.gateway import GatewayPlay
        from roguelike.server.cluster.streams import cluster_redis

        redis = cluster_redis(self.config.cluster_url)
        return GatewayPlay(self.engine, self.config.play, who, self.upload_ended, redis=redis, name=host_name())

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        """Verify while serving; pending runs are taken up at start; hosted games run while serving."""
        await self.verifier.start()
        try:
            if self.hosted is None:
                yield
            else:
                async with self.hosted.running():
                    yield
        finally:
            await self.verifier.stop()
            self.engine.dispose()

    async def upload_ended(self, game: str, account: str, replay: bytes, times: Times) -> None:
        """A hosted game ended: its replay is kept as a run and verified as uploads are; a daily game played
        here is kept with this server's certificate (the witnessed tier: its seed never reached the browser)."""
        try:
            certificate = await asyncio.to_thread(self.certificate_of, game, account, replay, times)
            envelope = await asyncio.to_thread(open_upload, replay, self.config.limits)
            await asyncio.to_thread(self.keep, envelope, "", certificate)
        except Refused as refused:
            print(f"hedonic serve: hosted game {game} of {account!r} was not kept as a run: {refused.reason}")

    def certificate_of(self, game: str, account: str, replay: bytes, times: Times) -> Certificate | None:
        """This server's certificate of a hosted daily game (None: another game, or a server with no key)."""
        from roguelike.server.hosted import log

        with self.engine.connect() as connection:
            row = log.game_of(connection, game)
        if self.key is None or row is None or row.mode != log.DAILY:
            return None
        started, ended = (datetime.fromisoformat(stamp) for stamp in (times.started, times.ended))
        return certify(self.key, replay, account, row.seed, row.epoch, row.day, started, ended)

    async def upload(self, request: Request) -> Response:
        """Keep a score file as a run and have it verified."""
        client = request.client.host if request.client else ""
        try:
            body = await limited_body(request, self.config.limits.max_bytes)
            envelope = await asyncio.to_thread(open_upload, body, self.config.limits)
            certificate = await asyncio.to_thread(certificate_in, body)
            digest, new = await asyncio.to_thread(self.keep, envelope, client, certificate)
        except Refused as refused:
            return PlainTextResponse(refused.reason + "\n", status_code=refused.status, headers=HEADERS)
        except ClientDisconnect:  # gone before its file arrived (or closed for taking too long): nothing to say
            return Response(status_code=400)
        run = await asyncio.to_thread(self.lookup, digest)
        status = run.status if run else store.PENDING
        answer = {"hash": digest, "status": status, "new": new, "run": f"/runs/{digest}"}
        return JSONResponse({**answer, **tier_plain(run)}, status_code=202, headers=HEADERS)

    def keep(self, envelope: Envelope, client: str = "", certificate: Certificate | None = None) -> tuple[str, bool]:
        """Add the run unless its file or its game is a run already (that run's hash, and whether it is new);
        a new run, or one uploaded again while still pending, goes to the verifier. A certified file is kept
        (its certificate checked) even when another file of its game is a run, so that it can be witnessed."""
        with self.engine.connect() as connection:
            same = store.run_of(connection, envelope.digest)
            if certificate is None and same is None:
                same = store.run_of_game(connection, envelope.game)
        if same is None or (certificate is not None and same.certificate is None):
            if same is None and not self.allowance.take(client, len(envelope.data)):
                raise Refused(429, "this address has sent more than it may this hour: try again later")
            with self.engine.begin() as connection:
                new = store.add_run(connection, envelope)
                if certificate is not None:
                    keep_certified(connection, envelope, certificate, self.trusted)
            if new:
                self.verifier.submit(envelope.digest, envelope.epoch)
            return envelope.digest, new
        if same.status == store.PENDING:  # its verification may have been lost (a queue or database away)
            self.verifier.submit(same.hash, same.epoch)
        return same.hash, False

    def witnessed(self, replay: bytes, certificate: Certificate) -> str:
        """Keep a run this server saw played with the certificate it signed, and have it verified; the run's hash."""
        envelope = open_upload(replay, self.config.limits)
        return self.keep(envelope, certificate=certificate)[0]

    async def witnessed_export(self, request: Request) -> Response:
        """A certified run as a zip of its replay and its certificate (an exported witnessed run)."""
        digest = request.path_params["digest"]
        found = await asyncio.to_thread(self.certified, digest) if HASH.fullmatch(digest) else None
        if found is None:
            return PlainTextResponse("no certified run with that hash\n", status_code=404, headers=HEADERS)
        disposition = f'attachment; filename="{digest[:16]}-witnessed.zip"'
        return Response(
            witnessed_zip(*found), media_type="application/zip", headers={**HEADERS, "Content-Disposition": disposition}
        )

    def certified(self, digest: str) -> tuple[bytes, Certificate] | None:
        """A certified run's replay and certificate."""
        with self.engine.connect() as connection:
            run, data = store.run_of(connection, digest), store.replay_of(connection, digest)
        if run is None or run.certificate is None or data is None:
            return None
        return data, certificate_from(run.certificate.encode())

    def lookup(self, digest: str) -> store.Run | None:
        """A run by its hash."""
        with self.engine.connect() as connection:
            return store.run_of(connection, digest)

    async def run(self, request: Request) -> Response:
        """A run's status and verdict."""
        digest = request.path_params["digest"]
        run = await asyncio.to_thread(self.lookup, digest) if HASH.fullmatch(digest) else None
        if run is None:
            return PlainTextResponse("no run with that hash\n", status_code=404, headers=HEADERS)
        return JSONResponse(run_plain(run), headers=HEADERS)

    async def replay(self, request: Request) -> Response:
        """A run's replay file."""
        digest = request.path_params["digest"]
        data = await asyncio.to_thread(self.replay_bytes, digest) if HASH.fullmatch(digest) else None
        if data is None:
            return PlainTextResponse("no run with that hash\n", status_code=404, headers=HEADERS)
        disposition = f'attachment; filename="{digest[:16]}.replay"'
        return Response(
            data, media_type="application/octet-stream", headers={**HEADERS, "Content-Disposition": disposition}
        )

    def replay_bytes(self, digest: str) -> bytes | None:
        """The bytes of a run's replay."""
        with self.engine.connect() as connection:
            return store.replay_of(connection, digest)

    async def board(self, request: Request) -> Response:
        """The board as a page, or as JSON when the client asks for JSON only."""
        accept = request.headers.get("accept", "")
        if "application/json" in accept and "text/html" not in accept:
            return await self.board_json(request)
        try:
            plain = await asyncio.to_thread(self.board_shown, *board_query(request))
        except ValueError as error:
            return PlainTextResponse(f"{error}\n", status_code=400, headers=HEADERS)
        return HTMLResponse(board_page(plain), headers=HEADERS)

    async def board_json(self, request: Request) -> Response:
        """The board as JSON."""
        try:
            plain = await asyncio.to_thread(self.board_shown, *board_query(request))
        except ValueError as error:
            return PlainTextResponse(f"{error}\n", status_code=400, headers=HEADERS)
        return JSONResponse(plain, headers=HEADERS)

    def board_shown(self, epoch: int | None, daily: str | None, window: Window) -> dict[str, Any]:
        """A page of the board, and a daily's par for the board's epoch (asked of the workers once, when there is a
        queue)."""
        plain = self.board_plain(epoch, daily, window)
        if daily is None or plain["epoch"] is None:
            return plain
        return board_with_par(
            plain, daily_par(self.engine, getattr(self.verifier, "redis", None), daily, plain["epoch"])
        )

    def board_plain(self, epoch: int | None, daily: str | None, window: Window) -> dict[str, Any]:
        """A page of the board of an epoch (unless given, the newest with a verified run, else this server's game's)
        and a daily date."""
        with self.engine.connect() as connection:
            seen = store.epochs(connection)
            chosen = epoch if epoch is not None else (seen[0] if seen else self.config.epoch)
            board = board_at(connection, chosen, daily, window)
            return board.to_plain(seen, store.waiting(connection))


def board_with_par(plain: dict[str, Any], par: dict[str, Any] | None) -> dict[str, Any]:
    """A daily's board with its par (None while it is not known)."""
    return {**plain, "par": par}


async def limited_body(request: Request, most: int) -> bytes:
    """The request's body, refused (413) as soon as it is larger than ``most`` bytes."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > most:
        raise Refused(413, f"the file is larger than {most} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > most:
            raise Refused(413, f"the file is larger than {most} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def board_query(request: Request) -> tuple[int | None, str | None, Window]:
    """The epoch, daily date and page asked for (ValueError with a reason when malformed)."""
    epoch, daily = request.query_params.get("epoch"), request.query_params.get("daily")
    if epoch is not None and not (epoch.isdigit() and 0 < int(epoch) < 2**31):
        raise ValueError("epoch: a rules epoch is a positive whole number")
    if daily is not None:
        try:
            daily = date.fromisoformat(daily).isoformat()
        except ValueError:
            raise ValueError("daily: a date is written YYYY-MM-DD") from None
    return (int(epoch) if epoch is not None else None), daily, board_window(request.query_params)


def board_window(asked: Mapping[str, str]) -> Window:
    """The page asked for: ``limit`` entries (default 100), from ``offset`` or from page ``page`` (ValueError with a
    reason when malformed)."""
    limit = whole(asked, "limit", 1, MOST, PAGE)
    if "page" in asked and "offset" in asked:
        raise ValueError("page, offset: ask for one or the other")
    if "page" in asked:
        return Window((whole(asked, "page", 1, 2**31 // limit, 1) - 1) * limit, limit)
    return Window(whole(asked, "offset", 0, 2**31 - 1, 0), limit)


def whole(asked: Mapping[str, str], name: str, least: int, most: int, default: int) -> int:
    """A whole number from the query, from ``least`` to ``most`` (ValueError with a reason otherwise)."""
    value = asked.get(name)
    if value is None:
        return default
    if not (len(value) <= 10 and value.isascii() and value.isdigit() and least <= int(value) <= most):
        raise ValueError(f"{name}: a whole number from {least} to {most:,}")
    return int(value)


def run_plain(run: store.Run) -> dict[str, Any]:
    """What ``GET /runs/{hash}`` answers."""
    proved = run.verdict
    plain = {
        "hash": run.hash,
        "status": run.status,
        "epoch": run.epoch,
        "commands": run.commands,
        "received": run.received,
        "decided": run.decided,
        "detail": proved.get("detail"),
        "score": proved.get("score"),
        "breakdown": proved.get("breakdown", []),
        "ranked": proved.get("ranked", False),
        "name": proved.get("name"),
        "origin": proved.get("origin"),
        "daily": proved.get("daily"),
        "turns": proved.get("turns"),
        "cause": proved.get("cause"),
        "feats": proved.get("feats", []),
        **tier_plain(run),
    }
    step = STEP.search(str(proved.get("detail", ""))) if run.status == "diverged" else None
    return {**plain, "diverged_at_step": int(step.group(1)) if step else None}


def tier_plain(run: store.Run | None) -> dict[str, Any]:
    """A run's tier, and the key id that signed it when it has a certificate."""
    if run is None:
        return {}
    key = signed_by(run.certificate)
    if key is None or run.tier == store.WITNESSED:
        return {"tier": run.tier, "signed_by": key}
    return {"tier": run.tier, "signed_by": key, "why": f"signed by another server's key {key}, not one trusted here"}
