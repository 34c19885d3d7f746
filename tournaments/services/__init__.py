"""State changes of tournaments: each a function under ``transaction.atomic``."""
