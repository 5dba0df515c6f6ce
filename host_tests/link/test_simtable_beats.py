"""Simulated tables that connect together (a bench process's start, a broker's restart) send their own heartbeats
at spread phases, not in one burst a period, and never further apart than the period: on a virtual clock, no
network."""
import asyncio
import types

from jackpot import simtable
from jackpot.simtable import SimTable

PERIOD_MS = 1000
TABLES = 100
STEP = 0.002  # virtual seconds a step


class Beats:
    def __init__(self, clock):
        self.clock = clock
        self.at = []  # (virtual time, table)

    def client(self, tid):
        beats = self

        class Client:
            async def publish(self, topic, payload, qos=0):
                beats.at.append((beats.clock[0], tid))
        return Client()


def test_tables_connected_together_beat_at_spread_phases_within_the_period(monkeypatch, tmp_path):
    clock = [0.0]
    monkeypatch.setattr(simtable, "time", types.SimpleNamespace(monotonic=lambda: clock[0]))
    beats = Beats(clock)
    tables = [SimTable("t%03d" % i, "pit1", [("127.0.0.1", 1)], "pw", tmp_path / ("t%03d.json" % i), beat_ms=0,
                       own_beat_ms=PERIOD_MS) for i in range(TABLES)]

    async def run():
        tasks = [asyncio.ensure_future(t._beat(beats.client(t.table))) for t in tables]  # all at virtual 0
        while clock[0] < 5 * PERIOD_MS / 1000:
            await asyncio.sleep(0)  # each table's pass (beat_ms 0) runs once a step
            clock[0] += STEP
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(run())
    by_table = {}
    for at, tid in beats.at:
        by_table.setdefault(tid, []).append(at)
    assert len(by_table) == TABLES and all(ats[0] == 0 for ats in by_table.values())  # the first at once: up soon
    # a later period's beats fall in at least 9 of its 10 tenths (in one burst they would all fall in one)
    tenths = set(int((ats[2] % (PERIOD_MS / 1000)) * 10) for ats in by_table.values())
    assert len(tenths) >= 9, sorted(tenths)
    # and no table waits longer than a period between two beats (its link is down after 3 unanswered)
    gaps = [b - a for ats in by_table.values() for a, b in zip(ats, ats[1:])]
    assert max(gaps) <= PERIOD_MS / 1000 + 2 * STEP and min(gaps) > 0
