"""The witnessed tier: this server's Ed25519 key and the certificates it signs over the runs it saw played.

A certificate says: this server (its key) saw the commands of this replay (its SHA-256) arrive from this account,
on this seed and rules epoch (a daily date's, or none), between these two times (UTC, as the server's clock read
them). It is signed over its canonical bytes: the domain tag ``hedonic-witness-v1`` and a newline, then the JSON of
every field but the signature with sorted keys, no spaces, ASCII only (``canonical``). Its file form
(``certificate.json``) is the same fields and the signature, indented, for a person to read. ``verify`` names what
failed: a malformed file, replay bytes that are not the certified ones, a replay whose header has another seed or
epoch, fields that are not the signed ones (a changed account, seed, daily date or time), or a key not trusted
here. The replay's header is read with the server's own envelope reader: the web process never imports the game.

The private key lives in the server's data folder as ``witness-key.pem`` (PKCS 8, unencrypted), made once
(a hard link from a finished temporary file, so two servers starting at once never overwrite each other), mode
0600; a file that is not such a key, or that others may read, is refused with a message naming it and left as it is.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import stat
import zipfile
from collections.abc import Collection
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from roguelike.ground.replayframe import MAGIC, PREAMBLE
from roguelike.ground.unzip import ZipRefused, read_member
from roguelike.server.envelope import Refused, frames, header_epoch, read_header
from roguelike.server.secretfile import create_once

VERSION = 1
DOMAIN = b"hedonic-witness-v1\n"  # signed first, so a witness signature is never a signature of anything else
KEY_FILE = "witness-key.pem"
CERTIFICATE_MEMBER = "certificate.json"
MAX_CERTIFICATE = 16 * 1024
KEY_ID_HEX = 16
MAX_ACCOUNT = 100
FIELDS = ("version", "replay", "account", "seed", "epoch", "daily", "started", "ended", "key_id", "public_key")
# What a verdict says failed (or WITNESSED).
WITNESSED = "witnessed"
MALFORMED = "malformed"
REPLAY = "replay"
HEADER = "header"
SIGNATURE = "signature"
UNTRUSTED = "untrusted"


class WitnessKeyError(Exception):
    """A witness key file that cannot be used; the message names it."""


class Malformed(ValueError):
    """A certificate file that is not one; the message says why in one line."""


@dataclass(frozen=True)
class Certificate:
    """A server's signed word that it saw a replay's commands played (see the module's docstring)."""

    version: int
    replay: str  # the replay's SHA-256, hex
    account: str
    seed: int
    epoch: int
    daily: str | None  # YYYY-MM-DD, or None for a game not of a daily seed
    started: str  # UTC, ISO 8601 to the millisecond with a Z
    ended: str
    key_id: str
    public_key: str  # the raw Ed25519 public key, hex
    signature: str  # hex

    def signed_fields(self) -> dict[str, Any]:
        """Every field but the signature."""
        return {name: value for name, value in asdict(self).items() if name != "signature"}

    def file_bytes(self) -> bytes:
        """The certificate's file form: its JSON, indented, keys sorted."""
        return (json.dumps(asdict(self), indent=2, sort_keys=True, ensure_ascii=True) + "\n").encode()


@dataclass(frozen=True)
class Verdict:
    """What checking a certificate found: ``kind`` is WITNESSED or what failed; ``reason`` says it in one line."""

    kind: str
    reason: str
    key_id: str | None = None

    @property
    def witnessed(self) -> bool:
        """Whether the run is witnessed by a key trusted here."""
        return self.kind == WITNESSED


def canonical(fields: dict[str, Any]) -> bytes:
    """The bytes signed: the domain tag, then the fields' JSON with sorted keys, no spaces, ASCII only."""
    return DOMAIN + json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def raw_public(key: Ed25519PublicKey) -> bytes:
    """A public key's 32 raw bytes."""
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def key_id(public: bytes) -> str:
    """A public key's short name: the start of the SHA-256 of its raw bytes, hex."""
    return hashlib.sha256(public).hexdigest()[:KEY_ID_HEX]


def moment(when: datetime) -> str:
    """A time as a certificate writes it: UTC, to the millisecond, with a Z."""
    if when.tzinfo is None:
        raise ValueError("a certificate's times are aware datetimes (UTC)")
    return when.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def certify(
    key: Ed25519PrivateKey,
    replay_bytes: bytes,
    account: str,
    seed: int,
    epoch: int,
    daily: str | None,
    started: datetime,
    ended: datetime,
) -> Certificate:
    """Sign that this server saw ``account`` play the replay on ``seed`` under ``epoch`` from ``started`` to ``ended``."""
    public = raw_public(key.public_key())
    fields: dict[str, Any] = {
        "version": VERSION,
        "replay": hashlib.sha256(replay_bytes).hexdigest(),
        "account": account,
        "seed": seed,
        "epoch": epoch,
        "daily": daily,
        "started": moment(started),
        "ended": moment(ended),
        "key_id": key_id(public),
        "public_key": public.hex(),
    }
    checked(fields)
    return Certificate(**fields, signature=key.sign(canonical(fields)).hex())


def verify(certificate: Certificate, replay_bytes: bytes, trusted: Collection[bytes]) -> Verdict:
    """Whether the certificate is a trusted key's signature over this replay (raw public keys in ``trusted``), or
    what failed, in the order: malformed, the replay's bytes, its header's seed and epoch, the signature, trust."""
    try:
        checked(certificate.signed_fields())
        public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(certificate.public_key))
        signature = bytes.fromhex(certificate.signature)
    except (Malformed, ValueError) as error:
        return Verdict(MALFORMED, f"a malformed certificate: {error}")
    named = certificate.key_id
    digest = hashlib.sha256(replay_bytes).hexdigest()
    if digest != certificate.replay:
        return Verdict(
            REPLAY,
            f"the replay's bytes are not the certified ones (SHA-256 {digest[:16]}, "
            f"certified {certificate.replay[:16]})",
            named,
        )
    try:
        seed, epoch = replay_seed_and_epoch(replay_bytes)
    except Refused as refused:
        return Verdict(REPLAY, f"the certified replay cannot be read: {refused.reason}", named)
    if (seed, epoch) != (certificate.seed, certificate.epoch):
        return Verdict(
            HEADER,
            f"the certificate's seed {certificate.seed} and epoch {certificate.epoch} are not the "
            f"replay's ({seed}, {epoch})",
            named,
        )
    try:
        public.verify(signature, canonical(certificate.signed_fields()))
    except InvalidSignature:
        return Verdict(
            SIGNATURE,
            "the signature does not match the certificate's fields (its account, seed, epoch, "
            "daily date or times were changed after signing)",
            named,
        )
    if bytes.fromhex(certificate.public_key) not in trusted:
        return Verdict(UNTRUSTED, f"signed by another server's key {named}, not one trusted here", named)
    return Verdict(WITNESSED, f"witnessed: played by {certificate.account} on the server of key {named}", named)


