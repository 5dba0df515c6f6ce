"""tablectl.store on the flash log (CPython and the unix port): a save writes the keys that changed, a load hands out
a copy, bad input writes nothing; CRC-32 and the meters' state round trip."""
# mp-heap: 96K
from harness.ramblockdev import RamBlockDev, log_frames
from tablectl import crc
from tablectl.storage import F_CKPT, F_END, Log, Refused
from tablectl.store import Store
from mptest import raises


def fresh(d=None):
    d = d or RamBlockDev(block_size=1024, blocks=5)
    return Store(Log(d)), d


def reboot(d):
    return Store(Log(d))


def test_crc32_known_vectors_both_implementations():
    for fn in (crc.crc32, crc.crc32_table):
        assert fn(b"") == 0
        assert fn(b"123456789") == 0xCBF43926  # the CRC-32 check value
        assert fn(b"The quick brown fox jumps over the lazy dog") == 0x414FA339
        assert fn(b"456789", fn(b"123")) == 0xCBF43926  # continued


def test_never_written_loads_none_and_save_round_trips():
    s, d = fresh()
    assert s.load("pool") is None and s.names() == []
    s.save("pool", {"p": 1234, "list": [1, 2], "nested": {"a": None, "b": True}})
    assert reboot(d).load("pool") == {"p": 1234, "list": [1, 2], "nested": {"a": None, "b": True}}
    assert s.writes == 1


def test_a_save_writes_only_the_keys_that_changed_and_all_of_them_when_one_goes():
    s, d = fresh()
    s.save("round", {"state": "idle", "round": 1, "hist": [[1, 2]]})
    s.save("round", {"state": "betting", "round": 1, "hist": [[1, 2]]})
    frames = [f[5] for f in log_frames(d) if f[5] and ("round" in f[5].get("p", {}) or "round" in f[5].get("r", {}))]
    assert frames[-1] == {"p": {"round": {"state": "betting"}}}, frames[-1]
    writes = s.writes
    s.save("round", {"state": "betting", "round": 1, "hist": [[1, 2]]})  # nothing changed: nothing written
    assert s.writes == writes
    s.save("round", {"state": "idle", "round": 2})  # 'hist' went: the whole record
    frames = [f[5] for f in log_frames(d) if f[5] and "round" in f[5].get("r", {})]
    assert frames[-1]["r"]["round"] == {"state": "idle", "round": 2}
    assert reboot(d).load("round") == {"state": "idle", "round": 2}


def test_the_dict_last_saved_and_its_lists_are_refused_and_a_load_is_a_copy():
    s, d = fresh()
    hist = [1]
    rec = {"hist": hist, "n": 1}
    s.save("r", rec)
    assert "new dict" in raises(ValueError, s.save, "r", rec)
    hist.append(2)  # what a controller that kept its list would do: the change would look saved
    assert "object saved last" in raises(ValueError, s.save, "r", {"hist": hist, "n": 2})
    got = s.load("r")
    got["hist"].append(3)
    got["n"] = 9
    assert s.load("r") == {"hist": [1, 2], "n": 1}  # what was committed (the test's own list changed it)
    assert reboot(d).load("r") == {"hist": [1], "n": 1}  # what the flash holds


def test_bad_input_raises_and_writes_nothing():
    s, d = fresh()
    ops = d.ops
    assert "a-z" in raises(ValueError, s.save, "Bad-Name", {})
    assert "1..24" in raises(ValueError, s.save, "", {})
    assert "a dict" in raises(ValueError, s.save, "r", [1, 2])
    assert "float" in raises(ValueError, s.save, "r", {"p": 1.5})  # money is never a float
    assert "not a string" in raises(ValueError, s.save, "r", {1: 2})
    assert "does not fit" in raises(Refused, s.save, "r", {"p": "x" * 1200})
    assert d.ops == ops and s.names() == [] and s.writes == 0


def test_clear_and_names():
    s, d = fresh()
    s.save("b", {"n": 1})
    s.save("a", {"n": 2})
    assert s.names() == ["a", "b"]
    s.clear("b")
    s.clear("nothing")  # clearing what is not there writes nothing
    assert s.names() == ["a"] and reboot(d).names() == ["a"] and reboot(d).load("b") is None
    s.save("b", {"n": "new"})
    assert reboot(d).load("b") == {"n": "new"}


def test_meters_state_round_trips_through_a_record():
    from tablectl.meters import KEEP_HITS, Meters
    s, d = fresh(RamBlockDev(block_size=1024, blocks=5))
    m = Meters()
    m.bet(3)
    for r in range(1, 31):  # 30 hits: only the last 25 are kept, per class counts keep everything
        m.hit(r, 1 + r % 7, "flush" if r % 3 else "royal_flush", 100 * r)
        m.round_done()
    m.void()
    s.save("m", m.state())
    back = Meters.from_state(reboot(d).load("m"))
    assert back.state() == m.state()
    assert (back.rounds, back.voids, back.bets) == (30, 1, 3)
    assert back.hits == {"flush": 20, "royal_flush": 10}
    assert back.amounts["royal_flush"] == 100 * sum(range(3, 31, 3))
    assert len(back.last) == KEEP_HITS == 25
    assert back.last_hits(2) == [(30, 3, "royal_flush", 3000), (29, 2, "flush", 2900)]  # newest first
    report = dict(back.report())
    assert report["hits_flush"] == 20 and report["paid_royal_flush_cents"] == back.amounts["royal_flush"]


