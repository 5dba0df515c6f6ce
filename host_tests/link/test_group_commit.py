"""The server's group commit (jackpot.server: a batch's transaction in a thread while the loop reads the next): a
pass cut off mid-commit by a lost broker is finished before the next one starts on the ledger's connection, its
messages are answered when the tables send them again, and every bet counts once (SQLite and PostgreSQL)."""
import asyncio
import random
import threading
import time

from jackpot.broker import SERVER_USER, Broker
from jackpot.ledger import Ledger, link_view
from jackpot.rig import GAME, LINK
from jackpot.server import JackpotServer
from jackpot.simtable import SimTable

TABLES = ("t01", "t02", "t03", "t04")


async def until(cond, what, timeout=30):
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, what() if callable(what) else what
        await asyncio.sleep(0.02)


async def scenario(broker, db, folder):
    srv = JackpotServer(db, {LINK: GAME}, dict((t, LINK) for t in TABLES), [("127.0.0.1", broker.port)],
                        SERVER_USER, broker.password(SERVER_USER))
    held, release = threading.Event(), threading.Event()
    commit = srv.ledger.db.commit

    def held_commit():  # the first pass with money in it stops before its COMMIT: the disk that does not sync
        if not held.is_set() and srv.ledger._dirty:
            held.set()
            release.wait(60)
        commit()

    srv.ledger.db.commit = held_commit
    stop, played = asyncio.Event(), asyncio.Event()
    tables = [SimTable(t, LINK, [("127.0.0.1", broker.port)], broker.password(t), folder / ("%s.json" % t),
                       own_beat_ms=300, resend_ms=1000) for t in TABLES]
    tasks = [asyncio.ensure_future(srv.run(stop))] + [asyncio.ensure_future(t.run(stop)) for t in tables]
    await until(lambda: all(t.up for t in tables), "the tables did not come up")
    plays = [asyncio.ensure_future(t.play(played, 0.05, random.Random(i), hit_every=5)) for i, t in enumerate(tables)]
    await until(held.is_set, "no pass reached its commit")
    await asyncio.to_thread(broker.kill)  # the pass's answers cannot go out now: the server reconnects
    await until(lambda: not srv.stats["connected"], "the server did not see the broker go")
    await asyncio.to_thread(broker.start)
    # the tables resend what is unanswered on their new connection: the server, connected again, must wait
    # for the held commit before it reads them, not open a transaction beside it
    await until(lambda: srv.stats["connected"] and all(t.client for t in tables), "no connection after the cut")
    await asyncio.sleep(0.3)
    release.set()
    await asyncio.sleep(1.0)  # play on after the cut
    played.set()
    await asyncio.gather(*plays)
    await until(lambda: not any(t.state["out"] for t in tables), lambda: ("messages left unanswered", srv.stats, [t.state["out"] for t in tables]))
    stop.set()
    await asyncio.gather(*tasks)
    return srv, tables


def test_a_pass_cut_mid_commit_finishes_before_the_next_and_every_bet_counts_once(ledger_at, tmp_path):
    with Broker(tmp_path / "broker", dict((t, LINK) for t in TABLES)) as broker:
        srv, tables = asyncio.run(asyncio.wait_for(scenario(broker, ledger_at, tmp_path), 120))
    assert srv.stats["failures"] == 0  # no transaction was opened beside the held one
    assert srv.stats["duplicates"] >= 1  # the held pass committed, unanswered: answered from the ledger
    led = Ledger(ledger_at, {LINK: GAME}, dict((t, LINK) for t in TABLES))
    for t in tables:
        bets, cents = led.db.execute("SELECT bets, contributed FROM tablemeter WHERE tbl = ?", (t.table,)).fetchone()
        rows = led.db.execute("SELECT COUNT(*) FROM message WHERE tbl = ? AND kind = 'contrib' AND ok = 1",
                              (t.table,)).fetchone()[0]
        assert (rows, bets) == (t.state["round"], t.state["bets"]), t.table
    assert link_view(led.db, LINK)["balance_off"] == 0
