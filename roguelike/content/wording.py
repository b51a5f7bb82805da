"""Small rules of English the game's messages follow."""

from __future__ import annotations

VOWEL_SOUNDS = frozenset("aeiou")  # every kind's name starting with one of these takes "an"


def with_article(name: str, capital: bool = False) -> str:
    """``an Anxiety``, ``a Hunger``, ``an extra-large dose``: a name with its indefinite article."""
    article = "an" if name[:1].lower() in VOWEL_SOUNDS else "a"
    return f"{article.capitalize() if capital else article} {name}"


def counted(count: int, noun: str) -> str:
    """``1 turn``, ``3 turns``: a count with its noun in the number English wants."""
    return f"{count} {noun if count == 1 else noun + 's'}"
