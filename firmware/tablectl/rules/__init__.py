"""Trimmed rules core: pure functions over ints and tuples; no I/O, no floats, no allocation on hot paths."""
