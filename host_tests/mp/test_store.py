"""tablectl.store on a plain folder (CPython and the unix port): generations, CRC, newest valid wins, Tilt."""
# mp-heap: 76K
import os

from ramblockdev import remove_dir, scratch_dir
from tablectl import store
from tablectl.store import Store, Tilt
from mptest import raises


def files(root):
    return sorted(os.listdir(root))


def read(path):
    with open(path, "rb") as f:
        return f.read()


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def test_crc32_known_vectors_both_implementations():
    # the CRC-32 check value of "123456789" (IEEE 802.3, as zlib) and of the empty string
    for fn in (store.crc32, store.crc32_table):
        assert fn(b"123456789") == 0xCBF43926
        assert fn(b"") == 0
        assert fn(b"The quick brown fox jumps over the lazy dog") == 0x414FA339
        assert fn(b"6789", fn(b"12345")) == 0xCBF43926  # continues across chunks


def test_never_written_loads_none_and_save_round_trips():
    root = scratch_dir()
    try:
        s = Store(root)
        assert s.load("pool") is None
        rec = {"pool": 123456, "bets": [1, 0, 3], "label": "royal", "on": True, "none": None}
        assert s.save("pool", rec) == 1
        assert s.load("pool") == rec
        assert Store(root).load("pool") == rec  # a fresh Store (after a reboot) reads it back
        assert s.writes == 1
    finally:
        remove_dir(root)


def test_generations_alternate_and_newest_wins():
    root = scratch_dir()
    try:
        s = Store(root)
        for i in range(1, 6):
            assert s.save("m", {"i": i}) == i
        assert files(root) == ["m.0", "m.1"]  # two generations, no temporary left
        assert read(root + "/m.1").startswith(b"5 ")  # seq 5 in slot 1, seq 4 in slot 0
        assert read(root + "/m.0").startswith(b"4 ")
        assert s.load("m") == {"i": 5}
        s2 = Store(root)  # the sequence continues after a reboot
        assert s2.save("m", {"i": 6}) == 6
        assert Store(root).load("m") == {"i": 6}
        assert s.writes == 5 and s2.writes == 1
    finally:
        remove_dir(root)


def test_a_saved_file_is_byte_for_byte_encode():
    # On MicroPython a save runs json.dump twice, for the CRC and into the file, never holding the text
    # whole; the bytes must be exactly the format's: short and long records, text beyond ASCII
    root = scratch_dir()
    try:
        s = Store(root)
        records = [{}, {"p": 1}, {"t": "x" * 1000, "n": [1, [2, [3]]], "b": False},
                   {"label": "\u838a \u9592 \u2265", "none": None}]
        for i, rec in enumerate(records):
            seq = s.save("rec", rec)
            assert seq == i + 1
            assert read("%s/rec.%d" % (root, seq & 1)) == store.encode("rec", seq, rec)
            assert Store(root).load("rec") == rec
    finally:
        remove_dir(root)


def test_decode_says_what_is_wrong_with_a_copy():
    good = store.encode("pool", 12, {"p": 5})
    assert store.decode("pool", good) == (12, {"p": 5})
    cases = [
        (good[:-1], "truncated"),
        (b"", "truncated"),
        (b"12x " + good[3:], "bad header"),  # the sequence number is not digits
        (b" " + good, "bad header"),
        (good[:3] + b"0000zzzz" + good[11:], "bad header"),  # the CRC is not hex
        (good[:3] + b"0000abc " + good[11:], "bad header"),  # the CRC is 7 digits
        (good.replace(b'"p"', b'"q"'), "bad CRC"),
        (store.encode("pool", 12, {"p": 5})[:-2] + b",\n", "bad CRC"),
        (store.encode("other", 12, {"p": 5}), "bad CRC"),  # the name is under the CRC
    ]
    for raw, why in cases:
        assert raises(ValueError, store.decode, "pool", raw) == why, (raw, why)
    # a valid CRC over text that is not a JSON object: only a faulty writer makes these
    header = ("3 %08x " % store.crc32(b"pool 3 [1, 2]")).encode()
    assert raises(ValueError, store.decode, "pool", header + b"[1, 2]\n") == "not an object"
    header = ("3 %08x " % store.crc32(b"pool 3 {\"a\": ")).encode()
    assert raises(ValueError, store.decode, "pool", header + b"{\"a\": \n") == "bad JSON"


