"""Records the game's sound through SDL's ``disk`` audio driver, one file per scenario.

Run as a program (``python tests/sound_recorder.py FOLDER``) so SDL starts with the disk
driver in a process of its own (the test process has SDL's audio on the dummy driver).
Each scenario opens the speaker with its own output file, queues its whole sound at once
(nothing can run short, however busy the machine) and waits until the device played it.
``FOLDER/format.json`` says what the files hold: float32 samples, the device's channels
and rate.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tcod.cffi import lib  # noqa: E402  (after the path: this runs as a script)

from roguelike import settings  # noqa: E402
from roguelike.core import cues  # noqa: E402
from roguelike.core.cues import Cue  # noqa: E402
from roguelike.frontend.speaker import open_speaker  # noqa: E402
from roguelike.sound import Audio, Mind, bank  # noqa: E402

# One cue for each kind of event the rules report, by the scenario's name.
EVENTS: dict[str, Cue] = {
    "dose_small": Cue(cues.DOSE, ((1, 1),), "small_dose", 20),
    "dose_huge": Cue(cues.DOSE, ((1, 1),), "extra_large_dose", 80),
    "close_call": Cue(cues.CLOSE_CALL, ((1, 1),)),
    "sighted": Cue(cues.SIGHTED, ((1, 1),), "hunger"),
    "hit": Cue(cues.HIT, ((1, 1),), "drained"),
    "slain": Cue(cues.SLAIN, ((1, 1),), "hunger"),
    "blast": Cue(cues.BLAST, ((1, 1),), "cardinal_dose"),
    "floor": Cue(cues.FLOOR, ((1, 1),), amount=2),
    "desperate": Cue(cues.DESPERATE, ((1, 1),)),
    "perfect_high": Cue(cues.PERFECT_HIGH, ((1, 1),)),
    "death": Cue(cues.DEATH, ((1, 1),), "overdose"),
}
DRONE_MINDS = {"drone_10": Mind(10, 5), "drone_40": Mind(40, 5), "drone_55": Mind(55, 5), "drone_80": Mind(80, 5)}


def record(
    folder: Path, name: str, seconds: float, play: Callable[[Audio], None], **chosen: object
) -> dict[str, object]:
    """Play one scenario into ``folder/name.raw``: ``seconds`` of sound after ``play`` set it going.

    Returns the file's format. No stream outlives its scenario: tcod finds a stream's Python
    object by its address, and a closed one still alive would stand for a new stream there.
    """
    lib.SDL_SetHint(b"SDL_AUDIO_DISK_OUTPUT_FILE", str(folder / f"{name}.raw").encode())
    prefs = settings.Preferences(None)
    for option, value in chosen.items():
        prefs.change(option, value)
    settings.use(prefs)
    audio = Audio()
    speaker = open_speaker(audio.mixer)
    assert speaker is not None, "the disk driver always has a device"
    audio.bank = bank.build()
    play(audio)
    speaker.top_up(seconds)
    while not speaker.drained():
        time.sleep(0.005)
    time.sleep(0.05)
    found = {
        "channels": speaker.device.channels,
        "rate": speaker.device.frequency,
        "format": str(speaker.device.format),
    }
    speaker.close()
    return found


def hearing(cue: Cue, mind: Mind | None = None) -> Callable[[Audio], None]:
    """A scenario: ``cue`` heard while the drone follows ``mind`` (silence for None)."""

    def play(audio: Audio) -> None:
        audio.follow(mind, settings.current())
        audio.hear([cue], settings.current())

    return play


def droning(mind: Mind) -> Callable[[Audio], None]:
    """A scenario: the drone following ``mind``, nothing else."""

    def play(audio: Audio) -> None:
        audio.follow(mind, settings.current())

    return play


def main(folder: Path) -> None:
    """Every scenario, then the files' format."""
    lib.SDL_SetHint(b"SDL_AUDIO_DRIVER", b"disk")
    lib.SDL_SetHint(b"SDL_AUDIO_DISK_TIMESCALE", b"0.05")  # twenty times faster than real time
    for name, cue in EVENTS.items():
        record(
            folder,
            name,
            1.8,
            hearing(cue),
            volume=100,
            drone=False,
        )
    for name, mind in DRONE_MINDS.items():
        record(
            folder,
            name,
            4.0,
            droning(mind),
            volume=100,
            sound_effects=False,
        )
    found = record(
        folder,
        "muted",
        2.0,
        hearing(EVENTS["death"], Mind(97, 5)),
        volume=0,
    )
    (folder / "format.json").write_text(json.dumps(found))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
