"""A linked table's own heartbeats after a broker's restart (every table of a pit connects again at one moment)
go at a random phase, not in one burst every period from then on: answered, 50-100% of KEEP_MS apart;
unanswered, never further apart than BEAT_MS. The connection task run against a fake connection on a
virtual clock, no network (CPython and the unix port)."""
# mp-heap: 308K
import asyncio

import tablectl.link as linkmod
import tablectl.linkwire as wire
from harness.tables import cleanup, new_app
from tablectl.link import BEAT_MS, KEEP_MS, RESEND_MS, TICK_MS

LINK = "mqtt://t01:secret@127.0.0.1:1883/pit1"
TABLES = 12
RESTART_MS = 7300  # the broker's restart: every table's connection drops at this moment of the virtual clock


class Broker:
    """The fake connection's side: answers each own beat (or none: `answer`), the link's beat every 500 ms,
    drops at RESTART_MS, ends at `end_ms`."""

    def __init__(self, app, answer, end_ms):
        self.app = app
        self.answer = answer
        self.end_ms = end_ms
        self.clock = app.board.clock
        self.beats = []      # virtual ms of the table's own beats
        self.connects = []   # virtual ms of each connection
        self.dropped = False

    def connection(self, host, port, client_id, user, password, ssl_context, on_message,
                   keepalive=wire.KEEPALIVE_S):
        broker = self

        class Fake:
            async def open(self, timeout_ms):
                broker.connects.append(broker.clock.now)

            def subscribe(self, topic):
                pass

            def publish(self, topic, payload, qos=0):
                if topic.endswith(b"/beat"):
                    broker.beats.append(broker.clock.now)
                    if broker.answer:
                        on_message(b"tablectl/pit1/table/t01/ack", b'{"beat":1}')

            async def flush(self, ms):
                pass

            async def receive(self, ms, deliver=True):
                broker.clock.advance(ms)
                now = broker.clock.now
                if now % 500 < ms:
                    on_message(b"tablectl/pit1/beat", b'{"beat":1,"pool":25000000,"ver":1,"pending":[]}')
                if now >= RESTART_MS and not broker.dropped:
                    broker.dropped = True
                    raise OSError("the broker restarted")
                if now >= broker.end_ms:
                    broker.app.controller = None  # ends run()
                    raise OSError("the test's end")
                await asyncio.sleep(0)

            def close(self):
                pass
        return Fake()


async def advancing(ms, clock):
    clock.advance(ms)  # the task's pause between two connections, on the virtual clock
    await asyncio.sleep(0)


def beats_of_one_table(answer, end_ms):
    app = new_app("caribbean_stud", link=LINK)
    broker = Broker(app, answer, end_ms)
    c = app.controller
    wire.Connection = broker.connection
    linkmod.sleep_ms = lambda ms: advancing(ms, broker.clock)
    try:
        asyncio.run(c.run())
    finally:
        app.controller = c
        cleanup()
    broker.app = broker.clock = None  # the next table's App gets the heap (this one's runs are kept)
    return broker


def beats_after_the_restart(answer, end_ms):
    """Each table's own beats from its connection after the broker's restart: [[virtual ms, ...], ...]."""
    real = (wire.Connection, linkmod.sleep_ms)
    try:
        runs = [beats_of_one_table(answer, end_ms) for _ in range(TABLES)]
    finally:
        wire.Connection, linkmod.sleep_ms = real
    out = []
    for broker in runs:
        assert len(broker.connects) == 2  # the first connection and the one after the restart
        again = broker.connects[1]
        after = [t - again for t in broker.beats if t >= again]
        assert after[0] == 0  # the first beat of a connection at once: the table is up when it is answered
        out.append(after)
    return out


def spread(phases, period):
    """In how many tenths of `period` the phases fall (in one burst they would all fall in one)."""
    return len(set(p * 10 // period for p in phases))


def test_unanswered_heartbeats_after_a_broker_restart_go_at_spread_phases_within_beat_ms():
    runs = beats_after_the_restart(False, RESTART_MS + 4 * BEAT_MS)
    for after in runs:
        gaps = [b - a for a, b in zip(after, after[1:])]
        assert len(gaps) >= 3 and min(gaps) > 0 and max(gaps) <= BEAT_MS, gaps  # down after OWN_MS unanswered
    assert spread([after[2] % BEAT_MS for after in runs], BEAT_MS) >= 3, runs


def test_answered_heartbeats_wait_half_to_all_of_keep_ms_at_spread_phases():
    runs = beats_after_the_restart(True, RESTART_MS + 3 * KEEP_MS)
    for after in runs:
        gaps = [b - a for a, b in zip(after, after[1:])]
        # the pass that finds a beat due comes up to a tick after it was due
        assert len(gaps) >= 2 and min(gaps) >= KEEP_MS // 2 and max(gaps) <= KEEP_MS + TICK_MS, gaps
        # umqtt sends no PINGREQ: a broker drops a table silent for 1.5 keepalives (a resend every RESEND_MS
        # covers a message waiting for its answer)
        assert max(gaps) + RESEND_MS < wire.KEEPALIVE_S * 1500
    assert spread([after[1] - KEEP_MS // 2 for after in runs], KEEP_MS // 2) >= 3, runs
