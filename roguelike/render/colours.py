"""Colour maths for the State-of-Mind palette, vectorised over console arrays.

Greyness and darkness come from the saved :class:`~components.Palette`; the psychedelic
hue swirl when High is cosmetic and driven by wall time only.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

LUMA = np.array([0.299, 0.587, 0.114], dtype=np.float32)
FloatRGB = NDArray[np.float32]


def shade(rgb: FloatRGB, saturation: float, brightness: float) -> FloatRGB:
    """Desaturate toward grey and scale the brightness of ``(..., 3)`` colours."""
    grey = (rgb @ LUMA)[..., None]
    result: FloatRGB = ((grey + (rgb - grey) * saturation) * brightness).astype(np.float32)
    return result


def swirl(rgb: FloatRGB, now: float) -> FloatRGB:
    """Rotate hues by an angle that flows across the ``[y, x, 3]`` grid with time."""
    height, width = rgb.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width]
    angle = (now * 2.0 + (xs + ys) * 0.35).astype(np.float32)
    return rotate_hue(rgb, angle)


def rotate_hue(rgb: FloatRGB, angle: NDArray[np.float32]) -> FloatRGB:
    """Rotate the hue of each colour by its angle (radians), keeping its luminance."""
    cos, sin = np.cos(angle)[..., None], np.sin(angle)[..., None]
    k = np.float32(1 / np.sqrt(3))
    cross = np.stack(
        [k * (rgb[..., 2] - rgb[..., 1]), k * (rgb[..., 0] - rgb[..., 2]), k * (rgb[..., 1] - rgb[..., 0])],
        axis=-1,
    )
    dot = (rgb.sum(axis=-1, keepdims=True) * k) * k
    result: FloatRGB = (rgb * cos - cross * sin + dot * (1 - cos)).astype(np.float32)
    return result


def to_bytes(rgb: FloatRGB) -> NDArray[np.uint8]:
    """Float colours clipped into 0..255 bytes."""
    result: NDArray[np.uint8] = np.clip(rgb, 0, 255).astype(np.uint8)
    return result
