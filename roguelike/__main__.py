"""Entry point for ``python -m roguelike``: the same as the ``hedonic`` command."""

from __future__ import annotations

from roguelike.cli.main import main

raise SystemExit(main())
