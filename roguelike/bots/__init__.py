"""Built-in players for headless games: the bot, its tactics, and headless play."""
