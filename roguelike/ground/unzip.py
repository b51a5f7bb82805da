"""One file out of a zip, decompressed a little at a time and never past a hard cap.

A zip says how large each file in it is, and a zip bomb lies: a megabyte of deflate can
hold a gigabyte of zeros under a header that claims a hundred bytes. So the declared size
is never believed: the member is read ``CHUNK`` bytes at a time (zlib decompresses at most
that much a call) and refused as soon as what came out passes the cap, so reading it costs
at most the cap and a chunk, whatever the header says. Only the two methods a score file
uses (stored, deflated) are read: bzip2 and lzma cannot be bounded a call at a time here.
Standard library only: the score server's web process and ``hedonic import`` share it.
"""

from __future__ import annotations

import zipfile
import zlib
from typing import IO

CHUNK = 64 * 1024
METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflated"}


class ZipRefused(Exception):
    """A zip, or the file in it, that is not read; the message says why in one line."""


class MemberTooLarge(ZipRefused):
    """The file in the zip decompresses to more than the cap."""


def read_member(source: IO[bytes], name: str, cap: int) -> bytes:
    """The bytes of the file ``name`` in the zip ``source``, refused once they pass ``cap`` bytes."""
    try:
        with zipfile.ZipFile(source) as bundle:
            info = bundle.getinfo(name)
            if info.compress_type not in METHODS:
                raise ZipRefused(f"{name} is compressed with method {info.compress_type}: only stored or deflated")
            with bundle.open(info) as member:
                return capped(member, name, cap)
    except KeyError:
        raise ZipRefused(f"the zip holds no {name}") from None
    except (zipfile.BadZipFile, zlib.error, EOFError, RuntimeError, NotImplementedError, ValueError) as error:
        raise ZipRefused(f"a zip whose {name} cannot be read: {error}") from None


def capped(member: IO[bytes], name: str, cap: int) -> bytes:
    """Everything ``member`` gives, a chunk at a time, or :class:`MemberTooLarge` past ``cap`` bytes."""
    parts: list[bytes] = []
    size = 0
    while chunk := member.read(CHUNK):
        size += len(chunk)
        if size > cap:
            raise MemberTooLarge(f"{name} in the zip is larger than {cap} bytes")
        parts.append(chunk)
    return b"".join(parts)
