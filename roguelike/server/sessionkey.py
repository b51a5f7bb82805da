"""The key session cookies are signed with, kept in the data folder's ``session-key``, and the cookies it signs.

The key is 32 random bytes, written as 64 hexadecimal digits. It is made once: written to a new
temporary file of mode 0600, made durable, then *linked* to ``session-key`` (a link never replaces
a file already there, so two servers starting at once end up with one key, and a file someone put
there is never overwritten). A file that is not exactly such a key, that is not a regular file, or
that others may read is refused (:class:`KeyFileRefused`, naming the file) and left as it is.

A cookie is ``BODY.MAC``: BODY is the URL-safe base64 of the JSON ``[folded name, generation,
expiry]`` and MAC the URL-safe base64 of its HMAC-SHA256 under the key. Anyone may read a cookie;
only the key's holder can make one the server takes.
"""

from __future__ import annotations

import base64
import binascii
import errno
import hashlib
import hmac
import json
import os
import secrets
import stat
from collections.abc import Callable
from pathlib import Path

from roguelike.server.secretfile import create_once

KEY_FILE = "session-key"
KEY_BYTES = 32
LONGEST_COOKIE = 512  # a real one is about 120 characters: anything longer is not read
DOMAIN = b"hedonic-session-1:"  # what the MAC is over starts with this, so the key signs nothing else by mistake


class KeyFileRefused(Exception):
    """The session-key file is not a key this server could have made (the message names it; it is left as it is)."""


def session_key(folder: Path) -> bytes:
    """The folder's session key, made there the first time."""
    path = folder / KEY_FILE
    try:
        return read_key(path)
    except FileNotFoundError:
        make_key(path)
    return read_key(path)


def read_key(path: Path) -> bytes:
    """The key in ``path`` (FileNotFoundError when there is none, KeyFileRefused when it is not a good key)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        raise
    except OSError as error:
        why = "it is a symbolic link" if error.errno == errno.ELOOP else error.strerror
        raise KeyFileRefused(f"{path}: the session key cannot be read ({why}); it is left as it is") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise KeyFileRefused(f"{path}: the session key is not a regular file; it is left as it is")
        if mode & 0o077:
            raise KeyFileRefused(
                f"{path}: others may read the session key (mode {stat.S_IMODE(mode):04o}): "
                f"`chmod 600 {path}` if no one else has read it, else remove it (every session then ends)"
            )
        data = os.read(fd, 4 * KEY_BYTES)
    finally:
        os.close(fd)
    try:
        key = bytes.fromhex(data.decode("ascii").strip())
    except (UnicodeDecodeError, ValueError):
        key = b""
    if len(key) != KEY_BYTES:
        raise KeyFileRefused(
            f"{path}: not a session key ({2 * KEY_BYTES} hexadecimal digits); it is left as it is: "
            "move it away to have a new key made (every session then ends)"
        )
    return key


def make_key(path: Path) -> None:
    """Write a new key to ``path`` unless a file is there already (then that file stays, whatever it holds)."""
    create_once(path, (secrets.token_bytes(KEY_BYTES).hex() + "\n").encode("ascii"))


class Signer:
    """Makes and reads the session cookies signed with one key, each good for ``lifetime`` seconds."""

    def __init__(self, key: bytes, lifetime: float, clock: Callable[[], float]) -> None:
        self.key = key
        self.lifetime = lifetime
        self.clock = clock

    def cookie(self, folded: str, generation: int) -> str:
        """A cookie for an account's sessions of this generation, expiring ``lifetime`` seconds from now."""
        plain = json.dumps([folded, generation, int(self.clock() + self.lifetime)], separators=(",", ":"))
        body = unpadded(plain.encode("utf-8"))
        return f"{body}.{self.mac(body)}"

    def read(self, cookie: str) -> tuple[str, int] | None:
        """The folded name and generation a cookie carries (None if forged, tampered with, malformed or expired)."""
        body, dot, mac = cookie.partition(".")
        if not dot or len(cookie) > LONGEST_COOKIE or not cookie.isascii():
            return None
        if not hmac.compare_digest(mac, self.mac(body)):
            return None
        try:
            folded, generation, expiry = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
        except (binascii.Error, ValueError, TypeError):  # only a key holder's cookie gets here: never malformed
            return None
        if not (isinstance(folded, str) and type(generation) is int and type(expiry) is int):
            return None
        return (folded, generation) if self.clock() < expiry else None

    def mac(self, body: str) -> str:
        """The cookie body's HMAC-SHA256, as URL-safe base64."""
        return unpadded(hmac.new(self.key, DOMAIN + body.encode("ascii"), hashlib.sha256).digest())


def unpadded(data: bytes) -> str:
    """URL-safe base64 without its padding (cookie values keep to letters, digits, ``-`` and ``_``)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")
