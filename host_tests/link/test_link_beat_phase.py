"""A linked table's own heartbeats after a broker's restart (every table of a pit connects again at one moment)
go at a random phase of BEAT_MS, not in one burst every period from then on, and never further apart than
BEAT_MS: the connection task run against a fake connection on a virtual clock, no network (CPython and the
unix port)."""
# mp-heap: 308K
import asyncio

import tablectl.link as linkmod
import tablectl.linkwire as wire
from harness.tables import cleanup, new_app
from tablectl.link import BEAT_MS

LINK = "mqtt://t01:secret@127.0.0.1:1883/pit1"
TABLES = 12
RESTART_MS = 7300  # the broker's restart: every table's connection drops at this moment of the virtual clock
END_MS = RESTART_MS + 4 * BEAT_MS


class Broker:
    """The fake connection's side: answers each own beat, the link's beat every 500 ms, drops at RESTART_MS."""

    def __init__(self, app):
        self.app = app
        self.clock = app.board.clock
        self.beats = []      # virtual ms of the table's own beats
        self.connects = []   # virtual ms of each connection
        self.dropped = False

    def connection(self, host, port, client_id, user, password, ssl_context, on_message, keepalive=30):
        broker = self

        class Fake:
            async def open(self, timeout_ms):
                broker.connects.append(broker.clock.now)

            def subscribe(self, topic):
                pass

            def publish(self, topic, payload, qos=0):
                if topic.endswith(b"/beat"):
                    broker.beats.append(broker.clock.now)
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
                if now >= END_MS:
                    broker.app.controller = None  # ends run()
                    raise OSError("the test's end")
                await asyncio.sleep(0)

            def close(self):
                pass
        return Fake()


async def advancing(ms, clock):
    clock.advance(ms)  # the task's pause between two connections, on the virtual clock
    await asyncio.sleep(0)


def beats_of_one_table():
    app = new_app("caribbean_stud", link=LINK)
    broker = Broker(app)
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


def test_heartbeats_after_a_broker_restart_go_at_spread_phases_within_the_period():
    real = (wire.Connection, linkmod.sleep_ms)
    try:
        runs = [beats_of_one_table() for _ in range(TABLES)]
    finally:
        wire.Connection, linkmod.sleep_ms = real
    phases = []
    for broker in runs:
        assert len(broker.connects) == 2  # the first connection and the one after the restart
        again = broker.connects[1]
        after = [t for t in broker.beats if t >= again]
        assert after[0] == again  # the first beat of a connection at once: the table is up when it is answered
        gaps = [b - a for a, b in zip(after, after[1:])]
        assert min(gaps) > 0 and max(gaps) <= BEAT_MS, gaps  # its link is down after OWN_MS unanswered
        phases.append((after[2] - again) % BEAT_MS)
    # in one burst every table's later beats would fall in one tenth of the period; spread, in several
    tenths = set(p * 10 // BEAT_MS for p in phases)
    assert len(tenths) >= 3, sorted(phases)
