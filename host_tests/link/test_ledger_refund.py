"""A void that returns the bets on a linked table (BAC-10, F3-17.1(2)/(3)): the server takes the round's contributions
back out of the link's pool, once, by its own record of them, on both engines (SQLite, PostgreSQL).

No broker here: messages go straight into Ledger.handle through the wire's checks, as the server hands them over.
Every case ends with the meters' balance at 0 (pool + reserve + paid == seeded + contributed).
"""
import pytest

from jackpot import protocol
from jackpot.ledger import ROLLOVER, Ledger, link_view, status
from jackpot.rig import GAME, LINK

F3 = dict(GAME, game="fortune3")  # a game whose void may return the bets (F3-17.1(2)/(3))
SEED = F3["seed_cents"]
TABLES = {"t01": LINK, "t02": LINK}


def ledger(at, cfg=F3):
    return Ledger(at, {LINK: cfg}, TABLES)


def send(led, table, kind, body):
    body = protocol.decode(kind, protocol.encode(body))  # every body goes through the wire's checks
    with led.batch():
        return led.handle(table, kind, body, 1.0)


def contrib(seq, rnd, seats, ep=7, locked=None, cents=2500):
    return {"ep": ep, "seq": seq, "round": rnd, "bets": [[s, cents] for s in seats],
            "locked": sorted(locked or list(seats))}


def refund(seq, rnd, ep=7):
    return {"ep": ep, "seq": seq, "round": rnd}


def view(led):
    v = link_view(led.db, LINK)
    assert v["balance_off"] == 0, v
    return dict((k, v[k]) for k in ("pool", "reserve", "contributed", "paid", "seeded"))


def meter(led, table):
    m = status(led.db)["links"][LINK]["tables"][table]
    return m["contributed"], m["bets"]


def test_a_refund_takes_the_rounds_contribution_out_once_and_a_resend_changes_nothing_F3_17_1_2(ledger_at):
    led = ledger(ledger_at)
    assert send(led, "t01", "contrib", contrib(1, 1, [2, 5]))[0]["cents"] == 1000  # 20% of two 25.00 bets
    send(led, "t02", "contrib", contrib(1, 1, [1]))  # another table's round 1 stays in the pool
    answer, changed, how = send(led, "t01", "refund", refund(2, 1))
    assert (how, changed) == ("new", LINK)
    assert answer == {"seq": 2, "ok": "refund", "cents": 1000, "rounds": [1], "pool": SEED + 500,
                      "ver": led.links[LINK].ver}
    assert view(led) == {"pool": SEED + 500, "reserve": 0, "contributed": 500, "paid": 0, "seeded": SEED}
    assert meter(led, "t01") == (0, 0) and meter(led, "t02") == (500, 1)
    after = view(led)
    # the table resent it (its answer lost): the first answer again, nothing taken twice
    assert send(led, "t01", "refund", refund(2, 1))[:2] == (answer, None)
    # a second refund of the round under a new sequence number: refused, in one line
    again = send(led, "t01", "refund", refund(3, 1))[0]
    assert again["error"] == "refund: round 1 of table t01 was refunded already"
    # nor is the returned round paid, or contributed again
    assert "round 1 of table t01 was refunded already" in send(
        led, "t01", "hit", {"ep": 7, "seq": 4, "round": 1, "hits": [[2, "flush"]]})[0]["error"]
    assert "has its contribution already" in send(led, "t01", "contrib", contrib(5, 1, [2, 5]))[0]["error"]
    assert view(led) == after and meter(led, "t01") == (0, 0)


@pytest.mark.parametrize("case, why", [
    ("never contributed", "refund: round 4 of table t01 contributed nothing"),
    ("another table's", "refund: round 4 of table t01 contributed nothing"),
    ("another epoch's", "refund: round 4 of table t01 contributed nothing"),
    ("paid", "refund: round 4 of table t01 was settled already"),
    ("refused contribution", "refund: round 4 of table t01 contributed nothing"),
])
def test_a_refund_of_a_round_that_is_not_the_tables_to_return_is_refused_in_one_line(ledger_at, case, why):
    led = ledger(ledger_at)
    seq = 1
    if case == "another table's":
        send(led, "t02", "contrib", contrib(1, 4, [1, 2]))
    elif case == "another epoch's":
        send(led, "t01", "contrib", contrib(1, 4, [1, 2], ep=6))
    elif case == "paid":
        send(led, "t01", "contrib", contrib(1, 4, [1, 2]))
        send(led, "t01", "hit", {"ep": 7, "seq": 2, "round": 4, "hits": [[1, "flush"]]})
        seq = 3
    elif case == "refused contribution":
        assert "error" in send(led, "t01", "contrib", contrib(1, 4, [1], cents=10 ** 8))[0]  # above bet_cents
        seq = 2
    before = view(led)
    answer, changed, how = send(led, "t01", "refund", refund(seq, 4))
    assert (answer, changed, how) == ({"seq": seq, "error": why}, None, "new")
    assert view(led) == before
    assert send(led, "t01", "refund", refund(seq, 4))[0] == answer  # refused, not retried: the same answer


