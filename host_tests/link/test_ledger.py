"""The jackpot server's ledger, on both engines (SQLite, PostgreSQL): exactly once, sequence order, hits by the rules core, pending awards, restarts, rollover.

No broker here: messages go straight into Ledger.handle, as the server hands them over. The expected
pools come from the rules core's Pool fed by hand, and from the rulebook for the award arithmetic.
"""
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from jackpot import protocol
from jackpot.ledger import ROLLOVER, Ledger, LedgerError, link_view, status
from jackpot.rig import GAME as CFG, LINK  # the rig's link and amounts: shared, so only read here
from tablectl import config as tcfg
from tablectl.rules import awards, pool as core_pool

TABLES = {"t01": LINK, "t02": LINK}


def ledger(at, cfg=CFG, tables=TABLES):
    return Ledger(at, {LINK: cfg}, tables)


def send(led, table, kind, body, now=1.0):
    body = protocol.decode(kind, protocol.encode(body))  # every body goes through the wire's checks
    with led.batch():
        return led.handle(table, kind, body, now)


def contrib(seq, rnd, bets, ep=7, locked=None):
    return {"ep": ep, "seq": seq, "round": rnd, "bets": [[s, c] for s, c in bets],
            "locked": sorted(locked or [s for s, _ in bets])}


def balance(led):
    view = link_view(led.db, LINK)
    return view["pool"] + view["reserve"] + view["paid"] - view["seeded"] - view["contributed"]


def test_contribution_counts_once_and_a_duplicate_gets_its_first_answer(ledger_at):
    led = ledger(ledger_at)
    first, changed, how = send(led, "t01", "contrib", contrib(1, 1, [(2, 2500), (5, 2500)]))
    assert (how, changed, first["ok"], first["cents"]) == ("new", LINK, "contrib", 1000)  # 20% of two 25.00 bets
    assert first["pool"] == 500000 + 1000
    again, changed, how = send(led, "t01", "contrib", contrib(1, 1, [(2, 2500), (5, 2500)]))
    assert (how, changed, again) == ("duplicate", None, first)
    view = link_view(led.db, LINK)
    assert (view["pool"], view["contributed"]) == (501000, 1000)
    assert status(led.db)["links"][LINK]["tables"]["t01"]["duplicates"] == 1


def test_a_message_after_a_gap_waits_for_the_gap(ledger_at):
    led = ledger(ledger_at)
    answer, changed, how = send(led, "t01", "contrib", contrib(2, 2, [(1, 2500)]))
    assert (answer, changed, how) == (None, None, "early")
    assert link_view(led.db, LINK)["contributed"] == 0
    assert send(led, "t01", "contrib", contrib(1, 1, [(1, 2500)]))[2] == "new"
    assert send(led, "t01", "contrib", contrib(2, 2, [(1, 2500)]))[2] == "new"
    assert link_view(led.db, LINK)["contributed"] == 1000


def test_epochs_and_tables_are_separate_sequences(ledger_at):
    led = ledger(ledger_at)
    assert send(led, "t01", "contrib", contrib(1, 1, [(1, 2500)], ep=1))[2] == "new"
    assert send(led, "t01", "contrib", contrib(1, 1, [(1, 2500)], ep=2))[2] == "new"  # records cleared: a new epoch
    assert send(led, "t02", "contrib", contrib(1, 1, [(1, 2500)], ep=1))[2] == "new"
    assert link_view(led.db, LINK)["contributed"] == 1500


def test_contribution_carries_the_fraction_of_a_cent_as_the_core_does(ledger_at):
    led = ledger(ledger_at, dict(CFG, rate_bp=1234, bet_cents=100000))
    ref = core_pool.Pool(**tcfg.pool_params(tcfg.validate(dict(CFG, rate_bp=1234))))
    rng = random.Random(3)
    for seq in range(1, 60):
        bets = [(s, rng.randrange(1, 100001)) for s in rng.sample(range(1, 8), rng.randint(1, 7))]
        answer = send(led, rng.choice(["t01"]), "contrib", contrib(seq, seq, bets))[0]
        assert answer["cents"] == sum(ref.contribute(c) for _, c in bets)
    assert link_view(led.db, LINK)["pool"] == ref.pool


