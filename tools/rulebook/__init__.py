"""rulebook: the full reference engine of the Macau table-game regulations (CPython, exact arithmetic).

Every game module in this package exposes the same small interface, which the command line and the
host tests use (see registry.py): NAME, OPTIONS, bets(opts), parse_outcome(text, opts),
resolve(outcome, opts), edge(opts), flags(opts); card games may add simulate() and strategy().
"""
from .errors import RuleError  # noqa: F401