def checked(fields: dict[str, Any]) -> None:
    """Refuse (:class:`Malformed`) fields of the wrong kind or shape."""
    kinds: dict[str, type | tuple[type, ...]] = {
        "version": int, "replay": str, "account": str, "seed": int, "epoch": int, "daily": (str, type(None)),
        "started": str, "ended": str, "key_id": str, "public_key": str,
    }  # fmt: skip
    for name, kind in kinds.items():
        if not isinstance(fields.get(name), kind) or isinstance(fields.get(name), bool):
            raise Malformed(f"its {name} is missing or of the wrong kind")
    if fields["version"] != VERSION:
        raise Malformed(f"version {fields['version']}, this server reads version {VERSION}")
    if not is_hex(fields["replay"], 64) or not is_hex(fields["public_key"], 64) or not is_hex(fields["key_id"], 16):
        raise Malformed("its replay hash, public key or key id is not hex of the right length")
    if fields["key_id"] != key_id(bytes.fromhex(fields["public_key"])):
        raise Malformed(f"its key id {fields['key_id']} is not its public key's")
    if not 0 < len(fields["account"]) <= MAX_ACCOUNT or not 1 <= fields["epoch"] < 2**31 or fields["seed"] < 0:
        raise Malformed("its account, epoch or seed is out of range")
    if fields["daily"] is not None and not is_date(fields["daily"]):
        raise Malformed("its daily date is not YYYY-MM-DD")
    started, ended = when(fields["started"]), when(fields["ended"])
    if ended < started:
        raise Malformed("it ends before it starts")


def is_hex(value: str, length: int) -> bool:
    """Whether ``value`` is lower-case hex of ``length`` digits."""
    return len(value) == length and all(digit in "0123456789abcdef" for digit in value)


def is_date(value: str) -> bool:
    """Whether ``value`` is a date written YYYY-MM-DD."""
    try:
        return datetime.strptime(value, "%Y-%m-%d").strftime("%Y-%m-%d") == value
    except ValueError:
        return False


