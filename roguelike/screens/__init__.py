"""Screens: a stack of title, game, menu and death screens shared by both frontends."""
