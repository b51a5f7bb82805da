"""The bots as a coach: par for a seed and the review of a game (docs/coach.md)."""
