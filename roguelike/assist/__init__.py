"""What helps the player without making a rule: automation and read-outs.

Automation (auto-explore, travel, rest, the reserve rule and what disturbs it) and the
read-outs (the game told in words, the carried doses' figures, what the craving would do)
read a game and hand back ordinary commands or words; none of them changes a game, and
the rules core never imports them.
"""
