"""Ledger figures: contributions a second the ledger commits, on SQLite and on PostgreSQL with a synchronous standby.

    python -m bench ledger      (make bench runs it; LINK_BENCH_SCALE=5 makes each run five times longer)

No broker: contributions from 50 tables go straight into Ledger.handle, `batch` of them a transaction, as
the server hands them over (jackpot.server.BATCH is the most it puts in one). PostgreSQL is a primary and
a standby made from nothing (initdb, pg_basebackup -R) on this machine, fsync on, synchronous_commit on:
a commit returns once the standby has it on disk. The time that setup takes is printed too. The server's
own ceiling over MQTT on both engines is `python -m bench link` (its ceiling phases).
"""
import os
import shutil
import tempfile
import time

from jackpot import postgres
from jackpot.ledger import Ledger, link_view
from jackpot.rig import GAME, LINK

TABLES = ["b%02d" % i for i in range(50)]
BATCHES = (1, 20, 500)


def rate(led, batch, seconds, seqs):
    """(contributions/s, transactions/s) of `batch` contributions a transaction for `seconds`."""
    n = txns = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        with led.batch():
            for i in range(batch):
                t = TABLES[(n + i) % len(TABLES)]
                seqs[t] += 1
                s = seqs[t]
                led.handle(t, "contrib", {"ep": 1, "seq": s, "round": s, "bets": [[1, 2500], [2, 2500]],
                                          "locked": [1, 2]}, 1.0)
        n += batch
        txns += 1
    elapsed = time.perf_counter() - t0
    return n / elapsed, txns / elapsed


def figures(name, target, seconds):
    led = Ledger(target, {LINK: GAME}, dict((t, LINK) for t in TABLES))
    seqs = dict((t, 0) for t in TABLES)
    for batch in BATCHES:
        per_s, txn_s = rate(led, batch, seconds, seqs)
        print("  %-34s %3d a transaction: %6.0f contributions/s (%6.1f transactions/s)" % (name, batch, per_s, txn_s))
    view = link_view(led.db, LINK)
    print("  %-34s balance %d cents off, %d contributions" % (name, view["balance_off"], sum(seqs.values())))
    led.db.close()


def main(argv=None):
    seconds = 3.0 * float(os.getenv("LINK_BENCH_SCALE", "1"))
    folder = tempfile.mkdtemp(prefix="ledgerbench_")
    try:
        print("ledger: contributions committed a second, %g s a figure, 50 tables, two bets each (this shared "
              "machine's load average %.1f)" % (seconds, os.getloadavg()[0]))
        figures("SQLite (WAL, synchronous=FULL)", os.path.join(folder, "ledger.db"), seconds)
        if not postgres.installed():
            print("  PostgreSQL: not installed (make postgres); no figures")
            return
        t0 = time.perf_counter()
        primary = postgres.Node.primary()
        nodes = [primary]
        try:
            nodes.append(primary.standby())
            print("  PostgreSQL 15 primary + synchronous standby set up from nothing in %.1f s"
                  % (time.perf_counter() - t0))
            primary.create_database("ledger")
            figures("PostgreSQL, synchronous standby", postgres.pair_uri(primary, nodes[1], "ledger"), seconds)
        finally:
            for n in nodes:
                n.remove()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
