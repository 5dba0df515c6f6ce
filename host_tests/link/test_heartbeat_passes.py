"""The server's passes of heartbeats alone (jackpot.server): answered without a commit of their own (a commit costs
an fsync; 2,000 tables send 400 heartbeats a second), the tables' last message times kept and written with the
next transaction, and every meter_every_s when no money comes."""
import asyncio
import time

from jackpot.broker import SERVER_USER, Broker
from jackpot.ledgerdb import connect
from jackpot.rig import GAME, LINK
from jackpot.server import JackpotServer
from jackpot.simtable import SimTable

TABLES = ("t01", "t02", "t03")


async def until(cond, what, timeout=30):
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.02)


def last_at(db):
    return dict(connect(db, readonly=True).execute("SELECT tbl, last_at FROM tablemeter").fetchall())


async def scenario(broker, db, folder):
    srv = JackpotServer(db, {LINK: GAME}, dict((t, LINK) for t in TABLES), [("127.0.0.1", broker.port)],
                        SERVER_USER, broker.password(SERVER_USER))
    srv.meter_every_s = 3600
    stop = asyncio.Event()
    tables = [SimTable(t, LINK, [("127.0.0.1", broker.port)], broker.password(t), folder / ("%s.json" % t),
                       own_beat_ms=200) for t in TABLES]
    tasks = [asyncio.ensure_future(srv.run(stop))] + [asyncio.ensure_future(t.run(stop)) for t in tables]
    seen = {}
    try:
        # up: each table's own heartbeat answered (and the link's heard); three beats a table at least
        await until(lambda: all(t.up for t in tables) and srv.stats["beats"] >= 3 * len(TABLES), "no beats answered")
        seen["beats alone"] = (srv.stats["batches"], last_at(db))
        seq = tables[0].lock({1: 2500})
        await tables[0].answer(seq)
        seen["a lock"] = (srv.stats["batches"], last_at(db))
        srv.meter_every_s = 0  # now every pass of beats writes the times
        times = seen["a lock"][1]
        await until(lambda: all(v > times[t] for t, v in last_at(db).items()), "no commit of beats alone")
        seen["meters due"] = (srv.stats["messages"], srv.stats["batches"])
    finally:
        stop.set()
        await asyncio.gather(*tasks)
    return seen


def test_heartbeats_alone_commit_nothing_until_their_times_are_due(ledger_at, tmp_path):
    with Broker(tmp_path / "broker", dict((t, LINK) for t in TABLES)) as broker:
        seen = asyncio.run(asyncio.wait_for(scenario(broker, ledger_at, tmp_path), 90))
    assert seen["beats alone"] == (0, {})  # answered, nothing written
    batches, times = seen["a lock"]
    assert batches == 1 and sorted(times) == list(TABLES)  # the beats' times went with the lock's transaction
    assert all(times[t] is not None for t in TABLES)
    messages, later = seen["meters due"]
    assert messages == 1 and later > batches  # later beats' times written, with no money in their passes