def test_caribbean_studs_voids_carry_the_bets_so_its_link_refuses_a_refund_CSP_11_1(ledger_at):
    led = ledger(ledger_at, GAME)
    send(led, "t01", "contrib", contrib(1, 1, [1]))
    before = view(led)
    answer = send(led, "t01", "refund", refund(2, 1))[0]
    assert answer["error"] == "refund: no void of caribbean_stud returns the bets (they are carried, CSP-11.1)"
    assert view(led) == before


def test_a_baccarat_misdeal_is_refunded_on_a_baccarat_link_BAC_10(ledger_at):
    cfg = dict((k, v) for k, v in GAME.items() if not k.startswith("fixed_"))
    cfg.update(game="baccarat_a", fixed_one_pair=1000, fixed_two_pairs=2000, fixed_three_of_a_kind=3000,
               fixed_four_of_a_kind=4000, fixed_paradise_straight=5000)
    led = ledger(ledger_at, cfg)
    send(led, "t01", "contrib", contrib(1, 9, [1, 2, 3]))
    assert send(led, "t01", "refund", refund(2, 9))[0]["cents"] == 1500
    assert view(led)["pool"] == SEED


@pytest.mark.parametrize("later", [(), (2,), (7, 7)])
def test_a_pool_won_between_the_contribution_and_its_refund_never_falls_below_its_seed_F3_15_6(ledger_at, later):
    """t01's round contributed, t02's royal flush took the pool, which restarted from its seed (F3-15.6); more
    bets since (`later`: seats a round). The refund takes what the pool holds above its seed; the rest of the
    contribution was paid out in the award, and the house pays it back: booked as seed money."""
    led = ledger(ledger_at)
    assert send(led, "t01", "contrib", contrib(1, 1, [1, 2, 3, 4, 5, 6, 7]))[0]["cents"] == 3500
    send(led, "t02", "contrib", contrib(1, 1, [1]))
    won = send(led, "t02", "hit", {"ep": 7, "seq": 2, "round": 1, "hits": [[1, "royal_flush"]]})[0]
    assert won["pool"] == SEED
    for i, n in enumerate(later):
        send(led, "t02", "contrib", contrib(3 + i, 2 + i, range(1, n + 1)))
    extra = 500 * sum(later)
    before = view(led)
    assert before["pool"] == SEED + extra
    assert send(led, "t01", "refund", refund(2, 1))[0]["cents"] == 3500
    taken = min(extra, 3500)
    assert view(led) == dict(before, pool=SEED + extra - taken, contributed=before["contributed"] - 3500,
                             seeded=before["seeded"] + 3500 - taken)


def test_a_pool_a_fixed_award_left_below_its_seed_gives_nothing_back_and_the_house_pays_F3_15_6(ledger_at):
    """A four of a kind's fixed 250.00 out of a pool holding less above its seed: the pool falls below the seed
    without restarting (it was not fully paid out, F3-15.6); a refund then takes nothing out of it."""
    led = ledger(ledger_at)
    send(led, "t01", "contrib", contrib(1, 1, [1, 2]))
    send(led, "t02", "contrib", contrib(1, 1, [1]))
    send(led, "t02", "hit", {"ep": 7, "seq": 2, "round": 1, "hits": [[1, "four_of_a_kind"]]})
    before = view(led)
    assert before["pool"] == SEED + 1500 - F3["fixed_four_of_a_kind"]
    send(led, "t01", "refund", refund(2, 1))
    assert view(led) == dict(before, contributed=before["contributed"] - 1000, seeded=before["seeded"] + 1000)


