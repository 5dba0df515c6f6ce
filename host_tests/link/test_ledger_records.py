"""What the ledger records beside the pool, each figure exact: a fresh link's meters and version, each table's
meters, each message's cents, the payment that clears one pending award and no other, the refusal naming a
stored parameter the configuration lacks (no broker here: messages go straight into Ledger.handle)."""
import json

import pytest

from jackpot import protocol
from jackpot.ledger import Ledger, LedgerError, feed, link_view, status
from jackpot.rig import GAME, LINK

TABLES = {"t01": LINK, "t02": LINK}


def ledger(tmp_path, cfg=GAME):
    return Ledger(tmp_path / "ledger.db", {LINK: cfg}, TABLES)


def send(led, table, kind, body, now=1.0):
    body = protocol.decode(kind, protocol.encode(body))
    with led.batch():
        return led.handle(table, kind, body, now)


def contrib(seq, rnd, seats, ep=7):
    return {"ep": ep, "seq": seq, "round": rnd, "bets": [[s, 2500] for s in seats], "locked": list(seats)}


def test_a_fresh_links_first_contribution_is_version_1_and_its_meters_start_at_nothing(tmp_path):
    led = ledger(tmp_path)
    answer = send(led, "t01", "contrib", contrib(1, 1, [1, 2]))[0]
    assert (answer["cents"], answer["ver"]) == (1000, 1)  # 20% of two 25.00 bets
    view = link_view(led.db, LINK)
    assert (view["ver"], view["contributed"], view["paid"], view["seeded"], view["balance_off"]) == (
        1, 1000, 0, GAME["seed_cents"], 0)
    assert led.links[LINK].totals() == {"pool": GAME["seed_cents"] + 1000, "reserve": 0, "contributed": 1000,
                                        "paid": 0, "seeded": GAME["seed_cents"]}


def test_each_tables_meters_count_its_own_messages_exactly(tmp_path):
    """Contributed cents and bets, hits and awarded cents, messages, duplicates and refusals: a payment,
    a refusal and a duplicate add nothing to the money meters."""
    led = ledger(tmp_path)
    send(led, "t01", "contrib", contrib(1, 1, [1, 2, 3]))
    hit = send(led, "t01", "hit", {"ep": 7, "seq": 2, "round": 1, "hits": [[2, "flush"]]})[0]
    assert hit["awards"] == [[2, "flush", GAME["fixed_flush"]]]
    send(led, "t01", "hit", {"ep": 7, "seq": 3, "round": 1, "hits": [[1, "flush"]]})  # settled already: refused
    send(led, "t01", "paid", {"ep": 7, "seq": 4, "claim": 2})  # a payment of nothing pending: no money
    send(led, "t01", "contrib", contrib(1, 1, [1, 2, 3]))      # a redelivery
    send(led, "t02", "contrib", contrib(1, 1, [4]))
    tables = status(led.db)["links"][LINK]["tables"]
    assert tables["t01"] == {"contributed": 1500, "bets": 3, "hits": 1, "awarded": GAME["fixed_flush"],
                             "messages": 4, "duplicates": 1, "refused": 1, "last_at": 1.0}
    assert tables["t02"] == {"contributed": 500, "bets": 1, "hits": 0, "awarded": 0, "messages": 1,
                             "duplicates": 0, "refused": 0, "last_at": 1.0}


def test_each_message_is_stored_with_the_cents_it_moved(tmp_path):
    led = ledger(tmp_path)
    send(led, "t01", "contrib", contrib(1, 1, [1, 2]))
    send(led, "t01", "hit", {"ep": 7, "seq": 2, "round": 1, "hits": [[1, "flush"], [2, "straight_flush"]]})
    send(led, "t01", "paid", {"ep": 7, "seq": 3, "claim": 2})
    rows = led.db.execute("SELECT seq, kind, ok, cents FROM message ORDER BY seq").fetchall()
    assert rows == [(1, "contrib", 1, 1000), (2, "hit", 1, GAME["fixed_flush"] + GAME["fixed_straight_flush"]),
                    (3, "paid", 1, 0)]


