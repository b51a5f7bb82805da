"""Drawing a game onto a tcod console: the map, the panel, colours, and PNG screenshots."""
