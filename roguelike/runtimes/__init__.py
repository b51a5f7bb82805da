"""Runtimes: the code of each rules epoch, kept on this machine so that old replays still verify.

A replay records the rules epoch it was played under (:mod:`roguelike.core.epoch`). When
the rules change, the code that made a replay is gone from the installed game; a runtime
is a copy of that code (the ``roguelike``, ``components`` and ``systems`` packages) with
the hashes of its files and the exact versions of the libraries it ran with (its lock).
The game keeps a runtime of itself the first time each version runs (:mod:`.keep`),
developers add them from the repository's history, and a replay of another epoch is
played by its epoch's runtime in a child process (:mod:`.dispatch`), checked against its
manifest first (:mod:`.store`), rebuilt aside when damaged (:mod:`.repair`), and killed with
all it started at the time limit (:mod:`.launch`).
"""
