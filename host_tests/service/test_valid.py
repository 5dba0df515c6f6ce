"""The shared checks (tablectl.valid): an integer in a range is never a bool or a float, a name holds only its
characters; and the modules that check so refuse as before (a record name, a journal event, a link's ids)."""
# mp-heap: 64K
from tablectl.valid import NAME_CHARS, int_in, is_int, name_ok
from mptest import raises


def test_is_int_takes_ints_only_never_a_bool_float_or_text():
    for v in (0, -1, 1, 2 ** 40, -(2 ** 40)):
        assert is_int(v)
    for v in (True, False, 1.0, 0.0, "1", None, [1], (1,), b"1"):
        assert not is_int(v), v


def test_int_in_is_inclusive_at_both_ends_exhaustively():
    for low in range(-3, 4):
        for high in range(-3, 4):
            for v in range(-5, 6):
                assert int_in(v, low, high) == (low <= v <= high), (v, low, high)
    assert not int_in(True, 0, 1) and not int_in(False, 0, 1)  # 1 and 0 to Python, refused here
    assert not int_in(0.5, 0, 1) and not int_in(1.0, 0, 1) and not int_in(None, 0, 1)


def test_name_ok_refuses_any_character_outside_wherever_it_stands():
    assert len(NAME_CHARS) == 37
    assert name_ok("") and name_ok(NAME_CHARS) and name_ok("a-b", NAME_CHARS + "-")
    for code in range(1, 256):
        c = chr(code)
        good = c in NAME_CHARS
        for text in (c, c + "ab", "ab" + c, "a" + c + "b"):  # first, last, in the middle
            assert name_ok(text) == good, (text, good)
    assert not name_ok("a-b")  # '-' only where the caller lets it (a link's ids)


def test_the_checks_callers_refuse_as_before():
    from tablectl.journal import _check_event
    from tablectl.linkaddr import link_parts
    from tablectl.store import _check_name
    _check_name("round_2")
    assert "only a-z, 0-9 and _" in raises(ValueError, _check_name, "Round")
    assert "only a-z, 0-9 and _" in raises(ValueError, _check_name, "a-b")
    _check_event("key_on")
    assert "only a-z, 0-9 and _" in raises(ValueError, _check_event, "key on")
    assert link_parts("mqtt://t-01:p@h:1/pit_1")[1] == "t-01"
    assert "takes a-z, 0-9, _ and - only" in raises(ValueError, link_parts, "mqtt://T01:p@h:1/pit1")
    assert "takes a-z, 0-9, _ and - only" in raises(ValueError, link_parts, "mqtt://t01:p@h:1/pit.1")
