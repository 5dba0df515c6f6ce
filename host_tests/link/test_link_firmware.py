"""The firmware as a linked table (the .mpy build on the unix port, sim board, umqtt.simple) against a real mosquitto and the server.

The dealer's buttons and the seat sensors go in, and the display, the jackpot digits and status() come
out, through the sim board's host link (as the simulator's page); the other tables are bare MQTT messages
(jackpot.rig.RawTable). Every amount expected is the server's answer; the firmware computes no award.
"""
import random
import time

from jackpot.rig import GAME, LINK, RawTable


def state(t, want, timeout=8):
    return t.wait(lambda st: st["status"].get("state") == want, timeout)


def link_up(t, timeout=10):
    return t.wait(lambda st: st["status"].get("link_state") == "up", timeout)


def answered(t, timeout=8):
    return t.wait(lambda st: st["status"].get("link_unanswered") == 0, timeout)


def digits(t, cents, timeout=8):
    return t.wait(lambda st: st["out"].get("jackpot", "").replace(".", "").strip() == str(cents), timeout)


def test_lock_feeds_the_linked_pool_and_the_digits_show_it(make_link, fw_table):
    link = make_link(("fw1", "t02"))
    fw = fw_table(link)
    link_up(fw)
    digits(fw, GAME["seed_cents"])
    fw.seats(2, 5)
    fw.press("LOCK")
    state(fw, "locked")
    answered(fw)
    meters = link.status()["links"][LINK]["tables"]["fw1"]
    assert (meters["bets"], meters["contributed"]) == (2, 1000)  # 20% of two 25.00 bets (CSP-10.1)
    digits(fw, GAME["seed_cents"] + 1000)
    # another table's bets: the same pool on this table's digits and display
    other = RawTable(link, "t02")
    b = other.send("contrib", {"round": 1, "bets": [[1, 2500]], "locked": [1]})
    digits(fw, b["pool"])
    fw.press("CONFIRM")  # no hit: the round ends
    st = state(fw, "betting")
    assert st["out"]["display"][0] == "POOL %d.%02d" % (b["pool"] // 100, b["pool"] % 100)
    assert st["status"]["pool_cents"] == b["pool"]
    other.close()


def test_link_down_refuses_lock_and_says_so_then_comes_back(make_link, fw_table):
    link = make_link(("fw1",))
    fw = fw_table(link)
    link_up(fw)
    link.server.kill()
    st = fw.wait(lambda st: st["status"].get("link_state", "").startswith("LINK DOWN")
                 and st["out"]["display"] == ["LINK DOWN", "NO JACKPOT BETS"] and st["out"].get("betting_lamp") == 0
                 and st["out"]["jackpot"].strip() == "", 5)  # the digits go blank on the display task's next pass
    assert "POOL" not in " ".join(st["out"]["display"])
    assert "no server heartbeat" in st["status"]["link_state"] or "connect" in st["status"]["link_state"]
    fw.seats(1)
    fw.press("LOCK")
    st = fw.wait(lambda st: st["status"].get("message") == "LINK DOWN", 3)
    assert st["status"]["state"] == "betting" and st["status"]["locked"] == []
    link.server.start()
    link_up(fw, 20)
    fw.press("LOCK")
    state(fw, "locked")
    answered(fw)
    assert link.status()["links"][LINK]["tables"]["fw1"]["bets"] == 1


def test_a_hit_is_paid_with_the_servers_award_and_other_tables_show_jackpot_pending(make_link, fw_table):
    link = make_link(("fw1", "t02"))
    fw = fw_table(link)
    link_up(fw)
    other = RawTable(link, "t02")
    fw.seats(3, 6)
    fw.press("LOCK")
    state(fw, "locked")
    answered(fw)
    # a straight flush at seat 6: HIT 6 ENTER, class 4, ENTER, its cards 9s Ts Js Qs Ks, ENTER, CONFIRM
    # (CSP-10.2.2: out of the pool, so the cards are required)
    pool = link.status()["links"][LINK]["pool"]
    fw.press("HIT", "6", "ENTER", "4", "ENTER", *"091101111121131")
    fw.press("ENTER", "CONFIRM")
    st = state(fw, "paying")
    award = max(GAME["fixed_straight_flush"], pool // 10)
    assert st["out"]["display"] == ["S6 STR FLUSH", "PAY %d.%02d" % (award // 100, award % 100)]
    assert link.status()["links"][LINK]["last_hits"][0][1:] == ["fw1", 6, "straight_flush", award]
    fw.press("CONFIRM")
    state(fw, "betting")
    # a royal on the other table: this one shows JACKPOT PENDING until it is paid, and its bets go on
    other.send("contrib", {"round": 1, "bets": [[2, 2500]], "locked": [2]})
    won = other.send("hit", {"round": 1, "hits": [[2, "royal_flush"]]})
    st = fw.wait(lambda st: st["out"]["display"][0] == "JACKPOT PENDING" and st["status"]["link_pending"], 5)
    assert st["status"]["link_pending"] == ["table t02 seat 2"]
    fw.press("LOCK")
    state(fw, "locked")
    answered(fw)
    digits(fw, won["pool"] + 1000)  # the restarted pool (CSP-10.8) and this table's two bets
    fw.press("CONFIRM")
    other.send("paid", {"claim": won["seq"]})
    fw.wait(lambda st: st["out"]["display"][0].startswith("POOL "), 5)
    assert link.status()["links"][LINK]["balance_off"] == 0
    other.close()


def test_sigkill_of_the_table_at_any_moment_loses_nothing_and_counts_nothing_twice(make_link, fw_table):
    """Rounds of LOCK and CONFIRM with the table killed at random moments (a power cut): after each
    restart it resumes from its record and sends what the server had not answered. The server's bets
    for the table are the locks the table's record kept, each once."""
    link = make_link(("fw1",))
    fw = fw_table(link)
    link_up(fw)
    rng = random.Random(5)
    locked_rounds = set()
    for _ in range(6):
        fw.seats(*rng.sample(range(1, 8), 2))
        st = state(fw, "betting")
        fw.link.send("press LOCK")
        time.sleep(0.1)
        fw.link.send("release LOCK")
        time.sleep(rng.uniform(0, 0.25))  # before or after the record, the send or the answer
        fw.kill()
        fw.start()
        st = fw.wait(lambda st: st["status"].get("state") in ("betting", "locked"), 10)
        if st["status"]["state"] == "locked":
            locked_rounds.add(st["status"]["round"])
            link_up(fw)
            fw.press("CONFIRM")
            state(fw, "betting")
    link_up(fw)
    answered(fw, 15)
    meters = link.status()["links"][LINK]["tables"]["fw1"]
    assert meters["bets"] == 2 * len(locked_rounds) and meters["refused"] == 0 and len(locked_rounds) >= 2
    assert link.status()["links"][LINK]["balance_off"] == 0


def test_a_stalled_broker_leaves_the_controller_responsive(make_link, fw_table):
    """SIGSTOP on the broker: connections stay open and nothing answers (a network stall). The buttons,
    the display and the status keep working at once (the watchdog is fed by the same tasks), the link
    goes down within link_down_ms, and comes back after SIGCONT."""
    link = make_link(("fw1",))
    fw = fw_table(link)
    link_up(fw)
    link.broker.pause()
    try:
        for digit in "3721":
            t0 = time.monotonic()
            fw.press("HISTORY")  # a key the controller answers on its display whatever the state
            fw.wait(lambda st: st["out"]["display"][0].startswith("HISTORY") or st["out"]["display"][1] == "NO HISTORY", 2)
            assert time.monotonic() - t0 < 1.0
            fw.press("CLEAR")
        fw.wait(lambda st: st["status"].get("link_state", "").startswith("LINK DOWN"), 5)
        fw.seats(4)
        fw.press("LOCK")
        fw.wait(lambda st: st["status"].get("message") == "LINK DOWN", 3)
    finally:
        link.broker.pause(False)
    link_up(fw, 20)
    fw.press("LOCK")
    state(fw, "locked")
    answered(fw)


def test_tls_link_with_the_brokers_ca(make_link, fw_table):
    link = make_link(("fw1",), tls=True)
    fw = fw_table(link, tls=True)
    link_up(fw, 15)
    assert "(TLS)" in fw.picture()["status"]["link"]
    fw.seats(1)
    fw.press("LOCK")
    state(fw, "locked")
    answered(fw)
    assert link.status()["links"][LINK]["tables"]["fw1"]["bets"] == 1
