"""The journal chain's format as a third party's checker would compute it (tools/boardops/journalcheck's docstring):
CHAIN = SHA-256(the previous CHAIN's 32 bytes + "SEQ ROUND EVENT A B TEXT"), and for a stamped entry + "\nTIME EPOCH"
(TIME in seconds, '-' while the clock was not set), checked against hashlib on the literal text, every field
distinct so that none can stand for another; a chain value in an export is 64 hex digits, anything else refused
with one line (CPython and the unix port)."""
# mp-heap: 20K
import hashlib

from mptest import raises
from tablectl import chain


def test_a_chain_value_is_sha256_of_the_previous_value_and_the_entrys_text():
    entry = [11, 22, "hit_claim", 33, 44, "seat 5 royal"]
    assert chain.text(entry) == "11 22 hit_claim 33 44 seat 5 royal"
    first = chain.link(chain.START, entry)
    assert chain.START == bytes(32)
    assert first == hashlib.sha256(bytes(32) + b"11 22 hit_claim 33 44 seat 5 royal").digest()
    second = [12, 22, "pay", 5, 125000, ""]
    assert chain.link(first, second) == hashlib.sha256(first + b"12 22 pay 5 125000 ").digest()
    assert chain.extend(chain.START, [entry, second]) == chain.link(first, second)
    assert chain.extend(first, None) == first


def test_a_chain_value_round_trips_as_64_hex_digits_and_anything_else_is_refused():
    value = chain.link(chain.START, [1, 1, "boot", 0, 0, ""])
    assert len(chain.hexed(value)) == 64 and chain.unhexed(chain.hexed(value)) == value
    for bad in ("abc", "zz" * 32, "00" * 31, "00" * 33, None, 7):
        why = raises(ValueError, chain.unhexed, bad)
        assert why.startswith("not a chain value: "), (bad, why)


# [seq, round, event, a, b, text, time, epoch] as a table stamps them (tablectl.journal: time None while the clock
# is not set, else 0 or more; epoch 1 or more), and the text each is hashed as: written out here, not made
# with chain.text, since the board and journalcheck share that function and agree with any change of it
STAMPED = [
    ([11, 22, "hit_claim", 33, 44, "seat 5 royal", 849515400, 3],  # 2026-12-02T08:30:00Z
     "11 22 hit_claim 33 44 seat 5 royal\n849515400 3"),
    ([12, 22, "pay", 5, 125000, "", None, 3], "12 22 pay 5 125000 \n- 3"),
    ([13, 1, "boot", 0, 0, "x", 0, 1], "13 1 boot 0 0 x\n0 1"),  # time 0 (2000-01-01): a time, not '-'
    ([14, 2, "result", 6, 7, "b", 3155759999, 2147483647],  # 2099-12-31T23:59:59Z, the last a table sets
     "14 2 result 6 7 b\n3155759999 2147483647"),
    ([15, 9, "ram_cleared", 8, 4, "", 1, 4], "15 9 ram_cleared 8 4 \n1 4"),
]


def test_a_stamped_entry_is_hashed_with_a_second_line_of_its_time_and_epoch():
    for entry, want in STAMPED:
        assert chain.text(entry) == want, entry
        assert chain.link(chain.START, entry) == hashlib.sha256(bytes(32) + want.encode()).digest(), entry


def test_bare_and_stamped_entries_chain_one_after_the_other_as_hashlib_does_on_their_texts():
    bare = ([10, 21, "old", 1, 2, "before the upgrade"], "10 21 old 1 2 before the upgrade")
    entries = [bare] + STAMPED + [bare]
    value = bytes(32)
    for entry, want in entries:
        value = hashlib.sha256(value + want.encode()).digest()
    assert chain.extend(chain.START, [e for e, _ in entries]) == value
