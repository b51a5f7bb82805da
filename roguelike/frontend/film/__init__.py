"""Films: a game kept as the frames it showed, played anywhere without the rules that made it."""
