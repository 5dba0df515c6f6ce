"""The checks many modules make of a value: an integer (not a bool) in a range, a name of a few characters.

    is_int(v), int_in(v, low, high)     # True/False; True is an int to Python, never here
    name_ok(text, chars=NAME_CHARS)     # text holds only `chars` (a-z, 0-9, _ by default)
"""
NAME_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789_"


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def int_in(v, low, high):
    return isinstance(v, int) and not isinstance(v, bool) and low <= v <= high


def name_ok(text, chars=NAME_CHARS):
    # strip() in C leaves nothing of a good name (and allocates nothing then); a loop a character took 20k
    # instructions a step on a Pico
    return not text.strip(chars)
