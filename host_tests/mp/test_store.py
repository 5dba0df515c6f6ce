"""tablectl.store on a plain folder (CPython and the unix port): generations, CRC, newest valid wins, Tilt."""
import os

from ramblockdev import remove_dir, scratch_dir
from tablectl import store
from tablectl.store import Store, Tilt


def raises(exc, fn, *args, **kw):
    try:
        fn(*args, **kw)
    except exc as e:
        return str(e)
    raise AssertionError("%s not raised" % exc.__name__)


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
