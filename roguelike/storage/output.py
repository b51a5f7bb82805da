"""Standard output as the sub-commands see it: losing it is one line and exit 1, not a crash.

A closed standard output (``hedonic saves >&-``) or one whose disk is full
(``hedonic simulate ... > /dev/full``) is the caller's business, like a reader that went
away (a broken pipe): :class:`Output` turns a failed write into :class:`OutputLost`, which
:func:`roguelike.saves.crash.guarded` reports in one line.
"""

from __future__ import annotations

from typing import Any, TextIO

from roguelike.storage.errors import describe_os_error

EXIT_OUTPUT_LOST = 1


class OutputLost(Exception):
    """Standard output cannot be written: it is closed, or writing it failed."""

    def __init__(self, error: OSError | None) -> None:
        super().__init__(error)
        self.error = error

    def __str__(self) -> str:
        why = "standard output is closed" if self.error is None else describe_os_error(self.error)
        return f"hedonic: cannot write the output: {why}."


class Output:
    """Wraps ``sys.stdout`` (None when closed): every write or flush that fails raises OutputLost."""

    def __init__(self, stream: TextIO | None) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        """Write text, or raise OutputLost (a broken pipe stays a BrokenPipeError)."""
        return int(self.guarded("write", text))

    def flush(self) -> None:
        """Flush, or raise OutputLost (a closed output has nothing to flush)."""
        if self.stream is not None:
            self.guarded("flush")

    def isatty(self) -> bool:
        """Whether the output is a terminal (a closed one is not)."""
        return self.stream is not None and self.stream.isatty()

    def guarded(self, name: str, *args: Any) -> Any:
        """Call the stream's method, turning a failure of the output into OutputLost."""
        if self.stream is None:
            raise OutputLost(None)
        try:
            return getattr(self.stream, name)(*args)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise OutputLost(error) from error

    def __getattr__(self, name: str) -> Any:
        if self.stream is None:
            raise OutputLost(None)
        return getattr(self.stream, name)
