"""Rules core, ids: a sequence of spot or class ids held as one string (tablectl.rules.ids.SpotIds)."""
# mp-heap: 20K
from mptest import raises
from tablectl.rules.ids import SpotIds


def test_spot_ids_read_back_from_one_string():
    ids = SpotIds("small big total_4")
    assert len(ids) == 3
    assert (ids[0], ids[1], ids[2], ids[-1]) == ("small", "big", "total_4", "total_4")
    assert list(ids) == ["small", "big", "total_4"]
    assert (ids.index("small"), ids.index("total_4")) == (0, 2)
    assert "big" in ids and "bi" not in ids and "small big" not in ids
    for bad in ("bi", "", "small big", "total_", 4):
        try:
            ids.index(bad)
        except ValueError:
            continue
        raise AssertionError("index(%r) did not raise" % (bad,))
    for i in (3, -4):
        try:
            ids[i]
        except IndexError:
            continue
        raise AssertionError("ids[%d] did not raise" % i)
    for words in ("", " ", "a  b", " a", "a ", " a  b ", 5):
        raises(ValueError, SpotIds, words)
    padded = " small big total_4 "  # a module's padded constant: same ids, no copy
    assert list(SpotIds(padded)) == list(ids) and SpotIds(padded)._text is padded
    assert ids[1:] == ("big", "total_4") and ids[:-1] == ("small", "big")  # a slice is a tuple
