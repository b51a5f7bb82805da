"""The store's side of the witnessed tier: runs kept with their certificate, and the tier each stands in.

A run carries a certificate (``runs.certificate``, its file form) when it was played on this server or uploaded
as an exported witnessed run whose certificate verified (the signature over these very bytes: checked before it
is kept). Its ``signer`` is the raw public key that signed it; its ``tier`` is ``witnessed`` when that key is
trusted here (this server's own, or one given with ``--trust-key``) and ``upload`` otherwise, like every run
without a certificate. Trust is this server's choice, so the tiers are worked out again at start-up from the keys
trusted then (``retier``): only the certified runs are read, by the ``signer`` index.

A witnessed run is verified like any run (it ranks only once verified); the board lists the witnessed runs that
rank apart from, and above, the verified uploads (``roguelike.server.board``).
"""

from __future__ import annotations

import json
from collections.abc import Collection

from sqlalchemy import Connection, Engine, update

from roguelike.server import store
from roguelike.server.envelope import Envelope, Limits, Refused, open_upload
from roguelike.server.witness import UNTRUSTED, Certificate, verify

DEFAULT_LIMITS = Limits()


def add_witnessed_run(
    connection: Connection,
    replay: bytes,
    certificate: Certificate,
    trusted: Collection[bytes] | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> str:
    """Keep a replay with its certificate as a pending run (the same file already a run: the certificate is added to
    it); the run's hash. ``trusted``: the raw public keys whose runs are witnessed (None: the certificate's own, for
    the server that has just signed it). :class:`Refused` for a replay the server does not read or a certificate
    that is not a signature over it."""
    envelope = open_upload(replay, limits)
    return keep_certified(connection, envelope, certificate, trusted)


def keep_certified(
    connection: Connection, envelope: Envelope, certificate: Certificate, trusted: Collection[bytes] | None = None
) -> str:
    """Keep an upload's replay with its certificate (checked first) as a run; the run's hash."""
    signer = bytes.fromhex(certificate.public_key) if len(certificate.public_key) == 64 else b""
    verdict = verify(certificate, envelope.data, {signer} if trusted is None else trusted)
    if not verdict.witnessed and verdict.kind != UNTRUSTED:
        raise Refused(400, f"the certificate does not hold: {verdict.reason}")
    store.add_run(connection, envelope)
    kept = connection.execute(
        update(store.runs)
        .where(store.runs.c.hash == envelope.digest, store.runs.c.certificate.is_(None))
        .values(
            certificate=certificate.file_bytes().decode(),
            signer=certificate.public_key,
            tier=store.WITNESSED if verdict.witnessed else store.UPLOAD,
        )
    )
    if kept.rowcount == 1 and verdict.witnessed:  # a run already decided as an upload: its game's files again
        store.settle_again(connection, [envelope.digest])
    return envelope.digest


def retier(engine: Engine, trusted: Collection[bytes]) -> None:
    """Work out again the tier of every certified run from the keys trusted now."""
    keys = sorted(key.hex() for key in trusted)
    runs = store.runs
    with engine.begin() as connection:
        certified = runs.c.signer.is_not(None)
        changed = [
            *connection.execute(
                update(runs).where(certified, runs.c.signer.in_(keys), runs.c.tier != store.WITNESSED)
                .values(tier=store.WITNESSED).returning(runs.c.hash)
            ).scalars(),
            *connection.execute(
                update(runs).where(certified, runs.c.signer.not_in(keys), runs.c.tier != store.UPLOAD)
                .values(tier=store.UPLOAD).returning(runs.c.hash)
            ).scalars(),
        ]  # fmt: skip
        store.settle_again(connection, changed)


def signed_by(certificate: str | None) -> str | None:
    """The key id a kept certificate names (None for a run without one)."""
    if certificate is None:
        return None
    found = json.loads(certificate).get("key_id")
    return found if isinstance(found, str) else None
