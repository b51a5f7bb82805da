"""The State of Mind turn by turn, with the turns of doses and floor changes.

Kept in the game state and saved with it, so the death screen and the character record
can draw the whole life of a character even when the game was resumed from a save.
Values are 16-bit little-endian integers in a byte string: a 5,000-turn game costs 10 KB
and the autosave copies it without walking a list.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy loads only when a chart is drawn: reading and listing saves need this module
    import numpy as np
    from numpy.typing import NDArray

VALUE_BYTES = 2
VALUE_MIN, VALUE_MAX = -(2**15), 2**15 - 1


@dataclass
class Chart:
    """``values[i]`` is the State of Mind at the end of turn ``start + i``."""

    start: int = 0
    series: bytearray = field(default_factory=bytearray)
    doses: list[int] = field(default_factory=list)
    floors: list[tuple[int, int]] = field(default_factory=list)

    def add(self, state_of_mind: int) -> None:
        """Record the State of Mind of the turn that just ended."""
        value = max(VALUE_MIN, min(VALUE_MAX, state_of_mind))
        self.series += value.to_bytes(VALUE_BYTES, "little", signed=True)

    @property
    def values(self) -> NDArray[np.int16]:
        """The recorded values, oldest first."""
        import numpy as np

        return np.frombuffer(bytes(self.series), dtype="<i2")

    @property
    def end(self) -> int:
        """The turn after the last recorded one."""
        return self.start + len(self.series) // VALUE_BYTES

    def to_plain(self) -> dict[str, object]:
        """Plain values for the snapshot."""
        return {
            "start": self.start,
            "series": bytes(self.series),
            "doses": list(self.doses),
            "floors": [list(pair) for pair in self.floors],
        }

    @classmethod
    def from_plain(cls, plain: dict[str, object]) -> Chart:
        """A chart from :meth:`to_plain`'s output (already validated)."""
        doses = plain["doses"]
        floors = plain["floors"]
        assert isinstance(doses, list) and isinstance(floors, list)
        series = plain["series"]
        start = plain["start"]
        assert isinstance(series, bytes) and isinstance(start, int)
        return cls(start, bytearray(series), [int(t) for t in doses], [(int(t), int(d)) for t, d in floors])