def when(value: str) -> datetime:
    """A certificate's time (:class:`Malformed` if it is not written as ``moment`` writes it)."""
    try:
        parsed = datetime.strptime(value, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    except ValueError:
        raise Malformed(f"its time {value[:40]!r} is not UTC written YYYY-MM-DDTHH:MM:SS.mmmZ") from None
    if moment(parsed) != value:
        raise Malformed(f"its time {value[:40]!r} is not UTC written YYYY-MM-DDTHH:MM:SS.mmmZ")
    return parsed


def replay_seed_and_epoch(data: bytes) -> tuple[int, int]:
    """The seed and rules epoch a replay's header records (:class:`Refused` if it has no readable header)."""
    if len(data) < PREAMBLE.size or not data.startswith(MAGIC):
        raise Refused(400, "not a replay")
    start, end = frames(data, PREAMBLE.size, 1)[0]
    header = read_header(data[start:end])
    return int(header["seed"]), header_epoch(header, PREAMBLE.unpack_from(data)[1])


def certificate_from(data: bytes) -> Certificate:
    """A certificate from its file form (:class:`Malformed` naming what is wrong)."""
    if len(data) > MAX_CERTIFICATE:
        raise Malformed(f"larger than {MAX_CERTIFICATE} bytes")
    try:
        plain = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise Malformed(f"not JSON: {error}") from None
    if not isinstance(plain, dict) or set(plain) != {*FIELDS, "signature"}:
        raise Malformed(f"not a certificate's fields: {', '.join((*FIELDS, 'signature'))}")
    if not isinstance(plain["signature"], str) or not is_hex(plain["signature"], 128):
        raise Malformed("its signature is not 64 bytes of hex")
    checked(plain)
    return Certificate(**plain)


def certificate_in(body: bytes) -> Certificate | None:
    """The certificate an uploaded zip holds as ``certificate.json`` (None without one; :class:`Refused` for one
    that is malformed)."""
    if not body.startswith(b"PK"):
        return None
    try:
        with zipfile.ZipFile(io.BytesIO(body)) as bundle:
            if CERTIFICATE_MEMBER not in bundle.namelist():
                return None
        return certificate_from(read_member(io.BytesIO(body), CERTIFICATE_MEMBER, MAX_CERTIFICATE))
    except zipfile.BadZipFile:
        return None  # not a zip after all: the envelope's reader says why
    except (ZipRefused, Malformed) as error:
        raise Refused(400, f"the zip's {CERTIFICATE_MEMBER} is not a certificate: {error}") from None


def witnessed_zip(replay: bytes, certificate: Certificate) -> bytes:
    """An exported witnessed run: a zip holding ``game.replay`` and ``certificate.json``."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("game.replay", replay)
        bundle.writestr(CERTIFICATE_MEMBER, certificate.file_bytes())
    return out.getvalue()


def server_key(folder: Path) -> Ed25519PrivateKey:
    """The server's key from ``folder/witness-key.pem``, made there first if there is none."""
    path = folder / KEY_FILE
    if not path.exists() and not path.is_symlink():
        fresh = Ed25519PrivateKey.generate()
        pem = fresh.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        create_once(path, pem)
    return load_key(path)


def load_key(path: Path) -> Ed25519PrivateKey:
    """The Ed25519 private key in a PEM file only its owner may read (:class:`WitnessKeyError` naming it if not)."""
    try:
        mode = os.lstat(path).st_mode
        data = path.read_bytes() if stat.S_ISREG(mode) else b""
    except OSError as error:
        raise WitnessKeyError(f"{path}: cannot be read: {error.strerror or error}") from None
    if not stat.S_ISREG(mode):
        raise WitnessKeyError(f"{path}: not a regular file; it is left as it is")
    if mode & 0o077:
        raise WitnessKeyError(f"{path}: others may read this private key (mode {mode & 0o777:o}): chmod 600 it")
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError, UnsupportedAlgorithm) as error:
        raise WitnessKeyError(f"{path}: not an unencrypted PEM private key ({error}); it is left as it is") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise WitnessKeyError(f"{path}: a private key, but not an Ed25519 one; it is left as it is")
    return key


def load_public(path: Path) -> bytes:
    """The raw Ed25519 public key in a PEM file (``hedonic witness key``'s output); :class:`WitnessKeyError` if not."""
    try:
        key = serialization.load_pem_public_key(path.read_bytes())
    except OSError as error:
        raise WitnessKeyError(f"{path}: cannot be read: {error.strerror or error}") from None
    except (ValueError, TypeError, UnsupportedAlgorithm) as error:
        raise WitnessKeyError(f"{path}: not a PEM public key ({error})") from None
    if not isinstance(key, Ed25519PublicKey):
        raise WitnessKeyError(f"{path}: a public key, but not an Ed25519 one")
    return raw_public(key)


def public_pem(key: Ed25519PrivateKey) -> str:
    """The key's public half as PEM, to share with other servers."""
    return (
        key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )
