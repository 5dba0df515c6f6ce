"""Linked progressive figures: a real mosquitto, the jackpot server, simulated and firmware tables on one link.

    python tools/bench/link.py [--seconds 60] [--tables 200] [--chaos-seconds 30]   (make bench runs it;
    LINK_BENCH_SCALE=5 in the environment makes every phase five times longer)

1. Load: --tables CPython tables (jackpot.simtable, the firmware's protocol) each playing a round every
   10 s on random seats, plus three firmware tables (the .mpy build on the unix port, sim board,
   umqtt.simple) locking every few seconds, on one link. Latency: from a table's contribution being
   sent to the pit sign (the server's event stream, /events) showing a pool that includes it, p50 and
   p99; goal 200 tables with p99 under 100 ms. The firmware tables' locks are counted on the server.
2. Ceiling: 20 tables (bare MQTT clients) send contributions as fast as the server answers them, 500
   outstanding each: the contributions per second the server sustains, each committed before its
   answer (SQLite, WAL, synchronous=FULL, one transaction per batch); then the same on PostgreSQL with a
   synchronous standby (each commit on the standby's disk too before its answer).
3. Chaos: 50 tables at a round a second while the broker and the server are SIGKILLed and restarted at
   random moments; then play stops, the tables send what was not answered, and the figures: messages
   sent (resends included), duplicates the server absorbed, each table's locked bets against the
   ledger's, and the balance pool + reserve + paid - seeded - contributed (0 cents off).
Everything runs on this 2-core machine, tables and server together: the figures are this machine's.
"""
import argparse
import asyncio
import bisect
import json
import os
import pathlib
import random
import sqlite3
import sys
import tempfile
import threading
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent

from jackpot import protocol
from jackpot.rig import LINK, FirmwareTable, Link
from jackpot.simtable import LinkDown, SimTable


FEED = r"""
import http.client, json, sys, time
conn = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=600)
conn.request("GET", "/events?link=" + sys.argv[2])
for line in conn.getresponse():
    if line.startswith(b"data: "):
        print(json.loads(line[6:])["ver"], time.monotonic(), flush=True)
"""


class SignFeed(threading.Thread):
    """The sign's event stream, read by a process of its own (this one is busy with the tables): when each
    pool version was first shown, on the machine's monotonic clock."""

    def __init__(self, port):
        import subprocess
        threading.Thread.__init__(self, daemon=True)
        self.proc = subprocess.Popen([sys.executable, "-c", FEED, str(port), LINK], stdout=subprocess.PIPE, text=True)
        self.vers = []
        self.times = []

    def run(self):
        for line in self.proc.stdout:
            ver, at = line.split()
            if not self.vers or int(ver) > self.vers[-1]:
                self.vers.append(int(ver))
                self.times.append(float(at))

    def stop(self):
        self.proc.kill()
        self.proc.wait()

    def shown_at(self, ver):
        i = bisect.bisect_left(self.vers, ver)
        return self.times[i] if i < len(self.times) else None


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p / 100))] if values else float("nan")


def sim(link, tid, **kw):
    return SimTable(tid, LINK, [("127.0.0.1", link.broker.port)], link.password(tid), link.folder / ("%s.json" % tid), **kw)


async def _load(link, n, seconds, feed):
    tables = [sim(link, "s%03d" % i, beat_ms=1000, down_ms=5000, resend_ms=3000, pay_after_s=1.0) for i in range(n)]
    samples = []

    def answered(t):
        def on_answer(seq, body, now):
            if body.get("ok") == "contrib":
                samples.append((t.sent_at.get(seq), body["ver"]))
        return on_answer

    for t in tables:
        t.on_answer.append(answered(t))
    stop = asyncio.Event()
    rng = random.Random(1)
    runs = [asyncio.ensure_future(t.run(stop)) for t in tables]
    deadline = time.monotonic() + 30
    while not all(t.up for t in tables) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    plays = [asyncio.ensure_future(t.play(stop, 10.0, random.Random(rng.random()), hit_every=100)) for t in tables]
    t0 = time.monotonic()
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.gather(*(runs + plays), return_exceptions=True)
    await asyncio.sleep(0.5)
    lat = []
    late = 0
    for sent, ver in samples:
        shown = feed.shown_at(ver)
        if sent is None or shown is None:
            late += 1
            continue
        lat.append((shown - sent) * 1000)
    return tables, lat, late, time.monotonic() - t0


def firmware_rounds(fws, stop, locks):
    rng = random.Random(7)
    while not stop.is_set():
        for fw in fws:
            fw.seats(*rng.sample(range(1, 8), rng.randint(1, 3)))
            fw.press("LOCK")
            try:
                fw.wait(lambda st: st["status"].get("state") == "locked", 3)
            except AssertionError:
                continue  # refused (LINK DOWN, or a press lost to a busy machine): no bet
            locks[fw] = locks.get(fw, 0) + len(fw.picture()["status"]["locked"])
            fw.press("CONFIRM")
        stop.wait(2.0)


