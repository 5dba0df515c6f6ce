"""The link's rules against a real mosquitto and the jackpot server as a process: exactly once, link down, hits across tables, restarts.

Tables here are the CPython tables (jackpot.simtable, the firmware's protocol): in this process where
a test drives them step by step, as processes where a test kills them. The firmware's own table is in
test_link_firmware.py.
"""
import asyncio
import json
import random
import sqlite3
import threading
import time

import paho.mqtt.client as mqtt
import pytest

from jackpot import protocol
from jackpot.simtable import LinkDown, SimTable
from jackpot.rig import GAME, LINK


def run(coro, timeout=60):
    return asyncio.run(asyncio.wait_for(coro, timeout))


async def until(check, timeout=10, step=0.05):
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(step)


def sim(link, tid, **kw):
    kw.setdefault("down_ms", 1500)
    kw.setdefault("beat_ms", 200)
    kw.setdefault("resend_ms", 500)
    return SimTable(tid, LINK, [("127.0.0.1", link.broker.port)], link.password(tid), link.folder / ("%s.json" % tid),
                    ca_file=link.broker.ca_file, **kw)


def balance_off(link):
    return link.status()["links"][LINK]["balance_off"]


def test_a_message_delivered_many_times_counts_once(make_link):
    """A table's raw messages (paho, QoS 1): the same contribution three times, one after a gap, the gap."""
    link = make_link(("t01",))
    got = []
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="raw-t01", protocol=mqtt.MQTTv311)
    c.username_pw_set("t01", link.password("t01"))
    c.on_message = lambda cl, u, m: got.append(json.loads(m.payload))
    subscribed = threading.Event()
    c.on_subscribe = lambda cl, u, mid, codes, p=None: subscribed.set()
    c.connect("127.0.0.1", link.broker.port)
    c.loop_start()
    try:
        c.subscribe(protocol.table_topic(LINK, "t01", "ack"), qos=1)
        assert subscribed.wait(10), "no SUBACK"
        topic = protocol.table_topic(LINK, "t01", "contrib")

        def send(seq, rnd):
            body = {"ep": 5, "seq": seq, "round": rnd, "bets": [[1, 2500], [2, 2500]], "locked": [1, 2]}
            c.publish(topic, protocol.encode(body), qos=1).wait_for_publish(5)

        for _ in range(3):
            send(1, 1)
        send(3, 3)  # after a gap: not answered, not counted
        deadline = time.monotonic() + 10
        while len(got) < 3:
            assert time.monotonic() < deadline, got
            time.sleep(0.05)
        assert got[:3] == [got[0]] * 3 and got[0]["seq"] == 1 and got[0]["cents"] == 1000
        send(2, 2)
        send(3, 3)
        deadline = time.monotonic() + 10
        while len(got) < 5:
            assert time.monotonic() < deadline, got
            time.sleep(0.05)
        # the early 3 was never answered: had it been, its answer would stand before the 2's
        assert [a["seq"] for a in got] == [1, 1, 1, 2, 3]
        st = link.status()
        assert st["links"][LINK]["contributed"] == 3000
        assert st["links"][LINK]["tables"]["t01"]["duplicates"] == 2
        assert st["server"]["early"] == 1
        assert balance_off(link) == 0
        # a malformed message is refused with one line in the log and answered when it has a sequence number
        c.publish(topic, b'{"ep": 5, "seq": 4, "round": 4, "bets": [[1, -5]], "locked": [1]}', qos=1).wait_for_publish(5)
        deadline = time.monotonic() + 10
        while "cents must be an integer 1.." not in link.server.tail():
            assert time.monotonic() < deadline, link.server.tail()
            time.sleep(0.05)
        assert link.status()["links"][LINK]["contributed"] == 3000
    finally:
        c.loop_stop()
        c.disconnect()


def test_link_down_refuses_progressive_bets_until_heartbeats_are_answered_again(make_link):
    link = make_link(("t01",))

    async def go():
        t = sim(link, "t01")
        stop = asyncio.Event()
        task = asyncio.ensure_future(t.run(stop))
        await until(lambda: t.up)
        seq = t.lock({1: 2500})
        assert (await t.answer(seq))["ok"] == "contrib"
        link.server.kill()  # SIGKILL: no more answered heartbeats
        t0 = time.monotonic()
        await until(lambda: not t.up, timeout=5)
        assert time.monotonic() - t0 < 2.5  # within down_ms (1.5 s) and a beat
        with pytest.raises(LinkDown, match="LINK DOWN"):
            t.lock({2: 2500})
        link.server.start()
        await until(lambda: t.up, timeout=15)
        seq = t.lock({2: 2500})
        assert (await t.answer(seq))["ok"] == "contrib"
        stop.set()
        await task
        return t

    t = run(go())
    assert t.state["out"] == []
    assert link.status()["links"][LINK]["contributed"] == 1000


