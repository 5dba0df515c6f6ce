"""Fan-Tan: the result from the dealer's count, the winning and pushing spots, and a win in cents.

    result_from_count(count, broken=0) -> 1..4   FT-3.1, FT-3.2 (none left is 4), FT-5.3 (broken ones not counted)
    SPOTS, PAYS_A[i], PAYS_B[i], KWOK_ANY_ONLY, index(spot_id)   FT-6, FT-7 (kwok_1_3, kwok_2_4: FT-6.1)
    resolve(result) -> (win_indices, push_indices)   precomputed bytes of spot indices, nothing allocated
    win_cents(spot_index, stake_cents) -> the net win after the 5% commission, rounded down (FT-9)
"""
from tablectl import const

from .ids import SpotIds

MAX_STAKE_CENTS = const(357913940)  # (2**30 - 1) // 3 - 1: a 3:1 win stays below 2**30
COMMISSION_PERCENT = const(5)  # FT-9
KWOK_ANY_ONLY = ("kwok_1_3", "kwok_2_4")

# The ids say what each spot is (docs/rulebook.md). FT-6.2.1 fan_N: one number; FT-6.2.2 nim_W_P: W wins,
# P pushes; FT-6.1 "two numbers", Interpretation (docs/regulations): kwok_A_B on the layout's adjacent corners;
# FT-6.2.3 nga_A_B_P: A, B win, P pushes; FT-6.2.4 sam_hong_A_B_C: three numbers; then KWOK_ANY_ONLY,
# FT-6.1 read as any two numbers: only layouts with kwok_pairs=any offer them.
SPOTS = SpotIds(
    " fan_1 fan_2 fan_3 fan_4 nim_1_2 nim_1_3 nim_1_4 nim_2_1 nim_2_3 nim_2_4 nim_3_1 nim_3_2 nim_3_4"
    " nim_4_1 nim_4_2 nim_4_3 kwok_1_2 kwok_2_3 kwok_3_4 kwok_1_4 nga_1_2_3 nga_1_2_4 nga_1_3_2 nga_1_3_4"
    " nga_1_4_2 nga_1_4_3 nga_2_3_1 nga_2_3_4 nga_2_4_1 nga_2_4_3 nga_3_4_1 nga_3_4_2 sam_hong_1_2_3"
    " sam_hong_1_2_4 sam_hong_1_3_4 sam_hong_2_3_4 kwok_1_3 kwok_2_4 ")
# FT-7, spot by spot (a:b before commission): fan 3:1, nim 2:1, kwok 1:1, nga 1:2, sam hong 1:3
PAYS_A = b"\x03\x03\x03\x03\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x01\x01\x01\x01" \
         b"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01"
PAYS_B = b"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" \
         b"\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x03\x03\x03\x03\x01\x01"
# (wins, pushes) of results 1..4 as spot indices; a spot wins on each number of its id, except the last
# number of a nim or nga, which pushes (FT-8). host_tests/rules holds these against rulebook.fantan.
_BY_RESULT = (
    (b"\x00\x04\x05\x06\x10\x13\x14\x15\x16\x17\x18\x19\x20\x21\x22\x24", b"\x07\x0a\x0d\x1a\x1c\x1e"),
    (b"\x01\x07\x08\x09\x10\x11\x14\x15\x1a\x1b\x1c\x1d\x20\x21\x23\x25", b"\x04\x0b\x0e\x16\x18\x1f"),
    (b"\x02\x0a\x0b\x0c\x11\x12\x16\x17\x1a\x1b\x1e\x1f\x20\x22\x23\x24", b"\x05\x08\x0f\x14\x19\x1d"),
    (b"\x03\x0d\x0e\x0f\x12\x13\x18\x19\x1c\x1d\x1e\x1f\x21\x22\x23\x25", b"\x06\x09\x0c\x15\x17\x1b"),
)
index = SPOTS.index  # position of an id in SPOTS; ValueError for an unknown id


def result_from_count(count, broken=0):
    """The round's number from the buttons counted; broken buttons are void (FT-5.3)."""
    if (not isinstance(count, int) or not isinstance(broken, int) or isinstance(count, bool)
            or isinstance(broken, bool) or broken < 0 or count < 0):
        raise ValueError("count and broken are whole numbers >= 0, got %r, %r" % (count, broken))
    valid = count - broken
    if valid < 1:
        # Interpretation: FT-2 puts a heap under the cover; an empty heap is a dealer error, not a 4
        raise ValueError("no whole button left to count (count %d, broken %d)" % (count, broken))
    r = valid & 3  # FT-3.1: four at a time
    return r if r else 4  # FT-3.2


def resolve(result):
    if not isinstance(result, int) or result < 1 or result > 4:
        raise ValueError("a fan-tan result is 1..4, got %r" % (result,))
    return _BY_RESULT[result - 1]


def win_cents(spot_index, stake_cents):
    """Net win of a winning spot: stake * a/b less 5%, rounded down to the cent (FT-7, FT-9)."""
    if not isinstance(spot_index, int) or spot_index < 0 or spot_index >= len(PAYS_A):
        raise ValueError("no fan-tan spot index %r" % (spot_index,))
    if not isinstance(stake_cents, int) or stake_cents < 0 or stake_cents > MAX_STAKE_CENTS:
        raise ValueError("stake must be 0..%d cents, got %r" % (MAX_STAKE_CENTS, stake_cents))
    a = PAYS_A[spot_index]
    den = PAYS_B[spot_index] * 20  # 95/100 = 19/20
    # split the stake so no intermediate product reaches 2**30 (a long int would allocate)
    q = stake_cents // den
    return q * a * 19 + ((stake_cents - q * den) * a * 19) // den
