"""The one error saves, history records and locks raise, with words a player understands."""

from __future__ import annotations

from pathlib import Path


class SaveError(Exception):
    """A save or history file could not be read, written or opened; names the file.

    ``reason`` is a short phrase for listings ("damaged: <reason>"); ``str(error)`` is
    the whole sentence for the player. The file named is never touched by the error path.
    """

    def __init__(self, path: Path, reason: str, *, doing: str = "load") -> None:
        super().__init__(path, reason, doing)
        self.path = path
        self.reason = reason
        self.doing = doing

    def __str__(self) -> str:
        return f"Could not {self.doing} {self.path}: {self.reason}."

    def brief(self) -> str:
        """The reason as a sentence naming only the file's name (for a line on a screen)."""
        return f"{self.reason[:1].upper()}{self.reason[1:]} ({self.path.name})."


class Damaged(Exception):
    """Internal: the bytes of a file are unusable, and why (turned into a SaveError)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def describe_os_error(error: OSError) -> str:
    """A short phrase for an operating-system error ("no space left on device")."""
    text = error.strerror or type(error).__name__
    return text[:1].lower() + text[1:]


def in_words(error: BaseException, path: Path | None = None) -> str:
    """A disk or save error as the game says it, naming the file (``/x/a.save: read-only file system``);
    ``path`` is the file meant when the error does not say."""
    if isinstance(error, SaveError):
        return f"{error.path}: {error.reason}"
    if isinstance(error, OSError):
        where = error.filename or path
        return f"{where}: {describe_os_error(error)}" if where else describe_os_error(error)
    return str(error)
