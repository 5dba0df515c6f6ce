"""What a save checks before it writes (CPython and the unix port): check_plain answers as the isinstance rule
for every value two levels deep, a history moved on by one result is checked by what it does not share with
the saved one, a deep patch by the keys it writes; nothing is written for a value json cannot read back."""
# mp-heap: 96K
import gc

from harness.ramblockdev import RamBlockDev
from tablectl.storage import Log
from tablectl.store import Store, check_plain
from mptest import raises


def plain(obj):
    """The rule as first written (isinstance all the way down): the model check_plain must agree with."""
    if obj is None or isinstance(obj, (str, int, bool)):
        return True
    if isinstance(obj, (list, tuple)):
        return all(plain(x) for x in obj)
    if isinstance(obj, dict):
        return all(isinstance(k, str) and plain(obj[k]) for k in obj)
    return False


class Listed(list):
    pass


class Keyed(dict):
    pass


def scalars():
    out = [0, -7, 1 << 40, True, False, None, "", "ab", 1.5, 0.0, b"x", bytearray(b"y"), object()]
    for make in (lambda: type("Word", (str,), {})("w"), lambda: type("Count", (int,), {})(3)):
        try:  # a subclass of str or int, where the port has them
            out.append(make())
        except (TypeError, NotImplementedError):
            pass
    return out


def test_check_plain_answers_as_the_isinstance_rule_for_every_value_two_levels_deep():
    one = scalars()
    shapes = [lambda a: a, lambda a: [a], lambda a: (a,), lambda a: {"k": a}, lambda a: Listed([a]),
              lambda a: Keyed(k=a), lambda a: [1, "s", a], lambda a: {"a": 1, "b": a, "c": None}]
    n = 0
    for v in values(shapes, one):
        want = plain(v)
        try:
            check_plain(v, "record 'r'")
            got = True
        except ValueError as e:
            assert str(e).startswith("record 'r': "), e
            got = False
        assert got == want, (v, want)
        n += 1
    assert n > 800


def values(shapes, one):
    for outer in shapes:
        for inner in shapes:
            for a in one:
                yield outer(inner(a))
    for key in (1, None, b"k", ("t",)):  # a key that is not a string, at either level
        yield {key: 1}
        yield [{"k": 1}, {key: [1]}]


def fresh():
    gc.collect()
    d = RamBlockDev(block_size=1024, blocks=8, prog=256)
    return Store(Log(d)), d


def refused(s, rec):
    frames, writes = s.log.frames, s.writes
    why = raises(ValueError, s.save, "round", rec)
    assert s.log.frames == frames and s.writes == writes  # nothing written
    return why


def test_a_history_moved_on_by_one_is_checked_by_every_item_it_does_not_share_with_the_last_save():
    s, d = fresh()
    hist = [(r, (1, 2, 3)) for r in range(20)]
    s.save("round", {"hist": list(hist), "n": 0})
    # a float anywhere the last save did not hold that very item: as a new result, as an equal-looking copy
    # of a saved one at the front, in the middle or at the end, after a reordering, two results on
    for new in (hist[1:] + [(20, (1.5, 2, 3))],
                [(1, (1, 2, 3.0))] + hist[2:] + [(20, (1, 2, 3))],
                hist[1:10] + [(10, (1.0, 2, 3))] + hist[11:] + [(20, (1, 2, 3))],
                hist[1:] + [(20, (1, 2, 3)), (21, [0.5])],
                [hist[5], hist[3], (22, 2.5)],
                hist[:19] + [(19, (1, 2, 3)), 1.5],
                [1.5]):
        assert "float values cannot be stored" in refused(s, {"hist": new, "n": 1}), new
    assert Store(Log(d)).load("round") == {"hist": [[r, [1, 2, 3]] for r in range(20)], "n": 0}
    moved = hist[1:] + [(20, (6, 6, 6))]
    s.save("round", {"hist": moved, "n": 1})
    again = Store(Log(d))
    assert again.load("round") == {"hist": [[r, [6, 6, 6] if r == 20 else [1, 2, 3]] for r in range(1, 21)],
                                   "n": 1}


def test_a_deep_patch_checks_the_keys_it_writes():
    s, d = fresh()
    s.save("round", {"m": {"a": 1, "b": [1], "h": {"x": 1}}, "n": 0})
    for m in ({"a": 1, "b": [1], "h": {"x": 1}, "c": 1.5}, {"a": 2.5, "b": [1], "h": {"x": 1}},
              {"a": 1, "b": [1, 0.5], "h": {"x": 1}}, {"a": 1, "b": [1], "h": {"x": 1, 2: 3}}):
        assert refused(s, {"m": m, "n": 0}), m
    s.save("round", {"m": {"a": 2, "b": [1], "h": {"x": 1}}, "n": 0})
    assert Store(Log(d)).load("round") == {"m": {"a": 2, "b": [1], "h": {"x": 1}}, "n": 0}


def test_a_key_that_was_not_a_list_or_a_new_one_is_checked_from_its_first_item():
    """A list where the last save held none (a new key, a None) shares nothing with it: its first item is
    checked as every other; a key that is not a string is refused in a patch as in a whole record."""
    s, d = fresh()
    s.save("round", {"hist": None, "n": 0})
    assert "float values cannot be stored" in refused(s, {"hist": [(1, 0.5)], "n": 0})
    assert "float values cannot be stored" in refused(s, {"hist": None, "n": 0, "more": [(1, 0.5)]})
    assert "float values cannot be stored" in refused(s, {"hist": None, "n": 0, "more": [[0.5]]})
    assert "key 5 is not a string" in refused(s, {"hist": None, "n": 0, 5: 1})
    assert Store(Log(d)).load("round") == {"hist": None, "n": 0}


def test_a_history_moved_on_by_one_or_grown_by_one_costs_the_check_of_its_new_result_alone():
    """What the sharing is for (a Pico took 400k instructions over a history of 20): a save checks the
    items the last save did not hold, and no saved one that follows them in a run; an item of a list
    that starts anew, or after a gap, is checked."""
    import tablectl.store as store
    checked = []
    real = store.check_plain

    def counting(obj, where="record"):
        checked.append(obj)
        return real(obj, where)

    s, d = fresh()
    s.save("round", {"hist": [(r, r) for r in range(20)], "n": 0})
    store.check_plain = counting
    try:
        def save(new):
            del checked[:]
            s.save("round", {"hist": new, "n": 0})
            return list(checked)

        cur = s.peek("round")["hist"]
        assert save(cur[1:] + [(20, 20)]) == [(20, 20)]  # moved on: the oldest gone, a result appended
        cur = s.peek("round")["hist"]
        assert save(cur + [(21, 21)]) == [(21, 21)]      # grown: the run reaches the saved list's end
        cur = s.peek("round")["hist"]
        assert save(cur[:5]) == []                        # cut short: every item saved before
        cur = s.peek("round")["hist"]
        assert save([(9, 9)] + cur) == [(9, 9)] + cur     # a first item the last save lacked: all of it
        cur = s.peek("round")["hist"]
        assert save(cur[2:4] + [(30, 30)] + cur[1:2]) == [(30, 30), cur[1]]  # a run broken: what follows
    finally:
        store.check_plain = real
    assert Store(Log(d)).load("round")["hist"] == [[r, r] for r in (2, 3, 30, 1)]