def test_a_payment_clears_its_own_tables_epochs_and_claims_pending_award_and_no_other(tmp_path):
    """Royals pending on two tables, one of them in two epochs, with the same claim seq: each payment takes
    away exactly the award it names (the others keep JACKPOT PENDING on every table)."""
    led = ledger(tmp_path)
    royal = [[1, "royal_flush"]]
    for table, ep in (("t01", 7), ("t02", 7), ("t01", 8)):
        send(led, table, "contrib", contrib(1, 1, [1], ep=ep))
        assert send(led, table, "hit", {"ep": ep, "seq": 2, "round": 1, "hits": royal})[0]["ok"] == "hit"
    pending = lambda: [(p["table"], p["ep"], p["claim"]) for p in link_view(led.db, LINK)["pending"]]
    assert pending() == [("t01", 7, 2), ("t02", 7, 2), ("t01", 8, 2)]
    ver = link_view(led.db, LINK)["ver"]
    send(led, "t01", "paid", {"ep": 7, "seq": 3, "claim": 9})  # no such claim: nothing changes
    assert pending() == [("t01", 7, 2), ("t02", 7, 2), ("t01", 8, 2)] and link_view(led.db, LINK)["ver"] == ver
    send(led, "t01", "paid", {"ep": 7, "seq": 4, "claim": 2})
    assert pending() == [("t02", 7, 2), ("t01", 8, 2)] and link_view(led.db, LINK)["ver"] == ver + 1
    send(led, "t01", "paid", {"ep": 8, "seq": 3, "claim": 2})
    assert pending() == [("t02", 7, 2)]


def test_a_restart_names_a_stored_parameter_the_configuration_no_longer_has(tmp_path):
    led = ledger(tmp_path)
    params = json.loads(led.db.execute("SELECT params FROM link WHERE id = ?", (LINK,)).fetchone()[0])
    params["retired_key"] = 5  # a ledger written by another version, with a parameter this one lacks
    led.db.execute("UPDATE link SET params = ? WHERE id = ?", (json.dumps(params), LINK))
    led.db.close()
    with pytest.raises(LedgerError, match="retired_key 5 -> None"):
        ledger(tmp_path)


def test_the_sign_is_fed_the_12_newest_hits_newest_first(tmp_path):
    led = ledger(tmp_path)
    for rnd in range(1, 15):  # 14 rounds, a flush on seat 1 + rnd % 7 in each
        send(led, "t01", "contrib", contrib(2 * rnd - 1, rnd, [1 + rnd % 7]), now=float(rnd))
        send(led, "t01", "hit", {"ep": 7, "seq": 2 * rnd, "round": rnd, "hits": [[1 + rnd % 7, "flush"]]},
             now=float(rnd))
    hits = feed(led.db, LINK)["last_hits"]
    assert hits == [[rnd * 1000, "t01", 1 + rnd % 7, "flush", GAME["fixed_flush"]] for rnd in range(14, 2, -1)]


def test_a_bet_or_a_seat_past_the_links_own_limits_is_refused_naming_it_and_its_limit_is_taken(tmp_path):
    """The link's seats and bet per seat, not the table's word: one past each is refused with its one line
    (the pool unchanged), each limit itself is taken."""
    led = ledger(tmp_path, dict(GAME, seats=5, bet_cents=3000))
    body = {"ep": 7, "seq": 1, "round": 1, "bets": [[5, 3001]], "locked": [5]}
    answer = send(led, "t01", "contrib", body)[0]
    assert answer == {"seq": 1, "error": "contrib: seat 5 bets 3001 cents, the link's bet is at most 3000"}
    body = {"ep": 7, "seq": 2, "round": 2, "bets": [[6, 3000]], "locked": [6]}
    answer = send(led, "t01", "contrib", body)[0]
    assert answer == {"seq": 2, "error": "contrib: seat 6, the link has 5 seats a table"}
    assert link_view(led.db, LINK)["contributed"] == 0
    answer = send(led, "t01", "contrib", {"ep": 7, "seq": 3, "round": 3, "bets": [[5, 3000]], "locked": [5]})[0]
    assert answer["cents"] == 600 and link_view(led.db, LINK)["contributed"] == 600


