"""The web frontend: the game served to a browser, and its spectators (needs the ``web`` extra)."""
