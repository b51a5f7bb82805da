"""The lowest layer, under every file the game keeps: atomic writes, the data directory, player files, file errors.

Nothing here knows the game: these modules import only the standard library,
``platformdirs`` and the package's own name and version, so every layer may use them
(``tests/test_layers.py`` holds it). ``datadir`` names each folder and file of the data
directory (:class:`~roguelike.storage.datadir.DataDir`); ``atomic`` writes a file so that
a crash leaves the old one or the new one; ``playerfile`` reads a file a player edits by
hand; ``errors`` holds the typed error a file raises, in a player's words; ``output`` is
standard output that can be lost without a crash.
"""
