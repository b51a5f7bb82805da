"""Save files: write a snapshot in its envelope, read one back checked in every way.

Reading never trusts the file: size limits before reading, magic, version and checksum
before decoding, msgpack limits while decoding, the shape of every field before the
game is rebuilt. Whatever is wrong comes out as one :class:`SaveError` naming the file.
"""

from __future__ import annotations

import time
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

import msgpack

from roguelike import __version__
from roguelike.core.epoch import FIRST_EPOCH, RULES_EPOCH
from roguelike.core.plain import Plain, encode, snapshot_digest
from roguelike.saves.container import SAVE_MAGIC, seal, unseal
from roguelike.saves.meaning import GAME_INT_LIMIT
from roguelike.saves.reading import read_file as read_file
from roguelike.saves.schema import Malformed, checker
from roguelike.saves.slots import SlotWriter, is_slotted, newest_slot, slotted_file
from roguelike.saves.upgrade import FORMAT_VERSION, upgrade
from roguelike.saves.validate import validate_snapshot
from roguelike.storage.atomic import write_atomic
from roguelike.storage.errors import Damaged, SaveError, describe_os_error

if TYPE_CHECKING:
    from roguelike.core.game import Game

UNPACK_LIMITS: dict[str, int] = {
    "max_str_len": 64 * 1024,
    "max_bin_len": 1024 * 1024,
    "max_array_len": 256 * 1024,
    "max_map_len": 4096,
    "max_ext_len": 0,
}


class SaveHeaderTail(TypedDict, total=False):
    """Format 7 on: the replay's records not yet known to be on disk (the recorder syncs every few dozen);
    format 8 on: the rules epoch the game is played under (older saves: the first epoch)."""

    replay_tail: bytes
    epoch: int


class SaveHeader(SaveHeaderTail):
    """What a save says about itself besides the game: when, after how many commands, by which game."""

    saved_at: int
    steps: int
    game: str


@dataclass(frozen=True)
class SaveFile:
    """A save read and checked: its format version, header and (upgraded) plain snapshot."""

    path: Path
    version: int
    header: SaveHeader
    plain: Plain

    @property
    def epoch(self) -> int:
        """The rules epoch this game was saved under."""
        return self.header.get("epoch", FIRST_EPOCH)

    @property
    def checksum(self) -> str:
        """The checksum of the saved game state (a session step's checksum for that turn)."""
        return snapshot_digest(encode(self.plain))

    def game(self) -> Game:
        """The saved game, rebuilt."""
        return rebuild(self.path, self.plain)


def write_save(
    path: Path, snapshot: bytes, *, steps: int = 0, slots: SlotWriter | None = None, replay_tail: bytes = b""
) -> None:
    """Write an encoded snapshot as a save; SaveError if it cannot be written.

    Without ``slots`` the file is written whole, atomically; with them (the autosave) into
    the older of its two slots in place, the file being written whole only when it must be.
    """
    envelope = sealed_save(snapshot, steps, replay_tail)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if slots is None:
            write_atomic(path, slotted_file(envelope))
        else:
            slots.write(envelope)
    except OSError as error:
        raise SaveError(path, describe_os_error(error), doing="save") from error


def sealed_save(snapshot: bytes, steps: int, replay_tail: bytes = b"") -> bytes:
    """A snapshot in the envelope of a save, with its header (when, after how many commands, by which
    game, and the replay's records since its last sync)."""
    header: SaveHeader = {
        "saved_at": int(time.time()),
        "steps": steps,
        "game": __version__,
        "replay_tail": replay_tail,
        "epoch": RULES_EPOCH,
    }
    return seal(SAVE_MAGIC, FORMAT_VERSION, encode(dict(header)), snapshot)


def save_game(path: Path, game: Game, *, steps: int = 0) -> None:
    """Write a game as a save (encoding its snapshot first)."""
    from roguelike.core.snapshot import snapshot_bytes  # the rules load only when a game is at hand

    write_save(path, snapshot_bytes(game), steps=steps)


def read_save(path: Path) -> SaveFile:
    """Read and check a save without rebuilding the game; SaveError says what is wrong.

    Every reader of save files comes here: a file of two slots (format 6 on) gives its
    newest slot that is whole, an older file its one envelope.
    """
    data = read_file(path, "save")
    try:
        sealed = newest_slot(data).sealed if is_slotted(data) else unseal(data, SAVE_MAGIC, "save", FORMAT_VERSION)
        header = typing.cast(SaveHeader, checked(decode(sealed.header), SaveHeader))
        if not 0 <= header["steps"] < GAME_INT_LIMIT:
            raise Damaged("its step count is out of range")  # the next save counts on from it
        plain = validated(upgrade(decode(sealed.payload), sealed.version))
    except Damaged as error:
        raise SaveError(path, error.reason) from error
    return SaveFile(path, sealed.version, header, plain)


def load_save(path: Path) -> Game:
    """The game saved in a file, checked and rebuilt; SaveError for anything wrong."""
    return read_save(path).game()


def decode(data: bytes) -> Any:
    """msgpack with strict limits; no extension types, nothing that chooses code to run."""
    try:
        return msgpack.unpackb(
            data, raw=False, use_list=True, strict_map_key=False, ext_hook=refuse_extension, **UNPACK_LIMITS
        )
    except Exception as error:  # msgpack documents that "other exceptions" can escape
        raise Damaged(f"its data cannot be decoded ({type(error).__name__})") from error


def refuse_extension(code: int, data: bytes) -> Any:
    """msgpack extension types never appear in our files."""
    raise ValueError(f"extension type {code}")


def checked(value: Any, hint: object) -> Any:
    """A value of a type hint, or Damaged."""
    try:
        checker(hint)(value, "")
    except Malformed as error:
        raise Damaged(f"its contents are malformed ({error})") from error
    return value


def validated(plain: Any) -> Plain:
    """A snapshot of the right shape, or Damaged."""
    try:
        return validate_snapshot(plain)
    except Malformed as error:
        raise Damaged(f"the saved game is malformed ({error})") from error


def rebuild(path: Path, plain: Plain) -> Game:
    """A game from a validated snapshot; a failure leaves no half-built world behind."""
    from roguelike.core import ecsworld  # the rules load only when a game is rebuilt
    from roguelike.core.snapshot import from_plain

    before = ecsworld.current_name()
    try:
        return from_plain(plain)
    except (KeyError, IndexError, TypeError, ValueError) as error:
        ecsworld.return_to(before, drop_current=True)
        raise SaveError(path, f"the saved game cannot be rebuilt ({type(error).__name__})") from error