def corrupt(path):
    data = bytearray(read(path))
    data[len(data) - 3] ^= 0x01  # one bit inside the JSON
    write(path, bytes(data))


def test_corrupt_newest_falls_back_to_older_generation():
    root = scratch_dir()
    try:
        s = Store(root)
        s.save("pool", {"p": 100})
        s.save("pool", {"p": 200})  # seq 2 in pool.0
        corrupt(root + "/pool.0")
        assert Store(root).load("pool") == {"p": 100}
        # the next save replaces the corrupt copy, never the good one
        s2 = Store(root)
        assert s2.load("pool") == {"p": 100}
        assert s2.save("pool", {"p": 300}) == 2
        assert read(root + "/pool.1").startswith(b"1 ")
        assert Store(root).load("pool") == {"p": 300}
    finally:
        remove_dir(root)


def test_no_valid_copy_tilts_with_record_and_reasons():
    root = scratch_dir()
    try:
        s = Store(root)
        s.save("pool", {"p": 1})
        s.save("pool", {"p": 2})
        corrupt(root + "/pool.0")
        write(root + "/pool.1", read(root + "/pool.1")[:-5])  # torn: no final newline
        msg = raises(Tilt, Store(root).load, "pool")
        assert "pool" in msg and "pool.0: bad CRC" in msg and "pool.1: truncated" in msg, msg
        write(root + "/pool.0", b"garbage\n")
        os.remove(root + "/pool.1")
        msg = raises(Tilt, Store(root).load, "pool")
        assert "pool.0: bad header" in msg and "pool.1: missing" in msg, msg
    finally:
        remove_dir(root)


def test_record_copied_under_another_name_is_rejected():
    # the CRC covers the record name: a file copied onto another record is not accepted
    root = scratch_dir()
    try:
        s = Store(root)
        s.save("pool", {"p": 5})
        write(root + "/meters.1", read(root + "/pool.1"))
        assert "bad CRC" in raises(Tilt, s.load, "meters")
    finally:
        remove_dir(root)


def test_leftover_temporary_is_ignored_and_replaced():
    # a cut between writing NAME.tmp and the rename: the save did not happen
    root = scratch_dir()
    try:
        s = Store(root)
        s.save("r", {"x": 1})
        write(root + "/r.tmp", b"2 00000000 {\"x\": 2")
        assert Store(root).load("r") == {"x": 1}
        write(root + "/q.tmp", b"half")
        assert Store(root).load("q") is None  # never completed: never written
        s.save("r", {"x": 3})
        assert Store(root).load("r") == {"x": 3}
    finally:
        remove_dir(root)


def test_bad_input_raises_and_writes_nothing():
    root = scratch_dir()
    try:
        s = Store(root)
        s.save("ok", {"a": 1})
        before = files(root)
        assert "dict" in raises(ValueError, s.save, "ok", [1, 2])
        assert "float" in raises(ValueError, s.save, "ok", {"a": 1.5})  # money is never a float
        assert "object" in raises(ValueError, s.save, "ok", {"a": [object()]})
        assert "key" in raises(ValueError, s.save, "ok", {1: 2})
        assert "a-z" in raises(ValueError, s.save, "Bad-Name", {"a": 1})
        assert "1..24" in raises(ValueError, s.save, "", {"a": 1})
        assert "1..24" in raises(ValueError, s.load, "x" * 25)
        assert files(root) == before and s.writes == 1
        assert s.load("ok") == {"a": 1}
    finally:
        remove_dir(root)


def test_clear_and_names():
    root = scratch_dir()
    try:
        s = Store(root)
        for name in ("pool", "meters", "config"):
            s.save(name, {"n": name})
            s.save(name, {"n": name + "2"})
        assert s.names() == ["config", "meters", "pool"]
        s.clear("pool")
        assert s.load("pool") is None and s.names() == ["config", "meters"]
        assert s.save("pool", {"n": "new"}) == 1  # a cleared record starts a new sequence
        assert s.load("meters") == {"n": "meters2"}
    finally:
        remove_dir(root)


