"""The one exception type for bad input to the reference engine (unknown bet, bad option, bad outcome)."""


class RuleError(ValueError):
    """Raised with a message a person can act on; the CLI prints it as one line, no traceback."""


class ShoeExhausted(RuleError):
    """A round needed a card the shoe does not have: an error, never a silent reshuffle."""
