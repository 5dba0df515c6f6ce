"""Fan-Tan: the result from the dealer's count, the winning and pushing spots, and a win in cents.

    result_from_count(count, broken=0) -> 1..4   buttons left when the heap is split four at a time
                                                 (FT-3.1), none left is 4 (FT-3.2), broken buttons
                                                 do not count (FT-5.3)
    SPOTS                 tuple of spot ids (spec/games.md): fan_N, nim_W_P, kwok_A_B, nga_A_B_P,
                          sam_hong_A_B_C, then kwok_1_3 and kwok_2_4, which only a layout with the
                          house option kwok_pairs=any offers (FT-6.1 Interpretation: adjacent pairs)
    PAYS_A[i], PAYS_B[i]  spot i pays a:b before commission (FT-7)
    KWOK_ANY_ONLY         those two ids
    index(spot_id)        position in SPOTS
    resolve(result) -> (win_indices, push_indices)   precomputed tuples, nothing allocated
    win_cents(spot_index, stake_cents) -> net win in cents after the 5% commission (FT-9)

Commission rule (FT-9: the house takes 5% of the pay): the exact net win is stake * a/b * 95/100;
it is rounded DOWN to the cent, so the player never receives more than the regulation's amount and
the house never keeps a whole cent more than 5%. Stakes are 0..MAX_STAKE_CENTS so that every amount
stays below 2**30 (small ints on a board: the arithmetic never allocates).
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

MAX_STAKE_CENTS = const(357913940)  # (2**30 - 1) // 3 - 1: a 3:1 win stays below 2**30
COMMISSION_PERCENT = const(5)  # FT-9
KWOK_ANY_ONLY = ("kwok_1_3", "kwok_2_4")

# The ids say what each spot is (spec/games.md); the tables below are derived from them at import.
SPOTS = (
    "fan_1", "fan_2", "fan_3", "fan_4",  # FT-6.2.1: one number
    "nim_1_2", "nim_1_3", "nim_1_4", "nim_2_1", "nim_2_3", "nim_2_4",  # FT-6.2.2: W wins, P pushes
    "nim_3_1", "nim_3_2", "nim_3_4", "nim_4_1", "nim_4_2", "nim_4_3",
    # FT-6.1 "two numbers"; Interpretation (games.md): the layout's adjacent corners
    "kwok_1_2", "kwok_2_3", "kwok_3_4", "kwok_1_4",
    "nga_1_2_3", "nga_1_2_4", "nga_1_3_2", "nga_1_3_4", "nga_1_4_2", "nga_1_4_3",  # FT-6.2.3: A, B win,
    "nga_2_3_1", "nga_2_3_4", "nga_2_4_1", "nga_2_4_3", "nga_3_4_1", "nga_3_4_2",  # P pushes
    "sam_hong_1_2_3", "sam_hong_1_2_4", "sam_hong_1_3_4", "sam_hong_2_3_4",  # FT-6.2.4: three numbers
) + KWOK_ANY_ONLY  # FT-6.1 read as any two numbers: only layouts with kwok_pairs=any offer these
_PAYS = {"fan": (3, 1), "nim": (2, 1), "kwok": (1, 1), "nga": (1, 2), "sam": (1, 3)}  # FT-7


def _derive():
    pays_a, pays_b = bytearray(), bytearray()
    wins = [[], [], [], []]
    pushes = [[], [], [], []]
    for i in range(len(SPOTS)):
        parts = SPOTS[i].split("_")
        a, b = _PAYS[parts[0]]
        pays_a.append(a)
        pays_b.append(b)
        numbers = [int(p) for p in parts if p.isdigit()]
        if parts[0] in ("nim", "nga"):  # the last number pushes (FT-8: the stake is returned)
            pushes[numbers.pop() - 1].append(i)
        for n in numbers:
            wins[n - 1].append(i)
    by_result = tuple((tuple(wins[r]), tuple(pushes[r])) for r in range(4))
    return bytes(pays_a), bytes(pays_b), by_result


PAYS_A, PAYS_B, _BY_RESULT = _derive()
del _derive, _PAYS  # needed once, at import


def index(spot_id):
    try:
        return SPOTS.index(spot_id)
    except ValueError:
        raise ValueError("no fan-tan spot %r" % (spot_id,))


def _is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def result_from_count(count, broken=0):
    """The round's number from the buttons counted; broken buttons are void (FT-5.3)."""
    if not _is_int(count) or not _is_int(broken) or broken < 0 or count < 0:
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