def test_after_a_restart_past_a_rollover_the_pool_published_and_the_stored_figures_agree(tmp_path):
    """totals() (what the server publishes on the pool topic) against link_view (the rows) after a closed
    period, a restart and one more message: contributed, paid and seeded each closed + current."""
    cfg = dict(GAME, rate_bp=10000, limit_cents=(1 << 30) - 1, bet_cents=1 << 27)
    led = ledger(tmp_path, cfg)
    seq = 0
    for rnd in range(1, 7):
        seq += 1
        send(led, "t01", "contrib", {"ep": 7, "seq": seq, "round": rnd, "bets": [[1, 1 << 27]], "locked": [1]})
        seq += 1
        send(led, "t01", "hit", {"ep": 7, "seq": seq, "round": rnd, "hits": [[1, "royal_flush"]]})
    closed = list(led.links[LINK].closed)
    assert min(closed[:2]) > 0 and closed[0] != closed[1]  # a period closed: its paid and contributed apart
    led.db.close()
    led = ledger(tmp_path, cfg)
    assert led.links[LINK].closed == closed
    send(led, "t02", "contrib", {"ep": 1, "seq": 1, "round": 1, "bets": [[2, 5000]], "locked": [2]})
    view = link_view(led.db, LINK)
    assert view["balance_off"] == 0 and view["contributed"] == 6 * (1 << 27) + 5000
    totals = led.links[LINK].totals()
    assert totals == dict((k, view[k]) for k in ("pool", "reserve", "contributed", "paid", "seeded"))


def test_every_change_of_the_pool_is_one_version_and_an_answer_names_it(tmp_path):
    led = ledger(tmp_path)
    royal = {"ep": 7, "seq": 2, "round": 1, "hits": [[1, "royal_flush"]]}
    answers = [send(led, "t01", "contrib", contrib(1, 1, [1]))[0], send(led, "t01", "hit", royal)[0]]
    assert [a["ver"] for a in answers] == [1, 2]
    send(led, "t01", "paid", {"ep": 7, "seq": 3, "claim": 2})
    assert link_view(led.db, LINK)["ver"] == 3


def test_a_refusal_is_one_line_of_at_most_200_characters_whatever_the_message_held(tmp_path):
    led = ledger(tmp_path)
    send(led, "t01", "contrib", contrib(1, 1, [1]))
    answer = send(led, "t01", "hit", {"ep": 7, "seq": 2, "round": 1, "hits": [[1, "x" * 500 + "\n" + "y"]]})[0]
    assert answer["error"] == ("hit: caribbean_stud has no class '" + "x" * 500)[:200]


def test_a_table_on_a_link_the_configuration_lacks_is_refused_at_start_naming_both(tmp_path):
    with pytest.raises(LedgerError, match="table t05: no link 'pit9' in the configuration"):
        Ledger(tmp_path / "ledger.db", {LINK: GAME}, {"t01": LINK, "t05": "pit9"})


def test_a_second_contribution_for_a_round_is_refused_naming_the_round_CSP_10_1(tmp_path):
    led = ledger(tmp_path)
    send(led, "t01", "contrib", contrib(1, 4, [1]))
    answer = send(led, "t01", "contrib", contrib(2, 4, [2]))[0]
    assert answer == {"seq": 2, "error": "contrib: round 4 of table t01 has its contribution already"}
    assert link_view(led.db, LINK)["contributed"] == 500


def test_a_message_the_protocol_did_not_check_is_refused_by_its_kind_and_error_and_changes_nothing(tmp_path):
    """handle() is given checked messages; should one get through unchecked, its failure is its refusal."""
    led = ledger(tmp_path)
    before = link_view(led.db, LINK)
    with led.batch():
        answer, changed, how = led.handle("t01", "contrib", {"ep": 7, "seq": 1, "round": 1, "locked": [1]}, 1.0)
    assert (answer, changed, how) == ({"seq": 1, "error": "contrib: KeyError"}, None, "new")
    assert link_view(led.db, LINK) == before


def test_a_heartbeat_is_the_tables_last_message_time_and_no_money(tmp_path):
    led = ledger(tmp_path)
    with led.batch():
        led.seen("t01", 5.0)
        led.seen("t09", 6.0)  # a table on no link: nothing recorded
    tables = status(led.db)["links"][LINK]["tables"]
    assert tables == {"t01": {"contributed": 0, "bets": 0, "hits": 0, "awarded": 0, "messages": 0,
                              "duplicates": 0, "refused": 0, "last_at": 5.0}}