def load_phase(folder, n, seconds, fw_count=3):
    from building.build_mpy import build
    build_dir = folder / "fwbuild"
    build("sim", build_dir)
    fw_ids = ["fw%d" % i for i in range(1, fw_count + 1)]
    link = Link(folder / "load", ["s%03d" % i for i in range(n)] + fw_ids).start()
    fws = []
    try:
        fws = [FirmwareTable(build_dir, folder / f, link, f, link_down_ms=5000).configure().start() for f in fw_ids]
        for fw in fws:
            fw.wait(lambda st: st["status"].get("link_state") == "up", 20)
        feed = SignFeed(link.web_port)
        feed.start()
        stop = threading.Event()
        locks = {}
        driver = threading.Thread(target=firmware_rounds, args=(fws, stop, locks), daemon=True)
        driver.start()
        tables, lat, late, elapsed = asyncio.run(_load(link, n, seconds, feed))
        feed.stop()
        stop.set()
        driver.join(10)
        for fw in fws:
            fw.wait(lambda st: st["status"].get("link_unanswered") == 0, 20)
        st = link.status()["links"][LINK]
        contribs = sum(1 for t in tables for _ in range(t.state["round"]))
        print("load: %d CPython tables (a round every 10 s each) + %d firmware tables, %.0f s on one link"
              % (n, len(fws), elapsed))
        print("  contributions: %d from the CPython tables (%.1f/s), %d bets" % (
            contribs, contribs / elapsed, sum(t.state["bets"] for t in tables)))
        print("  lock -> new pool on the sign: p50 %.1f ms, p99 %.1f ms, max %.1f ms over %d contributions%s"
              % (pct(lat, 50), pct(lat, 99), max(lat) if lat else float("nan"), len(lat),
                 (" (%d not seen on the sign)" % late) if late else ""))
        print("  goal 200 tables, p99 < 100 ms: %s" % ("met" if n >= 200 and pct(lat, 99) < 100 else "NOT met"))
        fw_server = dict((f, st["tables"].get(f, {}).get("bets", 0)) for f in fw_ids)
        fw_local = dict((fw.folder.name, locks.get(fw, 0)) for fw in fws)
        print("  firmware tables: bets locked %s, on the server %s: %s" % (
            fw_local, fw_server, "equal" if fw_local == fw_server else "DIFFERENT"))
        print("  balance: %d cents off" % st["balance_off"])
    finally:
        for fw in fws:
            fw.stop()
        link.stop()


def ceiling_phase(folder, seconds, n=20, window=500, db=None, engine="SQLite"):
    import paho.mqtt.client as mqtt
    tables = ["b%02d" % i for i in range(n)]
    link = Link(folder / ("ceiling-" + engine.split()[0]), tables, db=db).start()
    clients = []
    try:
        lock = threading.Lock()
        state = dict((t, {"sent": 0, "answered": 0}) for t in tables)

        def make(tid):
            c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="bench-" + tid, protocol=mqtt.MQTTv311)
            c.username_pw_set(tid, link.password(tid))
            c.max_inflight_messages_set(window)
            c.max_queued_messages_set(0)
            topic = protocol.table_topic(LINK, tid, "contrib")

            def top_up():
                s = state[tid]
                while s["sent"] - s["answered"] < window and time.monotonic() < stop_at:
                    s["sent"] += 1
                    body = {"ep": 1, "seq": s["sent"], "round": s["sent"], "bets": [[1, 2500], [2, 2500]], "locked": [1, 2]}
                    c.publish(topic, protocol.encode(body), qos=1)

            def on_message(cl, u, msg):
                with lock:
                    state[tid]["answered"] += 1
                    top_up()

            c.on_message = on_message
            c.connect("127.0.0.1", link.broker.port)
            c.subscribe(protocol.table_topic(LINK, tid, "ack"), qos=1)
            c.loop_start()
            c.top_up = top_up
            return c

        stop_at = time.monotonic() + 3600
        clients = [make(t) for t in tables]
        time.sleep(1.0)
        before = link.status()["server"]["messages"]
        t0 = time.monotonic()
        stop_at = t0 + seconds
        with lock:
            for c in clients:
                c.top_up()
        time.sleep(seconds)
        after = link.status()["server"]
        elapsed = time.monotonic() - t0
        done = after["messages"] - before
        print("ceiling (%s): %d tables sending contributions as fast as they are answered (%d outstanding each)"
              % (engine, n, window))
        print("  the server sustained %.0f contributions/s (%d in %.1f s, %.1f per batch, each on disk before "
              "its answer)" % (done / elapsed, done, elapsed, after["messages"] / max(1, after["batches"])))
        print("  that is %.0f tables at a round every 10 s" % (done / elapsed * 10))
        time.sleep(1.0)
        print("  balance: %d cents off" % link.status()["links"][LINK]["balance_off"])
    finally:
        for c in clients:
            c.loop_stop()
            c.disconnect()
        link.stop()


