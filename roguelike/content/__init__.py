"""Content: every tunable number (formulas), the kinds of dose and the bestiary."""
