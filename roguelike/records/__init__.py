"""The records a game leaves apart from its play: the morgue file, and the ending that writes it.

A finished game ends in one call, :func:`roguelike.records.ending.end_game`: the session
closes (its replay and last save complete), the morgue file is written from the replay,
and the replay goes to be proved for the hall. Ranked above ``replay``, ``render`` and
``scores`` (it uses all three) and below ``screens``, which only show what it returns.
"""
