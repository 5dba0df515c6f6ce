"""Two jackpot servers at once, as processes on one PostgreSQL ledger (a primary and its synchronous standby) and a
real mosquitto: each takes every table message, the ledger's unique (table, epoch, seq) makes each count once;
either server SIGKILLed at random moments (mid-batch under load) and restarted, and the primary killed and the
standby promoted under play, lose nothing and double nothing; each server has its own client id."""
import json
import random
import time

from jackpot import postgres
from jackpot.broker import SERVER_USER
from jackpot.ledgerdb import connect
from jackpot.rig import LINK

SECOND = "jackpot-b"


def test_two_servers_count_every_message_once_through_kills_of_either_and_of_the_primary(make_link, pg_pair):
    primary, standby = pg_pair
    primary.create_database("ledger")
    tables = ("t01", "t02", "t03")
    link = make_link(tables, servers=(SERVER_USER, SECOND), db=postgres.pair_uri(primary, standby, "ledger"),
                     start=False)
    link.add_server(SECOND)
    servers = link.servers
    link.start()
    servers[SECOND].start()
    link.wait_web(user=SECOND)
    both = [link.status(u)["server"]["connected"] for u in servers]
    assert both == [True, True]  # at once: neither took the other's client id (it would be thrown off)
    procs = dict((t, link.table(t, every=0.15, seed=i, hit_every=8, pay_after=0.2).start()) for i, t in enumerate(tables))
    rng = random.Random(25)
    order = sorted(servers) * 2
    rng.shuffle(order)
    for user in order:  # each server twice, at random moments of the play
        time.sleep(rng.uniform(0.3, 1.2))
        servers[user].kill()  # the other goes on alone meanwhile
        time.sleep(rng.uniform(0, 0.8))
        servers[user].start()
        link.wait_web(user=user)
    # the primary killed under play; the standby promoted (the documented procedure, docs/link.md)
    before = standby.sql("SELECT COUNT(*) FROM message", "ledger")[0][0]
    logins = dict((u, link.status(u)["server"]["logins"]) for u in servers)
    killed = time.monotonic()
    primary.kill()
    time.sleep(rng.uniform(0.2, 1.0))
    standby.promote()
    while standby.sql("SELECT COUNT(*) FROM message", "ledger")[0][0] == before:
        assert time.monotonic() - killed < 30, [s.tail() for s in servers.values()]
        time.sleep(0.05)
    outage = time.monotonic() - killed
    # the ledger's failover is not the broker's: each server kept its broker connection and subscriptions
    # through it (on a cluster a login costs seconds of the tables' refusal window)
    assert dict((u, link.status(u)["server"]["logins"]) for u in servers) == logins
    # both servers on the new primary take messages (polled: a fixed 1.5 s of play passed only on an idle machine)
    deadline = time.monotonic() + 30
    while min(link.status(u)["server"]["messages"] for u in servers) == 0:
        assert time.monotonic() < deadline, [s.tail() for s in servers.values()]
        time.sleep(0.1)
    link.until.write_text("stop")

    def settled():
        return all(not (link.record(t)["out"] or link.record(t)["claims"]) for t in tables)

    deadline = time.monotonic() + 30
    while not settled():
        assert time.monotonic() < deadline, dict((t, link.record(t)["out"][:2]) for t in tables)
        for p in list(procs.values()) + list(servers.values()):
            assert p.alive(), p.tail()
        time.sleep(0.2)
    stats = dict((u, link.status(u)) for u in servers)
    st = stats[SERVER_USER]["links"][LINK]
    assert st["balance_off"] == 0 and st["pending"] == []
    db = connect(link.db, readonly=True)
    for t in tables:
        rec = link.record(t)
        rows = db.execute("SELECT body, ok FROM message WHERE tbl = ? AND kind = 'contrib'", (t,)).fetchall()
        bets = [b for body, ok in rows for b in json.loads(body)["bets"]]
        assert (len(bets), sum(c for _, c in bets)) == (rec["bets"], rec["bet_cents"]), t
        max_seq, count, refused = db.execute("SELECT MAX(seq), COUNT(*), SUM(1 - ok) FROM message WHERE tbl = ?",
                                             (t,)).fetchone()
        assert (max_seq, count, refused) == (rec["seq"], rec["seq"], 0), t  # every message once
    # the pool's meters are the sum of what the answers said (a server writing a pool it had not reread
    # would keep a consistent balance and lose the other's contributions)
    contributed, paid = db.execute("SELECT SUM(CASE WHEN kind = 'contrib' THEN cents ELSE 0 END), "
                                   "SUM(CASE WHEN kind = 'hit' THEN cents ELSE 0 END) FROM message WHERE ok = 1").fetchone()
    assert (st["contributed"], st["paid"]) == (contributed, paid)
    db.close()
    duplicates = sum(st["tables"][t]["duplicates"] for t in tables)
    applied = dict((u, stats[u]["server"]["messages"]) for u in servers)
    print("each server killed twice; primary killed: the first message committed on the promoted standby %.1f s later" % outage,
          "bets", sum(link.record(t)["bets"] for t in tables), "applied since the last start",
          applied, "duplicates absorbed", duplicates)
    # both applied messages (none waits for a leader), and each absorbed what the other had applied
    assert min(applied.values()) > 0 and duplicates > 0
    assert sum(link.record(t)["bets"] for t in tables) > 60
