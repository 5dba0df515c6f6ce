"""Game options (house choices the regulations allow): declaration, parsing of KEY=VALUE, validation."""
from fractions import Fraction

from .errors import RuleError


class Option:
    """One option: kind is 'int', 'bool', 'choice' or 'fraction'; article cites where it comes from."""

    def __init__(self, name, default, kind, choices=None, lo=None, hi=None, article="", help=""):
        self.name, self.default, self.kind = name, default, kind
        self.choices, self.lo, self.hi = choices, lo, hi
        self.article, self.help = article, help
        self.check(default)

    def describe(self):
        if self.kind == "choice":
            return "one of " + ", ".join(str(c) for c in self.choices)
        if self.kind == "bool":
            return "true or false"
        return "%s from %s to %s" % ("a whole number" if self.kind == "int" else "a fraction", self.lo, self.hi)

    def parse(self, text):
        """Value from command-line text ('18', 'true', 'super6', '5%', '1/20', '0.05')."""
        if not isinstance(text, str):
            return self.check(text)
        raw = text.strip()
        try:
            if self.kind == "int":
                value = int(raw)
            elif self.kind == "bool":
                low = raw.lower()
                if low not in ("true", "false", "1", "0", "yes", "no"):
                    raise ValueError
                value = low in ("true", "1", "yes")
            elif self.kind == "fraction":
                value = Fraction(raw[:-1]) / 100 if raw.endswith("%") else Fraction(raw)
            else:
                value = raw
                for c in self.choices:
                    if str(c) == raw:
                        value = c
        except (ValueError, ZeroDivisionError):
            raise RuleError("option %s: %r is not %s" % (self.name, text, self.describe())) from None
        return self.check(value)

    def check(self, value):
        ok = True
        if self.kind == "int":
            ok = isinstance(value, int) and not isinstance(value, bool) and self.lo <= value <= self.hi
        elif self.kind == "bool":
            ok = isinstance(value, bool)
        elif self.kind == "fraction":
            ok = isinstance(value, (int, Fraction)) and self.lo <= value <= self.hi
        elif self.kind == "choice":
            ok = value in self.choices
        if not ok:
            raise RuleError("option %s: %r is not %s" % (self.name, value, self.describe()))
        return value


def spec(*options):
    """OPTIONS mapping for a game module, in declaration order."""
    return {o.name: o for o in options}


def resolve_options(options_spec, given=None):
    """Full option dict: defaults overridden by `given` (values or KEY=VALUE text), validated."""
    opts = {name: o.default for name, o in options_spec.items()}
    for key, value in (given or {}).items():
        if key not in options_spec:
            known = ", ".join(options_spec) or "none"
            raise RuleError("unknown option %r (this game's options: %s)" % (key, known))
        opts[key] = options_spec[key].parse(value)
    return opts


def parse_assignments(pairs):
    """['a=1', 'b=x'] -> {'a': '1', 'b': 'x'} for --set KEY=VALUE."""
    out = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise RuleError("--set takes KEY=VALUE, got %r" % pair)
        out[key.strip()] = value.strip()
    return out
