"""The speaker: tcod's SDL audio device and a stream fed float32 samples from the sound's mixer.

A thread of ours keeps about :data:`LEAD_SECONDS` of sound queued on the stream, waking
every :data:`PERIOD_SECONDS` (and mixing nothing while nothing sounds); SDL never calls into Python (a callback from SDL's audio
thread, as the deprecated ``BasicMixer`` uses, can hang at exit), and closing stops the
thread before the stream and device. Where no audio device exists (SSH, CI, a machine
without sound) opening fails at once and quietly, and the game plays silent. The effects
are built only when a device opened, so a silent run pays nothing for them.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

import numpy as np
import tcod.sdl.audio

from roguelike.frontend.quiet import quiet_c_output
from roguelike.settings import Settings
from roguelike.sound import bank
from roguelike.sound.audio import Audio, audible
from roguelike.sound.mixer import Mixer
from roguelike.sound.synth import RATE

LEAD_SECONDS = 0.06  # queued ahead of the device: how late an effect may start
PERIOD_SECONDS = 0.02
JOIN_SECONDS = 1.0


def top_up(stream: tcod.sdl.audio.AudioStream, mixer: Mixer, seconds: float = LEAD_SECONDS) -> None:
    """Queue mixed samples until ``seconds`` of sound wait for the device (none while nothing
    sounds: the device plays silence by itself)."""
    wanted = int(seconds * RATE) - stream.queued_samples
    if wanted > 0 and not mixer.idle:
        stream.queue_audio(mixer.mix(wanted))


def feed(stream: tcod.sdl.audio.AudioStream, mixer: Mixer, stopping: threading.Event) -> None:
    """The feeding thread: top up, wait, until asked to stop (or the device is lost: then silence)."""
    try:
        while not stopping.is_set():
            top_up(stream, mixer)
            stopping.wait(PERIOD_SECONDS)
    except RuntimeError:  # SDL's error for a stream whose device went away: the game plays on silent
        return


class Speaker:
    """An open audio device and its stream, topped up from a mixer by a thread of its own.

    Nothing may hold a stream once it is closed: tcod finds a stream's Python object by the
    C stream's address, so a closed one kept alive would stand for the next stream made
    there. :meth:`close` lets go of both, and the thread runs a plain function (no cycle
    through the speaker keeps them alive).
    """

    def __init__(self, device: tcod.sdl.audio.AudioDevice, stream: tcod.sdl.audio.AudioStream, mixer: Mixer) -> None:
        self.device, self.stream, self.mixer = device, stream, mixer
        self.stopping = threading.Event()
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        """Begin feeding the stream from a thread."""
        self.thread = threading.Thread(
            target=feed, args=(self.stream, self.mixer, self.stopping), name="hedonic-speaker", daemon=True
        )
        self.thread.start()

    def top_up(self, seconds: float = LEAD_SECONDS) -> None:
        """Queue mixed samples until ``seconds`` of sound wait for the device (the thread does this)."""
        top_up(self.stream, self.mixer, seconds)

    def drained(self) -> bool:
        """Whether the device has played everything queued."""
        return self.stream.queued_samples == 0

    def close(self) -> None:
        """Stop the thread, then release the stream and the device and let go of them."""
        self.stopping.set()
        if self.thread is not None:
            self.thread.join(JOIN_SECONDS)
            self.thread = None
        self.stream.close()
        self.device.close()
        del self.stream, self.device


def open_speaker(mixer: Mixer) -> Speaker | None:
    """The default playback device opened for mono float32 sound, or None where there is none.

    SDL and ALSA print their reasons to the C streams; a player without sound needs none of it.
    """
    try:
        with quiet_c_output():
            device = tcod.sdl.audio.get_default_playback().open(format=np.float32, channels=1, frequency=RATE)
            stream = device.new_stream(format=np.float32, channels=1, frequency=RATE)
    except (RuntimeError, OSError):
        return None
    return Speaker(device, stream, mixer)


def start_speaker(audio: Audio) -> Speaker | None:
    """Open the speaker, build the effects and start feeding; None (and silence) without a device."""
    speaker = open_speaker(audio.mixer)
    if speaker is None:
        return None
    audio.bank = bank.build()
    speaker.start()
    return speaker


@contextlib.contextmanager
def speaking(audio: Audio, chosen: Settings) -> Iterator[None]:
    """Sound for the length of a frontend's run: opened now if the settings at its start want any,
    else when they do (``Audio.follow`` opens it)."""
    opened: list[Speaker] = []

    def open_now() -> None:
        speaker = start_speaker(audio)
        opened.extend([speaker] if speaker is not None else [])

    audio.open_output = open_now
    if audible(chosen):
        audio.follow(None, chosen)
    try:
        yield
    finally:
        audio.open_output = None
        for speaker in opened:
            speaker.close()
        audio.bank = None
