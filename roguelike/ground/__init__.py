"""The ground the game and the score server share: small modules of the standard library alone.

Nothing here imports anything else of the game, so the score server's web process, which
never loads the rules, reads replays' frames and ranks runs with the very code the game uses.
"""