def test_hits_across_tables_pending_award_and_next_pool(make_link):
    """A royal on t01 takes the linked pool (CSP-10.2.1); until t01 pays it, t02 shows JACKPOT PENDING and
    its bets feed the restarted pool; a straight flush on t02 takes 10% of that pool (CSP-10.2.2)."""
    link = make_link(("t01", "t02"))

    async def go():
        t1, t2 = sim(link, "t01"), sim(link, "t02")
        stop = asyncio.Event()
        tasks = [asyncio.ensure_future(t.run(stop)) for t in (t1, t2)]
        await until(lambda: t1.up and t2.up)
        a = await t1.answer(t1.lock(dict((s, 2500) for s in range(1, 8))))
        b = await t2.answer(t2.lock({3: 2500}))
        pool = b["pool"]
        assert pool == GAME["seed_cents"] + 8 * 500 and a["pool"] == pool - 500
        claim = t1.hit([[4, "royal_flush"]])
        won = await t1.answer(claim)
        assert won["awards"] == [[4, "royal_flush", max(GAME["fixed_royal_flush"], pool)]]
        await until(lambda: t2.pool and t2.pool["ver"] >= won["ver"])
        assert [(p["table"], p["seat"]) for p in t2.pending] == [("t01", 4)] and t1.pending == []
        c = await t2.answer(t2.lock({3: 2500, 5: 2500}))  # during the pending award: the next pool
        assert c["pool"] == GAME["seed_cents"] + 1000
        sf = await t2.answer(t2.hit([[5, "straight_flush"]]))
        assert sf["awards"] == [[5, "straight_flush", max(GAME["fixed_straight_flush"], c["pool"] // 10)]]
        await t1.answer(t1.paid(claim))
        await until(lambda: t2.pool["pending"] == [])
        stop.set()
        await asyncio.gather(*tasks)

    run(go())
    st = link.status()["links"][LINK]
    assert st["balance_off"] == 0 and st["pending"] == []
    assert [h[1:4] for h in st["last_hits"]] == [["t02", 5, "straight_flush"], ["t01", 4, "royal_flush"]]


def test_tls_end_to_end(make_link):
    link = make_link(("t01",), tls=True)

    async def go():
        t = sim(link, "t01")
        stop = asyncio.Event()
        task = asyncio.ensure_future(t.run(stop))
        await until(lambda: t.up)
        answer = await t.answer(t.lock({1: 2500}))
        stop.set()
        await task
        return answer

    assert run(go())["ok"] == "contrib"
    assert "listener" in (link.broker.folder / "mosquitto.conf").read_text()


def bets_on_server(link, tid):
    db = sqlite3.connect(str(link.db))
    try:
        rows = db.execute("SELECT body, ok FROM message WHERE tbl = ? AND kind = 'contrib'", (tid,)).fetchall()
        seq = db.execute("SELECT MAX(seq), COUNT(*), SUM(1 - ok) FROM message WHERE tbl = ?", (tid,)).fetchone()
    finally:
        db.close()
    bets = [b for body, ok in rows for b in json.loads(body)["bets"]]
    return len(bets), sum(c for _, c in bets), seq


def test_restarts_kill_broker_server_or_table_at_any_moment_nothing_lost_or_doubled(make_link):
    """Three tables play fast; the broker, the server or a table is SIGKILLed at random moments and
    restarted. Then play stops and the link settles: every bet a table's record says it locked is in the
    ledger once, every message it sent was answered, and the pool balances to the cent (also checked
    whenever the server answered during the run)."""
    tables = ("t01", "t02", "t03")
    link = make_link(tables)
    procs = dict((t, link.table(t, every=0.15, seed=i, hit_every=8, pay_after=0.2).start()) for i, t in enumerate(tables))
    rng = random.Random(14)
    kills = {"broker": 0, "server": 0, "table": 0}
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        time.sleep(rng.uniform(0.5, 2.0))
        what = rng.choice(["broker", "server", "table"])
        kills[what] += 1
        if what == "broker":
            link.broker.kill()
            time.sleep(rng.uniform(0, 1.0))
            link.broker.start()
        elif what == "server":
            link.server.kill()
            time.sleep(rng.uniform(0, 1.0))
            link.server.start()
        else:
            p = procs[rng.choice(tables)]
            p.kill()
            time.sleep(rng.uniform(0, 0.5))
            p.start()
        try:
            assert balance_off(link) == 0
        except OSError:
            pass  # the server is starting
    link.until.write_text("stop")
    link.wait_web()

    def settled():
        for t in tables:
            rec = link.record(t)
            if rec["out"] or rec["claims"]:
                return False
        return True

    deadline = time.monotonic() + 30
    while not settled():
        assert time.monotonic() < deadline, dict((t, link.record(t)["out"][:2]) for t in tables)
        for t, p in procs.items():
            assert p.alive(), p.tail()
        time.sleep(0.2)
    st = link.status()["links"][LINK]
    assert st["balance_off"] == 0 and st["pending"] == []
    for t in tables:
        rec = link.record(t)
        n, cents, (max_seq, count, refused) = bets_on_server(link, t)
        assert (n, cents) == (rec["bets"], rec["bet_cents"]), t
        assert (max_seq, count, refused) == (rec["seq"], rec["seq"], 0), t
        assert st["tables"][t]["bets"] == rec["bets"]
    print("kills", kills, "bets", sum(link.record(t)["bets"] for t in tables), "duplicates", sum(st["tables"][t]["duplicates"] for t in tables))
    assert sum(kills.values()) >= 8 and sum(link.record(t)["bets"] for t in tables) > 100