def test_a_hit_of_the_no_hand_class_or_of_a_class_that_pays_nothing_is_refused_naming_it_BAC_17_12(tmp_path):
    from tablectl import config as tcfg
    led = Ledger(tmp_path / "ledger.db", {LINK: dict(tcfg.DEMO, game="caribbean_stud"),
                                          "pitc": dict(tcfg.DEMO, game="baccarat_c")},
                 {"t01": LINK, "t03": "pitc"})
    send(led, "t01", "contrib", contrib(1, 1, [1, 2]))
    assert send(led, "t01", "hit", {"ep": 7, "seq": 2, "round": 1, "hits": [[1, "none"]]})[0] == {
        "seq": 2, "error": "hit: caribbean_stud has no class 'none'"}
    assert send(led, "t01", "hit", {"ep": 7, "seq": 3, "round": 1, "hits": [[1, "flush"]]})[0]["ok"] == "hit"
    send(led, "t03", "contrib", contrib(1, 1, [1]))
    assert send(led, "t03", "hit", {"ep": 7, "seq": 2, "round": 1, "hits": [[1, "five_of_a_kind"]]})[0] == {
        "seq": 2, "error": "hit: five_of_a_kind pays nothing at this link"}
    assert link_view(led.db, "pitc")["game"] == "baccarat_c" and link_view(led.db, LINK)["game"] == "caribbean_stud"


def test_a_period_closes_at_the_first_message_after_a_meter_reaches_2_to_the_29_cents_not_before(tmp_path):
    cfg = dict(GAME, rate_bp=10000, limit_cents=(1 << 30) - 1, bet_cents=1 << 27)
    led = ledger(tmp_path, cfg)
    for rnd in range(1, 5):  # 4 bets of 2**27 at 100%: the contributed meter at 2**29 exactly
        send(led, "t01", "contrib", {"ep": 7, "seq": rnd, "round": rnd, "bets": [[1, 1 << 27]], "locked": [1]})
        assert led.links[LINK].closed == [0, 0, 0]
    assert led.links[LINK].pool.contributed == 1 << 29
    send(led, "t01", "contrib", {"ep": 7, "seq": 5, "round": 5, "bets": [[1, 100]], "locked": [1]})
    pool_before = GAME["seed_cents"] + (1 << 29)
    assert led.links[LINK].closed == [1 << 29, 0, GAME["seed_cents"] - pool_before]
    assert led.links[LINK].pool.contributed == 100 and link_view(led.db, LINK)["balance_off"] == 0


def test_a_stored_pool_that_is_not_valid_is_refused_at_start_naming_the_link(tmp_path):
    led = ledger(tmp_path)
    state = json.loads(led.db.execute("SELECT state FROM link WHERE id = ?", (LINK,)).fetchone()[0])
    state[0] = -1  # a pool below nothing
    led.db.execute("UPDATE link SET state = ? WHERE id = ?", (json.dumps(state), LINK))
    led.db.close()
    with pytest.raises(LedgerError, match="link %s: the stored pool is not valid" % LINK):
        ledger(tmp_path)


def test_a_period_closing_with_money_in_the_reserve_carries_pool_and_reserve_both(tmp_path):
    """The pool at its limit (the rest goes to the reserve, CSP-10.8's next pool): a closed period carries
    pool + reserve into the next one as its seed money, and the balance holds."""
    cfg = dict(GAME, rate_bp=10000, limit_cents=1 << 28, bet_cents=1 << 27)
    led = ledger(tmp_path, cfg)
    for rnd in range(1, 6):
        answer = send(led, "t01", "contrib", {"ep": 7, "seq": rnd, "round": rnd, "bets": [[1, 1 << 27]],
                                              "locked": [1]})[0]
        assert answer.get("ok") == "contrib", answer
    pool = led.links[LINK].pool
    assert led.links[LINK].closed[0] == 1 << 29 and pool.reserve > 0
    assert pool.seeded == (1 << 28) + (GAME["seed_cents"] + (1 << 29) - (1 << 28))  # pool + reserve carried
    assert link_view(led.db, LINK)["balance_off"] == 0


def test_a_refusal_is_the_first_line_of_an_error_of_many_lines(tmp_path, monkeypatch):
    """No message the rules core raises today has two lines; should one, the answer still is one line."""
    from tablectl.rules import pool as core_pool

    def fails(self, cents):
        raise ValueError("contribute: the first line\nthe second line")

    led = ledger(tmp_path)
    monkeypatch.setattr(core_pool.Pool, "contribute", fails)
    answer = send(led, "t01", "contrib", contrib(1, 1, [1]))[0]
    assert answer == {"seq": 1, "error": "contribute: the first line"}
