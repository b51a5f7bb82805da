"""``hedonic witness verify REPLAY CERT [--key PUBKEY.pem]``: check a witnessed run offline;
``hedonic witness key``: print this machine's score server's public key, to share with other servers.

Both need the server's extra (``cryptography``). ``verify`` trusts the keys given with ``--key``
(repeatable), or else this machine's server's own key (made if it has none yet, as ``hedonic serve``
would). REPLAY may be the replay or the exported zip (``game.replay`` and ``certificate.json``); CERT
may then be left out. Exit status: 0 witnessed by a trusted key, 1 not (the line says what failed:
the replay's bytes, its header, the signature, an untrusted key, a malformed certificate), 2 for a
missing extra or a file that cannot be read.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from roguelike.cli.subcommand import Subcommand

MAX_REPLAY = 64 * 1024 * 1024  # the most of a zip's replay read
NO_SERVER = "hedonic witness: needs the score server's extra: pip install 'hedonic-hypothesis[server]'"


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of ``hedonic witness``."""
    parser.add_argument("action", choices=["verify", "key"], help="verify: check a witnessed run; key: print ours")
    parser.add_argument("replay", nargs="?", type=Path, help="verify: the replay, or the exported witnessed zip")
    parser.add_argument("certificate", nargs="?", type=Path, help="verify: its certificate.json (not with a zip)")
    parser.add_argument(
        "--key",
        action="append",
        default=[],
        type=Path,
        metavar="PUBKEY.pem",
        help="verify: a trusted server's public key (repeatable; default: this machine's server's key)",
    )


def witness(args: argparse.Namespace) -> int:
    """Run ``hedonic witness``."""
    try:
        from roguelike.server.witness import WitnessKeyError
    except ImportError:
        print(NO_SERVER, file=sys.stderr)
        return 2
    try:
        return verify_files(args) if args.action == "verify" else print_key(args)
    except (WitnessKeyError, OSError) as error:
        print(f"hedonic witness: {error}", file=sys.stderr)
        return 2


def server_folder(args: argparse.Namespace) -> Path:
    """This machine's score server's data folder."""
    from roguelike.storage.datadir import DataDir, data_dir

    folder = DataDir(data_dir(args.data_dir)).server
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def print_key(args: argparse.Namespace) -> int:
    """Print the server's public key (PEM) and its key id."""
    from roguelike.server.witness import key_id, public_pem, raw_public, server_key

    key = server_key(server_folder(args))
    print(public_pem(key), end="")
    print(f"# key id {key_id(raw_public(key.public_key()))}", file=sys.stderr)
    return 0


def verify_files(args: argparse.Namespace) -> int:
    """Check a replay against its certificate and the trusted keys; print the verdict."""
    from roguelike.server.witness import Malformed, certificate_from, load_public, raw_public, server_key, verify

    if args.replay is None:
        print(
            "hedonic witness verify: give the replay (and its certificate.json, unless it is the zip)", file=sys.stderr
        )
        return 2
    try:
        replay, certificate = read_run(args.replay, args.certificate)
        found = certificate_from(certificate)
    except Malformed as error:
        print(f"{args.certificate or args.replay}: a malformed certificate: {error}")
        return 1
    except ValueError as error:
        print(f"hedonic witness verify: {error}", file=sys.stderr)
        return 2
    trusted = {load_public(path) for path in args.key} or {raw_public(server_key(server_folder(args)).public_key())}
    verdict = verify(found, replay, trusted)
    print(verdict.reason)
    return 0 if verdict.witnessed else 1


def read_run(replay: Path, certificate: Path | None) -> tuple[bytes, bytes]:
    """The replay's bytes and the certificate's, from two files or from an exported zip (ValueError saying why not)."""
    import io

    from roguelike.ground.unzip import ZipRefused, read_member
    from roguelike.server.witness import CERTIFICATE_MEMBER, MAX_CERTIFICATE

    data = replay.read_bytes()
    if not data.startswith(b"PK"):
        if certificate is None:
            raise ValueError(f"{replay}: not a witnessed zip: give its certificate.json too")
        return data, certificate.read_bytes()
    try:
        inner = read_member(io.BytesIO(data), "game.replay", MAX_REPLAY)
        if certificate is not None:
            return inner, certificate.read_bytes()
        return inner, read_member(io.BytesIO(data), CERTIFICATE_MEMBER, MAX_CERTIFICATE)
    except ZipRefused as error:
        raise ValueError(f"{replay}: {error}") from None


WITNESS = Subcommand("witness", "check a witnessed run offline, or print this server's witness key", configure, witness)