def pg_ceiling_phase(folder, seconds):
    """The ceiling again with the ledger on PostgreSQL, a primary and its synchronous standby made here."""
    from jackpot import postgres
    if not postgres.installed():
        print("ceiling (PostgreSQL): not installed (make postgres); no figures")
        return
    nodes = [postgres.Node.primary()]
    try:
        nodes.append(nodes[0].standby())
        nodes[0].create_database("ledger")
        ceiling_phase(folder, seconds, db=postgres.pair_uri(nodes[0], nodes[1], "ledger"),
                      engine="PostgreSQL, synchronous standby")
    finally:
        for node in nodes:
            node.remove()


async def _chaos(link, n, seconds, rng):
    tables = [sim(link, "c%02d" % i, beat_ms=300, down_ms=1500, resend_ms=1000, pay_after_s=0.5) for i in range(n)]
    stop_link, stop_play = asyncio.Event(), asyncio.Event()
    runs = [asyncio.ensure_future(t.run(stop_link)) for t in tables]
    plays = [asyncio.ensure_future(t.play(stop_play, 1.0, random.Random(rng.random()), hit_every=15)) for t in tables]
    kills = {"broker": 0, "server": 0}
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        await asyncio.sleep(rng.uniform(1.0, 5.0))
        what = rng.choice(["broker", "server"])
        kills[what] += 1
        proc = link.broker if what == "broker" else link.server
        proc.kill()
        await asyncio.sleep(rng.uniform(0, 2.0))
        proc.start()
    stop_play.set()
    await asyncio.gather(*plays)
    settle_deadline = time.monotonic() + 60
    while any(t.state["out"] or t.state["claims"] for t in tables) and time.monotonic() < settle_deadline:
        await asyncio.sleep(0.2)
    stop_link.set()
    await asyncio.gather(*runs)
    return tables, kills


def chaos_phase(folder, seconds, n=50):
    tables = ["c%02d" % i for i in range(n)]
    link = Link(folder / "chaos", tables).start()
    try:
        t0 = time.monotonic()
        sims, kills = asyncio.run(_chaos(link, n, seconds, random.Random(14)))
        link.wait_web()
        st = link.status()["links"][LINK]
        db = sqlite3.connect(str(link.db))
        rows = dict((t, (0, 0)) for t in tables)
        for tbl, body in db.execute("SELECT tbl, body FROM message WHERE kind = 'contrib' AND ok = 1"):
            bets = json.loads(body)["bets"]
            n_, c_ = rows[tbl]
            rows[tbl] = (n_ + len(bets), c_ + sum(c for _, c in bets))
        db.close()
        mismatched = [t.table for t in sims if rows[t.table] != (t.state["bets"], t.state["bet_cents"])]
        unanswered = sum(len(t.state["out"]) for t in sims)
        print("chaos: %d tables, a round a second each, %.0f s; broker killed %d times, server %d times (SIGKILL)"
              % (n, time.monotonic() - t0, kills["broker"], kills["server"]))
        print("  messages sent %d (resends included) for %d distinct ones; duplicates the server absorbed %d"
              % (sum(t.sent for t in sims), sum(t.state["seq"] for t in sims),
                 sum(m["duplicates"] for m in st["tables"].values())))
        print("  bets locked by the tables %d = in the ledger %d: %s; unanswered at the end: %d"
              % (sum(t.state["bets"] for t in sims), sum(r[0] for r in rows.values()),
                 "every table equal" if not mismatched else "DIFFERENT for %s" % mismatched, unanswered))
        print("  balance pool + reserve + paid - seeded - contributed: %d cents off" % st["balance_off"])
    finally:
        link.stop()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    scale = float(os.getenv("LINK_BENCH_SCALE", "1"))
    ap.add_argument("--seconds", type=float, default=60 * scale, help="load phase (default 60)")
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--ceiling-seconds", type=float, default=10 * scale)
    ap.add_argument("--chaos-seconds", type=float, default=30 * scale)
    args = ap.parse_args(argv if argv is not None else [])
    from jackpot.broker import ensure_installed
    ensure_installed()
    with tempfile.TemporaryDirectory(prefix="linkbench_") as tmp:
        folder = pathlib.Path(tmp)
        load_phase(folder, args.tables, args.seconds)
        ceiling_phase(folder, args.ceiling_seconds)
        pg_ceiling_phase(folder, args.ceiling_seconds)
        chaos_phase(folder, args.chaos_seconds)


if __name__ == "__main__":
    main(sys.argv[1:])
