"""Entry point for ``python -m roguelike``: the same as the ``hedonic`` command."""

from __future__ import annotations

from roguelike.cli.main import main

if __name__ == "__main__":  # multiprocessing's spawn and forkserver import the main module again as __mp_main__
    raise SystemExit(main())
