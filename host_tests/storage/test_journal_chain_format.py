"""The journal chain's format as a third party's checker would compute it (tools/boardops/journalcheck's docstring):
CHAIN = SHA-256(the previous CHAIN's 32 bytes + "SEQ ROUND EVENT A B TEXT"), checked against hashlib on the
literal text, every field distinct so that none can stand for another; a chain value in an export is 64 hex
digits, anything else refused with one line (CPython and the unix port)."""
# mp-heap: 16K
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
