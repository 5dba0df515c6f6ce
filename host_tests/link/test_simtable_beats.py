"""Simulated tables that connect together (a bench process's start, a broker's restart) send their own heartbeats
at spread phases, not in one burst a period: unanswered never further apart than the period, answered (or
a message of theirs taken) 50-100% of keep_ms apart, as the firmware's: on a virtual clock, no network."""
import asyncio
import types

from jackpot import simtable
from jackpot.simtable import SimTable

PERIOD_MS = 1000
TABLES = 100
STEP = 0.002  # virtual seconds a step


KEEP_MS = 4000


class Beats:
    def __init__(self, clock, answer):
        self.clock = clock
        self.answer = answer  # each beat answered as it goes
        self.at = []  # (virtual time, table)

    def client(self, table):
        beats = self

        class Client:
            async def publish(self, topic, payload, qos=0):
                beats.at.append((beats.clock[0], table.table))
                if beats.answer:
                    table._answered({"beat": 1})
        return Client()


def beat_times(monkeypatch, tmp_path, answer, periods):
    """{table: [virtual seconds of its own beats]} of TABLES tables started together."""
    clock = [0.0]
    monkeypatch.setattr(simtable, "time", types.SimpleNamespace(monotonic=lambda: clock[0]))
    beats = Beats(clock, answer)
    tables = [SimTable("t%03d" % i, "pit1", [("127.0.0.1", 1)], "pw", tmp_path / ("t%03d.json" % i), beat_ms=0,
                       own_beat_ms=PERIOD_MS, keep_ms=KEEP_MS) for i in range(TABLES)]

    async def run():
        tasks = [asyncio.ensure_future(t._beat(beats.client(t))) for t in tables]  # all at virtual 0
        while clock[0] < periods:
            await asyncio.sleep(0)  # each table's pass (beat_ms 0) runs once a step
            clock[0] += STEP
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(run())
    by_table = {}
    for at, tid in beats.at:
        by_table.setdefault(tid, []).append(at)
    return by_table


def test_answered_tables_beat_half_to_all_of_keep_ms_apart_at_spread_phases(monkeypatch, tmp_path):
    by_table = beat_times(monkeypatch, tmp_path, True, 3 * KEEP_MS / 1000)
    assert len(by_table) == TABLES and all(ats[0] == 0 for ats in by_table.values())
    gaps = [b - a for ats in by_table.values() for a, b in zip(ats, ats[1:])]
    assert min(gaps) >= KEEP_MS / 2000 and max(gaps) <= KEEP_MS / 1000 + 2 * STEP, (min(gaps), max(gaps))
    tenths = set(int((ats[1] - KEEP_MS / 2000) / (KEEP_MS / 2000) * 10) for ats in by_table.values())
    assert len(tenths) >= 9, sorted(tenths)


def test_a_message_taken_puts_the_own_beat_off_and_a_refusal_does_not(tmp_path):
    t = SimTable("t001", "pit1", [("127.0.0.1", 1)], "pw", tmp_path / "t001.json", keep_ms=KEEP_MS)
    t._answered({"seq": 7, "error": "bets: not a list"})
    assert t.last_own < 0 and t.next_own == 0
    t._answered({"seq": 7, "ok": "contrib", "cents": 5, "pool": 5, "ver": 1})
    now = simtable.time.monotonic()
    assert now - 1 < t.last_own <= now and KEEP_MS / 2000 <= t.next_own - t.last_own <= KEEP_MS / 1000
    assert t.up is False and t.down_why() == "not connected"  # the link's own beat is another matter


def test_tables_connected_together_beat_at_spread_phases_within_the_period(monkeypatch, tmp_path):
    by_table = beat_times(monkeypatch, tmp_path, False, 5 * PERIOD_MS / 1000)
    assert len(by_table) == TABLES and all(ats[0] == 0 for ats in by_table.values())  # the first at once: up soon
    # a later period's beats fall in at least 9 of its 10 tenths (in one burst they would all fall in one)
    tenths = set(int((ats[2] % (PERIOD_MS / 1000)) * 10) for ats in by_table.values())
    assert len(tenths) >= 9, sorted(tenths)
    # and no table waits longer than a period between two beats (its link is down after 3 unanswered)
    gaps = [b - a for ats in by_table.values() for a, b in zip(ats, ats[1:])]
    assert max(gaps) <= PERIOD_MS / 1000 + 2 * STEP and min(gaps) > 0