def test_meters_state_round_trips_through_a_record():
    from tablectl.meters import KEEP_HITS, Meters
    root = scratch_dir()
    try:
        m = Meters()
        m.bet(3)
        for r in range(1, 31):  # 30 hits: only the last 25 are kept, per class counts keep everything
            m.hit(r, 1 + r % 7, "flush" if r % 3 else "royal_flush", 100 * r)
            m.round_done()
        m.void()
        Store(root).save("m", m.state())
        back = Meters.from_state(Store(root).load("m"))
        assert back.state() == m.state()
        assert (back.rounds, back.voids, back.bets) == (30, 1, 3)
        assert back.hits == {"flush": 20, "royal_flush": 10}
        assert back.amounts["royal_flush"] == 100 * sum(range(3, 31, 3))
        assert len(back.last) == KEEP_HITS == 25
        assert back.last_hits(2) == [(30, 3, "royal_flush", 3000), (29, 2, "flush", 2900)]  # newest first
        report = dict(back.report())
        assert report["hits_flush"] == 20 and report["paid_royal_flush_cents"] == back.amounts["royal_flush"]
    finally:
        remove_dir(root)


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


def check_generations(saves, damage_new, damage_old):
    """Save `saves` values, damage the newest and/or older generation file (0 intact, 1 a flipped bit,
    2 cut short, 3 deleted), then load: the newest intact generation, None, or Tilt -- the model is
    written from the rules of docs/storage.md, not from the code."""
    root = scratch_dir("pg")
    try:
        s = Store(root)
        for i in range(saves):
            s.save("r", {"i": i, "pad": "x" * (i % 5)})
        newest = saves
        files_seq = {}
        for seq in (newest, newest - 1):
            if seq >= 1:
                files_seq[seq] = root + "/r.%d" % (seq & 1)
        for seq, how in ((newest, damage_new), (newest - 1, damage_old)):
            path = files_seq.get(seq)
            if path is None or how == 0:
                continue
            if how == 3:
                os.remove(path)
            else:
                data = bytearray(read(path))
                if how == 1:
                    data[len(data) // 2] ^= 0x04
                else:
                    data = data[:len(data) - 2]
                write(path, bytes(data))
        intact = [seq for seq, how in ((newest, damage_new), (newest - 1, damage_old))
                  if seq in files_seq and how == 0]
        present = [seq for seq, how in ((newest, damage_new), (newest - 1, damage_old))
                   if seq in files_seq and how != 3]
        if intact:
            assert Store(root).load("r")["i"] == max(intact) - 1
        elif present:
            raises(Tilt, Store(root).load, "r")
        else:
            assert Store(root).load("r") is None
    finally:
        remove_dir(root)


def test_newest_valid_generation_wins_every_damage_case():
    # exhaustive over the damage of each generation, for one and for several saves
    for saves in (1, 2, 3, 6):
        for damage_new in range(4):
            for damage_old in range(4):
                check_generations(saves, damage_new, damage_old)


try:
    from hypothesis import given, settings, strategies as st
except ImportError:  # the unix port: the exhaustive test above covers it
    pass
else:
    @settings(max_examples=60, deadline=None)
    @given(st.lists(st.dictionaries(st.text(min_size=1, max_size=6),
                                    st.one_of(st.integers(-(1 << 40), 1 << 40), st.booleans(), st.none(),
                                              st.text(max_size=20), st.lists(st.integers(0, 1 << 30), max_size=5)),
                                    max_size=6), min_size=1, max_size=8))
    def test_any_json_record_round_trips_and_the_last_save_wins(records):
        root = scratch_dir("hy")
        try:
            s = Store(root)
            for rec in records:
                s.save("r", rec)
                assert Store(root).load("r") == rec
            assert Store(root).load("r") == records[-1]
        finally:
            remove_dir(root)
