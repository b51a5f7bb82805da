"""Wheels of this environment's own libraries, repacked from what is installed: the offline
wheel folder the runtime tests and ``bench_runtimes`` give ``--wheels`` (no network, no download)."""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import re
import zipfile
from importlib import metadata
from pathlib import Path


def record_hash(data: bytes) -> str:
    """A RECORD file's hash field."""
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def wheel_name(distribution: metadata.Distribution) -> str:
    """The file name of a distribution's wheel, with the tags its WHEEL file names (compressed, PEP 425)."""
    wheel = distribution.read_text("WHEEL") or ""
    tags = [line.split(":", 1)[1].strip().split("-") for line in wheel.splitlines() if line.startswith("Tag:")]
    parts = [".".join(dict.fromkeys(tag[i] for tag in tags)) for i in range(3)] if tags else ["py3", "none", "any"]
    name = re.sub(r"[-_.]+", "_", distribution.metadata["Name"])
    return f"{name}-{distribution.version}-{'-'.join(parts)}.whl"


def repack(name: str, folder: Path) -> Path:
    """Write an installed distribution back out as a wheel in ``folder``."""
    distribution = metadata.distribution(name)
    target = folder / wheel_name(distribution)
    rows: list[list[str]] = []
    with zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as archive:
        record_path = None
        for entry in distribution.files or []:
            relative = entry.as_posix()
            if relative.startswith("..") or "__pycache__" in relative:
                continue
            if relative.endswith(".dist-info/RECORD"):
                record_path = relative
                continue
            data = Path(str(distribution.locate_file(entry))).read_bytes()
            archive.writestr(relative, data)
            rows.append([relative, record_hash(data), str(len(data))])
        assert record_path is not None, f"{name} has no RECORD"
        text = io.StringIO()
        csv.writer(text, lineterminator="\n").writerows([*rows, [record_path, "", ""]])
        archive.writestr(record_path, text.getvalue())
    return target


def wheelhouse(lock: dict[str, str], folder: Path) -> Path:
    """A folder holding a wheel of every locked distribution, as installed here."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in lock:
        repack(name, folder)
    return folder