def test_the_part_that_went_to_the_reserve_comes_back_from_the_reserve(ledger_at):
    """The pool at its ceiling: the rest of a contribution goes to the reserve (the rules core), and its refund
    takes each part back from where it went; a reserve spent on a reseed since pays what it still holds."""
    led = ledger(ledger_at, dict(F3, limit_cents=SEED + 700))
    answer = send(led, "t01", "contrib", contrib(1, 1, [1, 2]))[0]
    assert (answer["cents"], answer["to_reserve"], answer["pool"]) == (1000, 300, SEED + 700)
    answer = send(led, "t02", "contrib", contrib(1, 1, [1, 2, 3, 4]))[0]  # 2000 more, all to the reserve
    assert (answer["to_reserve"], view(led)["reserve"]) == (2000, 2300)  # its own part, not the reserve's
    send(led, "t01", "refund", refund(2, 1))
    assert view(led) == {"pool": SEED, "reserve": 2000, "contributed": 2000, "paid": 0, "seeded": SEED}


def test_each_part_goes_back_to_where_it_went_exactly_and_no_money_moves_between_periods(ledger_at):
    """The pool above its seed by more than a split contribution's pool part: the refund takes that part from
    the pool and the reserve part from the reserve, to the cent; with no period closed the closed totals stay
    0 (the pool's own meters hold it all, not only their sum with the closed ones); the pool's version one up."""
    led = ledger(ledger_at, dict(F3, limit_cents=SEED + 1200))
    send(led, "t02", "contrib", contrib(1, 1, [1]))  # 500: the pool at SEED + 500
    answer = send(led, "t01", "contrib", contrib(1, 1, [1, 2]))[0]
    assert (answer["cents"], answer["to_reserve"], answer["pool"]) == (1000, 300, SEED + 1200)  # 700 to the pool
    ver = led.links[LINK].ver
    answer = send(led, "t01", "refund", refund(2, 1))[0]
    assert (answer["cents"], answer["pool"], answer["ver"]) == (1000, SEED + 500, ver + 1)
    assert view(led) == {"pool": SEED + 500, "reserve": 0, "contributed": 500, "paid": 0, "seeded": SEED}
    pool = led.links[LINK].pool
    assert (pool.contributed, pool.paid, pool.seeded) == (500, 0, SEED) and led.links[LINK].closed == [0, 0, 0]
    stored = led.db.execute("SELECT closed_contributed, closed_paid, closed_seeded FROM link WHERE id = ?",
                            (LINK,)).fetchone()
    assert tuple(stored) == (0, 0, 0)


def test_a_reserve_spent_since_pays_what_it_holds_and_the_house_the_rest(ledger_at):
    led = ledger(ledger_at, dict(F3, limit_cents=SEED + 700, seed_cents=SEED))
    send(led, "t01", "contrib", contrib(1, 1, [1, 2]))  # 700 to the pool, 300 to the reserve
    send(led, "t02", "contrib", contrib(1, 1, [1]))     # 500 to the reserve: 800
    send(led, "t02", "hit", {"ep": 7, "seq": 2, "round": 1, "hits": [[1, "royal_flush"]]})  # reseeded: 800 of it
    before = view(led)
    assert (before["pool"], before["reserve"]) == (SEED, 0)
    send(led, "t01", "refund", refund(2, 1))
    assert view(led) == dict(before, contributed=before["contributed"] - 1000, seeded=before["seeded"] + 1000)


def test_a_refund_returns_the_void_rounds_it_carried_and_no_earlier_one_F3_17_3(ledger_at):
    """F3-17.1(1): round 2 void, its progressive bets kept for round 3 (F3-17.3), which adds seat 4; round 3's
    dealer card exposed (F3-17.1(2)) returns every bet: rounds 3 and 2 come out, round 1 (settled) stays."""
    led = ledger(ledger_at)
    send(led, "t01", "contrib", contrib(1, 1, [3]))
    send(led, "t01", "contrib", contrib(2, 2, [3]))
    send(led, "t01", "contrib", contrib(3, 3, [4], locked=[3, 4]))  # seat 3 carried from round 2
    answer = send(led, "t01", "refund", refund(4, 3))[0]
    assert (answer["rounds"], answer["cents"]) == ([3, 2], 1000)
    assert view(led)["contributed"] == 500 and meter(led, "t01") == (500, 1)
    assert "round 2 of table t01 was refunded already" in send(led, "t01", "refund", refund(5, 2))[0]["error"]
    assert send(led, "t01", "refund", refund(6, 1))[0]["rounds"] == [1]  # its own refund, had it been void