def test_hit_is_settled_by_the_core_in_the_regulations_order_CSP_10_7(ledger_at):
    """A straight flush and a royal in one round: the straight flush first, 10% of the pool, then the royal
    takes what is left (CSP-10.7), as the rulebook's settle says."""
    from rulebook import progressive as rb
    led = ledger(ledger_at)
    send(led, "t01", "contrib", contrib(1, 1, [(s, 2500) for s in range(1, 8)]))
    pool_before = link_view(led.db, LINK)["pool"]
    answer, _, _ = send(led, "t01", "hit", {"ep": 7, "seq": 2, "round": 1, "hits": [[2, "royal_flush"], [4, "straight_flush"]]})
    assert answer["ok"] == "hit"
    fixed = dict((k[6:], v) for k, v in CFG.items() if k.startswith("fixed_"))
    payouts, pool_after = rb.settle("caribbean_stud", [(2, "royal_flush"), (4, "straight_flush")], pool_before,
                                    CFG["seed_cents"], fixed)
    assert [tuple(a) for a in answer["awards"]] == payouts
    assert payouts[0] == (4, "straight_flush", max(250000, pool_before // 10))
    assert answer["pool"] == link_view(led.db, LINK)["pool"] == pool_after
    assert balance(led) == 0
    # a top award waits for its payment: every other table shows JACKPOT PENDING until then
    view = link_view(led.db, LINK)
    assert [(p["table"], p["seat"], p["class"]) for p in view["pending"]] == [("t01", 2, "royal_flush")]
    paid = send(led, "t01", "paid", {"ep": 7, "seq": 3, "claim": 2})[0]
    assert paid == {"seq": 3, "ok": "paid"}
    assert link_view(led.db, LINK)["pending"] == []


@pytest.mark.parametrize("hits, why", [
    ([[3, "flush"]], "seat 3 locked no bet"),
    ([[1, "two_pairs"]], "has no class 'two_pairs'"),
])
def test_a_hit_the_server_cannot_pay_is_refused_with_one_line_and_changes_nothing(ledger_at, hits, why):
    led = ledger(ledger_at)
    send(led, "t01", "contrib", contrib(1, 1, [(1, 2500)]))
    before = link_view(led.db, LINK)
    answer, changed, how = send(led, "t01", "hit", {"ep": 7, "seq": 2, "round": 1, "hits": hits})
    assert how == "new" and changed is None and why in answer["error"] and "\n" not in answer["error"]
    assert link_view(led.db, LINK) == before
    # refused, not retried: the same message again gets the same refusal
    assert send(led, "t01", "hit", {"ep": 7, "seq": 2, "round": 1, "hits": hits})[0] == answer


def test_a_round_is_settled_once_and_a_hit_needs_a_locked_round(ledger_at):
    led = ledger(ledger_at)
    assert "locked no bets in round 4" in send(led, "t01", "hit", {"ep": 7, "seq": 1, "round": 4, "hits": [[1, "flush"]]})[0]["error"]
    send(led, "t01", "contrib", contrib(2, 5, [(1, 2500)]))
    assert send(led, "t01", "hit", {"ep": 7, "seq": 3, "round": 5, "hits": [[1, "flush"]]})[0]["ok"] == "hit"
    assert "settled already" in send(led, "t01", "hit", {"ep": 7, "seq": 4, "round": 5, "hits": [[1, "flush"]]})[0]["error"]


def test_a_carried_seat_may_hit_without_a_new_bet(ledger_at):
    """CSP-11.1: a void round's bet is locked again without contributing again; `locked` names it."""
    led = ledger(ledger_at)
    send(led, "t01", "contrib", contrib(1, 1, [(3, 2500)]))
    send(led, "t01", "contrib", contrib(2, 2, [], locked=[3]))
    assert link_view(led.db, LINK)["contributed"] == 500
    assert send(led, "t01", "hit", {"ep": 7, "seq": 3, "round": 2, "hits": [[3, "flush"]]})[0]["ok"] == "hit"


def test_a_table_on_no_link_is_answered_with_an_error(ledger_at):
    led = ledger(ledger_at)
    answer, changed, how = send(led, "t09", "contrib", contrib(1, 1, [(1, 2500)]))
    assert "t09 is on no link" in answer["error"] and changed is None


def test_the_ledger_resumes_after_a_restart_and_refuses_other_parameters(ledger_at):
    led = ledger(ledger_at)
    send(led, "t01", "contrib", contrib(1, 1, [(1, 2500)]))
    send(led, "t01", "contrib", contrib(2, 2, [(1, 2500)]))
    view = link_view(led.db, LINK)
    led.db.close()
    led = ledger(ledger_at)  # the server restarted
    assert link_view(led.db, LINK) == view
    assert send(led, "t01", "contrib", contrib(2, 2, [(1, 2500)]))[2] == "duplicate"
    assert send(led, "t01", "contrib", contrib(3, 3, [(1, 2500)]))[2] == "new"
    led.db.close()
    with pytest.raises(LedgerError, match="rate_bp 2000 -> 1500"):
        ledger(ledger_at, dict(CFG, rate_bp=1500))


def test_a_failed_batch_leaves_memory_as_the_disk_has_it(ledger_at):
    led = ledger(ledger_at)
    send(led, "t01", "contrib", contrib(1, 1, [(1, 2500)]))
    with pytest.raises(RuntimeError):
        with led.batch():
            led.handle("t01", "contrib", contrib(2, 2, [(1, 2500)]), 1.0)
            raise RuntimeError("the disk failed before the commit")
    assert led.links[LINK].pool.contributed == 500
    assert send(led, "t01", "contrib", contrib(2, 2, [(1, 2500)]))[2] == "new"


def test_a_batch_stopped_after_its_session_was_lost_unseen_raises_its_own_error_and_memory_is_the_ledgers(pg_node):
    """PostgreSQL (SQLite's file cannot be lost under its connection): the session dropped while a batch is
    open (a server restart, pg_terminate_backend), nothing having told the client yet, and the batch stopped
    by something else (the server's task cancelled): its ROLLBACK meets the loss; what comes out is the
    batch's own error, memory is the ledger's again, and the next batch reconnects."""
    pg_node.sql("DROP TABLE IF EXISTS link, message, tablemeter", "ledger")
    led = ledger(pg_node.uri("ledger"))
    send(led, "t01", "contrib", contrib(1, 1, [(1, 2500)]))
    with pytest.raises(RuntimeError, match="the task stopped"):
        with led.batch():
            led.handle("t01", "contrib", contrib(2, 2, [(1, 2500)]), 1.0)
            pid = led.db.execute("SELECT pg_backend_pid()").fetchone()[0]
            assert pg_node.sql("SELECT pg_terminate_backend(%d)" % pid) == [(True,)]
            raise RuntimeError("the task stopped")
    assert (led.links[LINK].pool.contributed, led.links[LINK].ver) == (500, 1)
    assert send(led, "t01", "contrib", contrib(2, 2, [(1, 2500)]))[2] == "new"
    assert link_view(led.db, LINK)["contributed"] == 1000


def test_a_link_must_be_a_progressive_game_with_a_valid_configuration(ledger_at):
    with pytest.raises(LedgerError, match="a link is a progressive game"):
        ledger(ledger_at, {"game": "sicbo"})
    with pytest.raises(LedgerError, match="rate_bp"):
        ledger(ledger_at, dict(CFG, rate_bp=0))


def test_meters_roll_over_into_closed_totals_and_the_balance_holds(ledger_at):
    """A link outlives the core's 2**30-cent meters: past 2**29 the period closes, to the cent. Rounds of
    a large bet and a royal flush each: contributions and awards both pass 2**30 cents in all."""
    led = ledger(ledger_at, dict(CFG, rate_bp=10000, limit_cents=(1 << 30) - 1, bet_cents=1 << 27))
    bet = 1 << 27
    seq = contributed = awarded = 0
    for rnd in range(1, 13):
        seq += 1
        answer = send(led, "t01", "contrib", contrib(seq, rnd, [(1, bet)]))[0]
        contributed += answer["cents"]
        seq += 1
        answer = send(led, "t01", "hit", {"ep": 7, "seq": seq, "round": rnd, "hits": [[1, "royal_flush"]]})[0]
        awarded += answer["awards"][0][2]
        assert balance(led) == 0
        assert max(led.links[LINK].pool.contributed, led.links[LINK].pool.paid) < ROLLOVER + 2 * bet
    view = link_view(led.db, LINK)
    assert (view["contributed"], view["paid"]) == (contributed, awarded) == (12 * bet, awarded)
    assert awarded > 1 << 30 and led.links[LINK].closed[0] > 0  # at least one period was closed
    led.db.close()
    assert link_view(ledger(ledger_at, dict(CFG, rate_bp=10000, limit_cents=(1 << 30) - 1, bet_cents=1 << 27)).db, LINK) == view


def test_two_ledgers_on_one_store_take_the_same_messages_and_count_each_once(ledger_at):
    """Two servers' ledgers on one SQLite file or PostgreSQL database, each handed every message (either
    first, or only one of them): the pool is the core's fed each message once, whichever applied it."""
    one, two = ledger(ledger_at), ledger(ledger_at)
    ref = core_pool.Pool(**tcfg.pool_params(tcfg.validate(CFG)))
    rng = random.Random(25)
    answers = {}
    for seq in range(1, 41):
        for t in ("t01", "t02"):
            bets = [(s, rng.randint(1, 2500)) for s in rng.sample(range(1, 8), rng.randint(1, 3))]
            body = contrib(seq, seq, bets)
            order = rng.choice([(one, two), (two, one), (one,), (two,)])
            got = [send(led, t, "contrib", body) for led in order]
            assert [how for _, _, how in got] == ["new", "duplicate"][:len(order)]
            assert all(answer == got[0][0] for answer, _, _ in got)
            answers[(t, seq)] = got[0][0]
            for c in bets:
                ref.contribute(c[1])
    for led in (one, two):
        with led.batch():
            pass  # a batch rereads the pool the other changed
        assert led.links[LINK].pool.state() == ref.state()
    view = link_view(one.db, LINK)
    assert view["contributed"] == sum(a["cents"] for a in answers.values()) == ref.contributed
    assert balance(one) == 0


@pytest.mark.parametrize("target, why", [
    ("postgresql://jackpot:s3cret@127.0.0.1:1,127.0.0.1:2/ledger", "Connection refused"),
    ("/nonexistent-folder/ledger.db", "unable to open database file"),
])
def test_a_ledger_that_cannot_be_opened_is_one_line_without_its_password(free_port_pair, target, why):
    with pytest.raises(ValueError) as e:
        Ledger(target.replace(":1,", ":%d," % free_port_pair[0]).replace(":2/", ":%d/" % free_port_pair[1]),
               {LINK: CFG}, TABLES)
    text = str(e.value)
    assert text.startswith("ledger ") and why in text and "\n" not in text and "s3cret" not in text
    assert "jackpot:***@" in text or target.endswith(".db")


@pytest.fixture
def free_port_pair():
    from jackpot.broker import free_port
    return free_port(), free_port()


def test_beat_and_bad_messages_are_checked_by_the_protocol():
    with pytest.raises(ValueError, match="payload is not JSON"):
        protocol.decode("contrib", b"\xff{")
    with pytest.raises(ValueError, match="seat must be 1..9"):
        protocol.decode("contrib", protocol.encode(contrib(1, 1, [(12, 2500)])))
    with pytest.raises(ValueError, match="seat 2 bets twice"):
        protocol.decode("contrib", protocol.encode(contrib(1, 1, [(2, 2500), (2, 100)])))
    with pytest.raises(ValueError, match="not in locked"):
        protocol.decode("contrib", protocol.encode(contrib(1, 1, [(2, 2500)], locked=[3])))
    with pytest.raises(ValueError, match="cents must be an integer"):
        protocol.decode("contrib", protocol.encode(contrib(1, 1, [(2, 25.5)])))
    with pytest.raises(ValueError, match="seq must be"):
        protocol.decode("hit", protocol.encode({"ep": 1, "seq": 0, "round": 1, "hits": [[1, "flush"]]}))
    with pytest.raises(ValueError, match="seat 1 has two hits"):
        protocol.decode("hit", protocol.encode({"ep": 1, "seq": 1, "round": 1, "hits": [[1, "flush"], [1, "flush"]]}))
    with pytest.raises(ValueError, match="at most 2048"):
        protocol.decode("beat", b"{" + b" " * 3000 + b"}")
    with pytest.raises(ValueError, match="is not tablectl"):
        protocol.parse_table_topic("tablectl/pit1/pool")
    assert protocol.decode("beat", b'{"ep": 3, "n": 9}') == {"ep": 3, "n": 9}


# new_ledger_at is a factory called once an example (a new ledger each), so not resetting it is right
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(1, 12), st.integers(0, 1 << 32))
def test_any_duplicates_and_reordering_count_every_message_once(new_ledger_at, n, seed):
    """Two tables' contributions and hits, delivered in batches with any duplicates, losses that are
    resent and reordering: the ledger ends as the core's pool fed each message once, in each table's
    order; and the balance holds after every batch. (The seed drives a Random: hypothesis's own random
    draws would each be a choice it records, too many for its health check.)"""
    rng = random.Random(seed)
    led = ledger(new_ledger_at(), dict(CFG, bet_cents=20000))
    params = tcfg.pool_params(tcfg.validate(CFG))
    classes = awards.table("caribbean_stud")[0][1:]
    script = {}  # table -> [(kind, body)] in sequence order
    for t in ("t01", "t02"):
        msgs = []
        for i in range(n):
            seats = rng.sample(range(1, 8), rng.randint(1, 7))
            msgs.append(("contrib", contrib(len(msgs) + 1, i + 1, [(s, rng.randint(1, 20000)) for s in seats])))
            if rng.randrange(4) == 0:
                msgs.append(("hit", {"ep": 7, "seq": len(msgs) + 1, "round": i + 1,
                                     "hits": [[seats[0], rng.choice(classes)]]}))
        script[t] = msgs
    # what the server must end with: each table's messages once, in order, interleaved as they were first applied
    delivered = {"t01": 0, "t02": 0}
    applied = []
    while delivered["t01"] < len(script["t01"]) or delivered["t02"] < len(script["t02"]):
        batch = []  # the network: which copies arrive, in which batch
        for _ in range(rng.randint(1, 6)):
            t = rng.choice(["t01", "t02"])
            msgs = script[t]
            # a resend of anything up to a little past what was delivered: duplicates, gaps, the next one
            i = rng.randint(0, min(len(msgs) - 1, delivered[t] + 1))
            batch.append((t, msgs[i]))
        with led.batch():
            for t, (kind, body) in batch:
                before = led.next_seq(t, 7)
                answer, _, how = led.handle(t, kind, body, 1.0)
                assert how == ("new" if body["seq"] == before else "duplicate" if body["seq"] < before else "early")
                if how == "new":
                    applied.append((t, kind, body))
                    delivered[t] += 1
        assert balance(led) == 0
    ref = core_pool.Pool(**params)
    for t, kind, body in applied:
        if kind == "contrib":
            for _, c in body["bets"]:
                ref.contribute(c)
        else:
            code = awards.table("caribbean_stud")[0].index(body["hits"][0][1])
            ref.settle([(body["hits"][0][0], code)])
    assert led.links[LINK].pool.state() == ref.state()
    rows = led.db.execute("SELECT tbl, COUNT(*), MAX(seq) FROM message GROUP BY tbl ORDER BY tbl").fetchall()
    assert rows == [("t01", len(script["t01"]), len(script["t01"])), ("t02", len(script["t02"]), len(script["t02"]))]
    stored = json.loads(led.db.execute("SELECT state FROM link").fetchone()[0])
    assert tuple(stored) == ref.state()
