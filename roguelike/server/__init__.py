"""The score server (``hedonic serve``): uploads verified by re-simulation in child processes, and boards.

This package never imports the game: a run is verified by ``hedonic replay --verify --json``
in a child process (or an RQ worker's child), and only its JSON verdict comes back.
"""
