"""Replays: every game's commands with a checksum per turn, recorded, verified and played back.

``fileformat`` reads and writes the files (and rejects bad ones with a one-line reason),
``recorder`` is the session observer that writes them, ``verify`` re-simulates them,
``playback`` steps through them for the replay screen and ``corpus`` keeps the
repository's regression replays. See docs/replays.md.
"""