def test_meters_refuse_bad_values_and_bad_states():
    from tablectl.meters import Meters
    m = Meters()
    assert "amount" in raises(ValueError, m.hit, 1, 1, "flush", -5)
    assert "2**30" in raises(ValueError, m.hit, 1, 1, "flush", 1 << 30)
    assert "seat" in raises(ValueError, m.hit, 1, "1", "flush", 5)
    assert "class" in raises(ValueError, m.hit, 1, 1, "", 5)
    assert "bets" in raises(ValueError, m.bet, -1)
    assert m.state() == Meters().state()  # nothing counted by the refused calls
    assert "meters state" in raises(ValueError, Meters.from_state, {"r": 1})
    assert "rounds" in raises(ValueError, Meters.from_state, {"r": -1, "v": 0, "b": 0, "h": {}, "a": {}, "l": []})
    assert "hit record" in raises(ValueError, Meters.from_state, {"r": 0, "v": 0, "b": 0, "h": {}, "a": {}, "l": [[1, 2, "x"]]})


def test_a_record_name_is_1_to_24_of_a_z_0_9_and_underscore_each_edge_tried():
    s, d = fresh()
    for ok in ("a", "z", "0", "9", "_", "x" * 24, "a_9"):
        s.save(ok, {"n": 1})
        assert s.load(ok) == {"n": 1}
    for bad in ("", "x" * 25, "`", "{", "/", ":", "A", "Z", "-", "a b", "\u00e9", 7, None):
        assert raises(ValueError, s.save, bad, {"n": 1})
        assert raises(ValueError, s.load, bad) and raises(ValueError, s.clear, bad)
    assert sorted(reboot(d).names()) == sorted(["a", "z", "0", "9", "_", "x" * 24, "a_9"])


def test_writes_counts_each_save_and_clear_that_wrote_a_frame_and_no_other():
    s, d = fresh()
    s.save("r", {"n": 1, "m": {"a": 1}})           # whole: one
    s.save("r", {"n": 2, "m": {"a": 1}})           # a patch: one
    s.save("r", {"n": 2, "m": {"a": 2}})           # a deep patch: one
    s.save("r", {"n": 2, "m": {"a": 2}})           # nothing changed: none
    s.save("r", {"n": 2, "m": {"a": 2}}, full=True)  # whole again: one
    s.clear("r")                                    # one
    s.clear("r")                                    # nothing there: none
    assert s.writes == 5
    assert len([f for f in log_frames(d, payloads=False) if not f[2] & (F_CKPT | F_END)]) == 5  # one frame each


def test_a_float_anywhere_in_a_list_or_tuple_is_refused_money_is_never_a_float():
    s, d = fresh()
    for bad in ([1.5], [1, [2, 0.5]], (1, 2.0), {"a": [{"b": 1.0}]}):
        assert "float" in raises(ValueError, s.save, "r", {"v": bad})
    s.save("r", {"v": [1, 2]})
    assert "float" in raises(ValueError, s.save, "r", {"v": [1, 2.5]})  # a patch is checked too
    assert reboot(d).load("r") == {"v": [1, 2]}


def test_adopt_holds_the_given_object_for_a_record_present_and_creates_none():
    s, d = fresh()
    s.save("config", {"v": {"a": 1}})
    mine = {"v": {"a": 1}}
    writes, ops = s.writes, d.ops
    s.adopt("config", mine)
    assert s.peek("config") is mine and (s.writes, d.ops) == (writes, ops)
    s.adopt("absent", {"v": 1})  # nothing to stand for: nothing made up
    assert s.peek("absent") is None and s.names() == ["config"]


def test_join_and_exists_name_the_folder_the_files_are_in():
    from harness.ramblockdev import remove_dir, scratch_dir
    from tablectl.store import exists, join
    assert join("", "m") == "m" and join(".", "m") == "m"
    assert join("/flash", "m") == "/flash/m" and join("/flash/", "m") == "/flash/m"
    root = scratch_dir("join")
    try:
        with open(join(root, "there"), "w") as f:
            f.write("x")
        assert exists(join(root, "there")) is True
        assert exists(join(root, "not_there")) is False
    finally:
        remove_dir(root)


try:
    from hypothesis import given, settings, strategies as st
except ImportError:  # the unix port: the tests above and test_log's cover it
    pass
else:
    values = st.one_of(st.integers(-(1 << 40), 1 << 40), st.booleans(), st.none(), st.text(max_size=20),
                       st.lists(st.integers(0, 1 << 30), max_size=5))
    records = st.dictionaries(st.text(min_size=1, max_size=6), values, max_size=6)
    ops = st.lists(st.tuples(st.sampled_from(("a", "b", "c")), st.one_of(st.none(), records)), min_size=1,
                   max_size=40)

    @settings(max_examples=80, deadline=None)
    @given(ops)
    def test_any_sequence_of_saves_and_clears_reads_back_after_every_reboot(steps):
        """Saves (None: a clear) of three records on a 5 KB ring that wraps: after each, a boot reads back
        exactly what a dict of the last values says. A save whose records a checkpoint could not hold is
        refused and changes nothing (the ring keeps room to restate them all)."""
        s, d = fresh()
        model = {}
        for name, rec in steps:
            if rec is None:
                s.clear(name)
                model.pop(name, None)
            else:
                try:
                    s.save(name, dict(rec))
                except Refused as e:
                    assert "checkpoint" in str(e) or "does not fit" in str(e), e
                    s = reboot(d)  # what the App does with a refused step: memory back to the flash
                else:
                    model[name] = rec
            back = reboot(d)
            assert dict((n, back.load(n)) for n in back.names()) == model
