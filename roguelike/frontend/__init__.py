"""Frontends: the window and the terminal; they only draw the console and pass keys on."""
