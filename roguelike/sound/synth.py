"""The voices every sound is made of: square, saw, triangle and noise, a pitch slide, an envelope.

Pure numpy over float32 samples at :data:`RATE`. Noise is a hash of the sample's index
and a seed, never an RNG (the game's or numpy's, whose import alone costs more than every
effect): the same recipe makes the same samples on every run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import NDArray

RATE = 44100  # samples a second, mono
Samples = NDArray[np.float32]
Shape = Literal["square", "saw", "triangle", "sine", "noise"]


@dataclass(frozen=True)
class Voice:
    """One voice of an effect: a shape sliding from one pitch to another under an envelope."""

    shape: Shape
    start_hz: float
    end_hz: float
    seconds: float
    delay: float = 0.0  # after the effect's start
    gain: float = 1.0
    attack: float = 0.004  # seconds to full level; the rest decays to silence
    decay: float = 1.0  # the decay's steepness: 1 even, higher falls away sooner
    duty: float = 0.5  # a square's share of high
    tremolo_hz: float = 0.0  # a pulse over the level (an alarm's beeps)


def count(seconds: float) -> int:
    """Samples in ``seconds``."""
    return max(1, int(round(seconds * RATE)))


def slide(start_hz: float, end_hz: float, samples: int) -> NDArray[np.float64]:
    """Frequency at each sample, gliding evenly in pitch (exponentially in hertz)."""
    if start_hz == end_hz:
        return np.full(samples, float(start_hz))
    return np.exp(np.linspace(np.log(start_hz), np.log(end_hz), samples))


def phase(frequencies: NDArray[np.float64]) -> NDArray[np.float64]:
    """Cycles completed at each sample (wrapped to 0..1) for a frequency per sample."""
    cycles = np.cumsum(frequencies)
    cycles *= 1.0 / RATE
    cycles -= np.floor(cycles)
    return cycles


def noise(samples: int, seed: int) -> NDArray[np.float64]:
    """White noise in -1..1: each sample's index hashed with the seed (lowbias32)."""
    x = np.arange(samples, dtype=np.uint32)
    x += np.uint32((seed * 0x9E3779B9) & 0xFFFFFFFF)
    for shift, factor in ((16, 0x7FEB352D), (15, 0x846CA68B)):
        x ^= x >> np.uint32(shift)
        x *= np.uint32(factor)
    x ^= x >> np.uint32(16)
    return x.astype(np.float64) * (2.0 / 2**32) - 1.0


def wave(shape: Shape, cycles: NDArray[np.float64], duty: float, seed: int) -> NDArray[np.float64]:
    """The shape's samples in -1..1 at the given phases."""
    if shape == "square":
        return np.where(cycles < duty, 1.0, -1.0)
    if shape == "saw":
        return 2.0 * cycles - 1.0
    if shape == "triangle":
        return 4.0 * np.abs(cycles - 0.5) - 1.0
    if shape == "sine":
        return np.sin(2 * np.pi * cycles)
    return noise(cycles.size, seed)


def envelope(samples: int, attack: float, decay: float) -> NDArray[np.float64]:
    """A quick rise over ``attack`` seconds, then a fall to silence at the end."""
    rise = min(samples, count(attack))
    level = np.ones(samples)
    level[:rise] = np.linspace(0.0, 1.0, rise, endpoint=False)
    fall = samples - rise
    level[rise:] = np.linspace(1.0, 0.0, fall)
    if decay != 1.0:
        level[rise:] **= decay
    return level


def voice(spec: Voice, seed: int) -> NDArray[np.float64]:
    """One voice's samples, its delay included."""
    samples = count(spec.seconds)
    cycles = np.empty(samples) if spec.shape == "noise" else phase(slide(spec.start_hz, spec.end_hz, samples))
    level = envelope(samples, spec.attack, spec.decay)
    level *= spec.gain
    if spec.tremolo_hz:  # on and off, a beep per cycle
        level *= phase(np.full(samples, float(spec.tremolo_hz))) < 0.5
    sound = wave(spec.shape, cycles, spec.duty, seed)
    sound *= level
    return np.concatenate([np.zeros(count(spec.delay) if spec.delay else 0), sound])


def soften(samples: NDArray[np.float64], width: int = 3) -> NDArray[np.float64]:
    """Take the harsh edge off square and noise voices (a short moving average)."""
    return np.convolve(samples, np.full(width, 1.0 / width), mode="same")


def mix_voices(voices: tuple[Voice, ...], peak: float, seed: int) -> Samples:
    """The voices summed and scaled so the loudest sample is ``peak``."""
    parts = [voice(spec, seed * 16 + index) for index, spec in enumerate(voices)]
    out = np.zeros(max(part.size for part in parts))
    for part in parts:
        out[: part.size] += part
    out = soften(out)
    loudest = float(np.max(np.abs(out))) or 1.0
    return (out * (peak / loudest)).astype(np.float32)
