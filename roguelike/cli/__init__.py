"""The ``hedonic`` command line: the table of sub-commands and what each runs."""