@pytest.mark.parametrize("earlier", ["hit", "refund"])
def test_a_round_before_that_was_paid_or_returned_is_not_taken_again_by_a_seat_said_carried(ledger_at, earlier):
    """A table that says seat 3 is carried into round 2 when round 1 was paid (or returned): round 1's
    contribution is not round 2's to return."""
    led = ledger(ledger_at)
    send(led, "t01", "contrib", contrib(1, 1, [3]))
    second = {"ep": 7, "seq": 2, "round": 1, "hits": [[3, "flush"]]} if earlier == "hit" else refund(2, 1)
    assert "ok" in send(led, "t01", earlier, second)[0]
    send(led, "t01", "contrib", contrib(3, 2, [4], locked=[3, 4]))
    before = view(led)
    answer = send(led, "t01", "refund", refund(4, 2))[0]
    assert (answer["rounds"], answer["cents"]) == ([2], 500)
    assert view(led)["contributed"] == before["contributed"] - 500


def test_a_refund_after_the_meters_rolled_over_balances_both_periods(ledger_at):
    """A contribution made before the period closed (2**29 cents) and refunded after: the closed period's
    contributions are that much less, to the cent."""
    bet = 1 << 27
    led = ledger(ledger_at, dict(F3, rate_bp=10000, limit_cents=(1 << 30) - 1, bet_cents=bet))
    for rnd in range(1, 5):
        send(led, "t01", "contrib", contrib(rnd, rnd, [1], cents=bet))
    assert led.links[LINK].pool.contributed == ROLLOVER  # the next message closes the period
    send(led, "t01", "refund", refund(5, 4))
    assert led.links[LINK].closed[0] == ROLLOVER - bet
    assert view(led) == {"pool": SEED + 3 * bet, "reserve": 0, "contributed": 3 * bet, "paid": 0, "seeded": SEED}
    send(led, "t01", "contrib", contrib(6, 5, [1], cents=bet))
    assert view(led)["contributed"] == 4 * bet


@pytest.mark.parametrize("payload, why", [
    (b'{"ep": 7, "seq": 2}', "round must be an integer"),
    (b'{"ep": 7, "seq": 2, "round": "1"}', "round must be an integer"),
    (b'{"ep": 7, "seq": 2, "round": 1.0}', "round must be an integer"),
    (b'{"ep": 7, "seq": 2, "round": true}', "round must be an integer"),
    (b'{"ep": 7, "seq": 2, "round": -1}', "round must be an integer"),
    (b'{"ep": 7, "seq": 2, "round": 4294967296}', "round must be an integer"),
    (b'{"ep": 7, "seq": 2, "round": null}', "round must be an integer"),
    (b'{"ep": 7, "round": 1}', "seq must be an integer"),
    (b'{"ep": 7, "seq": 0, "round": 1}', "seq must be an integer"),
    (b'{"seq": 2, "round": 1}', "ep must be an integer"),
    (b'{"ep": -7, "seq": 2, "round": 1}', "ep must be an integer"),
    (b'[7, 2, 1]', "payload is not a JSON object"),
    (b'{"ep": 7, "seq": 2, "round": 1' + b"9" * 3000 + b"}", "at most 2048"),
    (b'{"ep": 7, "seq": 2, "round": [[[[1]]]]}', "nests deeper"),
])
def test_a_hostile_refund_is_refused_by_the_wire_in_one_line(payload, why):
    with pytest.raises(ValueError, match=why) as e:
        protocol.decode("refund", payload)
    assert "\n" not in str(e.value)
    assert protocol.decode("refund", b'{"ep": 7, "seq": 2, "round": 1, "cents": -99}')["round"] == 1


def test_the_tables_word_on_the_amount_is_not_taken(ledger_at):
    """Whatever else a refund carries (an amount, a table's pool), the ledger's record of the contribution says
    what comes out."""
    led = ledger(ledger_at)
    send(led, "t01", "contrib", contrib(1, 1, [1]))
    answer = send(led, "t01", "refund", dict(refund(2, 1), cents=10 ** 6, pool=0, rounds=[1, 0]))[0]
    assert (answer["cents"], answer["rounds"]) == (500, [1])
    assert view(led)["pool"] == SEED
