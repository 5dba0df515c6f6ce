"""Deep patches (issue 20's wear): a save writes only the changed keys of a record's dict-valued keys, alone or
folded with other commits of an atomic() block, and every sequence of them reads back after a reboot."""
# mp-heap: 96K
from harness.ramblockdev import RamBlockDev, log_frames
from tablectl.storage import Log
from tablectl.store import Store


FLASH = bytearray(2048 * 5)  # one flash for every case: a fresh 10 KB block each would fragment the heap


def fresh():
    for i in range(len(FLASH)):
        FLASH[i] = 0xFF
    d = RamBlockDev(block_size=2048, blocks=5, data=FLASH)
    return Store(Log(d)), d


def rec(state, rounds, hits, extra=None):
    m = {"rounds": rounds, "hits": [[i, "straight flush", 125000] for i in range(hits)]}
    if extra is not None:
        m["x"] = extra
    return {"state": state, "m": m}


def test_a_changed_counter_in_the_meters_writes_the_counter_not_the_hit_history():
    s, d = fresh()
    s.save("round", rec("betting", 1, 25))
    s.save("round", rec("locked", 2, 25))
    last = log_frames(d)[-1][5]
    assert last == {"p": {"round": {"state": "locked"}}, "q": {"round": {"m": {"rounds": 2}}}}, last
    assert Store(Log(d.reboot())).load("round") == rec("locked", 2, 25)


def test_a_key_gone_from_a_nested_dict_saves_that_dict_whole():
    s, d = fresh()
    s.save("round", rec("betting", 1, 2, extra=1))
    s.save("round", rec("betting", 2, 2))
    last = log_frames(d)[-1][5]
    assert last["p"]["round"]["m"] == rec("betting", 2, 2)["m"] and "q" not in last
    assert Store(Log(d.reboot())).load("round") == rec("betting", 2, 2)


SAVES = (rec("a", 1, 0), rec("a", 2, 0), rec("b", 2, 1), rec("b", 3, 1, extra=5), rec("c", 3, 1, extra=6),
         {"state": "d", "m": 7}, rec("e", 9, 2))


def test_every_sequence_of_three_steps_in_and_out_of_atomic_blocks_reads_back():
    """Exhaustive over three steps of the saves above (or a clear), each its own frame or all three in one
    atomic() block, after a first full save: the state after a reboot is the last step's."""
    n = 0
    for a in range(len(SAVES) + 1):
        for b in range(len(SAVES) + 1):
            for c in range(len(SAVES) + 1):
                for atomic in (False, True):
                    s, d = fresh()
                    s.save("round", rec("start", 0, 1))
                    s.save("other", {"v": {"k": 1}})
                    want = rec("start", 0, 1)

                    def step(i):
                        if i == len(SAVES):
                            s.clear("round")
                            return None
                        value = dict(SAVES[i])
                        if isinstance(value["m"], dict):
                            value["m"] = dict(value["m"])
                        s.save("round", value)
                        return SAVES[i]

                    if atomic:
                        with s.log.atomic():
                            for i in (a, b, c):
                                want = step(i)
                            s.save("other", {"v": {"k": 2}})
                    else:
                        for i in (a, b, c):
                            want = step(i)
                        s.save("other", {"v": {"k": 2}})
                    got = Store(Log(d.reboot()))
                    assert got.load("round") == want, (a, b, c, atomic, got.load("round"), want)
                    assert got.load("other") == {"v": {"k": 2}} and s.load("round") == want
                    n += 1
    assert n == 2 * (len(SAVES) + 1) ** 3


def test_what_a_patch_writes_is_checked_a_float_or_a_bad_key_in_a_changed_key_writes_nothing():
    from mptest import raises
    s, d = fresh()
    s.save("round", rec("betting", 1, 3))
    ops = d.ops
    bad = rec("locked", 2, 3)
    bad["m"]["rounds"] = 2.5
    assert "float" in raises(ValueError, s.save, "round", bad)
    bad = rec("locked", 2, 3)
    bad["m"][7] = 1
    assert "not a string" in raises(ValueError, s.save, "round", bad)
    bad = rec("locked", 2, 3)
    bad["new"] = {"x": 0.5}
    assert "float" in raises(ValueError, s.save, "round", bad)
    assert d.ops == ops and Store(Log(d.reboot())).load("round") == rec("betting", 1, 3)
