"""jackpot.leanmqtt, the bench's MQTT client for thousands of simulated tables: its framing against any split
of the byte stream, and tables on it against a real mosquitto that is SIGKILLed and stalled: every bet
their records locked is in the ledger once."""
import asyncio
import functools
import random
import struct
import time

from hypothesis import given, settings, strategies as st

from jackpot import leanmqtt
from jackpot.rig import LINK
from jackpot.simtable import SimTable


class FakeTransport:
    def __init__(self):
        self.out = bytearray()
        self.aborted = False

    def write(self, data):
        self.out += data

    def abort(self):
        self.aborted = True


class FakeLoop:
    def __init__(self):
        self.later = []

    def call_later(self, delay, fn):
        self.later.append(delay)


def publish(topic, payload, qos, pid=7):
    body = leanmqtt._str(topic) + (struct.pack("!H", pid) if qos else b"") + payload
    return leanmqtt._packet(0x30 | qos << 1, body)


def test_remaining_length_at_every_boundary_of_its_bytes():
    for n in (0, 1, 127, 128, 16383, 16384, 2097151, 2097152):
        packet = leanmqtt._packet(0x30, b"x" * n)
        size = len(packet) - n - 1
        assert size == (1 if n < 128 else 2 if n < 16384 else 3 if n < 2097152 else 4), n
        got = shift = 0
        for byte in packet[1:1 + size]:
            got |= (byte & 0x7F) << shift
            shift += 7
        assert got == n and packet[1 + size:] == b"x" * n


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.text(min_size=1, max_size=30), st.binary(max_size=300), st.sampled_from([0, 1])),
                min_size=1, max_size=6), st.randoms())
def test_publishes_come_out_whole_and_in_order_however_the_stream_is_cut(packets, rng):
    stream = b"".join(publish(t, p, q) + b"\xd0\x00" for t, p, q in packets)  # each with a PINGRESP after it
    proto = leanmqtt._Protocol(asyncio.new_event_loop())
    proto.connection_made(FakeTransport())
    at = 0
    while at < len(stream):
        step = rng.randint(1, 40)
        proto.data_received(stream[at:at + step])
        at += step
    got = [(m.topic.value, m.payload, m.qos) for m in proto.inbox]
    assert got == [(t, p, q) for t, p, q in packets]
    assert bytes(proto.transport.out) == b"\x40\x02\x00\x07" * sum(q for _, _, q in packets)  # a PUBACK a QoS 1
    assert not proto.buf
    proto.loop.close()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=40))
def test_the_keepalive_never_leaves_the_broker_a_silent_keepalive_and_drops_only_a_silent_broker(halves):
    """Each element: did the table read, did it write, in that half keepalive (a tick ends each). Writes: the
    half-ticks in which something reached the broker; the CONNECT at 0."""
    c = leanmqtt.Client(("127.0.0.1", 1), "t01", "pw", "tablectl-t01", keepalive=10)
    c.proto = leanmqtt._Protocol(FakeLoop())
    c.proto.connection_made(FakeTransport())
    writes, reads = [0], [0]
    pings = []
    for k, (read, wrote) in enumerate(halves, 1):
        if wrote:
            c.proto.write(b"\x30\x00")
            writes.append(k - 0.5)
        if read:
            c.proto.data_received(b"\xd0\x00")
            reads.append(k - 0.5)
        before = len(c.proto.transport.out)
        c._tick()
        if c.proto.transport.aborted:
            # a PINGREQ went at least a keepalive (two halves) ago and nothing was read since
            assert pings and pings[-1] <= k - 2 and reads[-1] < pings[-1], (k, pings, reads)
            return
        assert c.proto.loop.later[-1] == 5  # the next tick half a keepalive on
        if len(c.proto.transport.out) > before:
            assert bytes(c.proto.transport.out[before:]) == b"\xc0\x00"
            pings.append(k)
            writes.append(k)
        assert k - writes[-1] <= 2  # never silent toward the broker for more than a keepalive (it drops at 1.5)
        assert k - reads[-1] < 3.5  # a broker silent for 1.5 keepalives after a PINGREQ: dropped


def test_tables_on_it_survive_a_killed_and_a_stalled_broker_nothing_lost_or_doubled(make_link):
    tables = ["t%02d" % i for i in range(1, 6)]
    link = make_link(tables)
    mqtt = functools.partial(leanmqtt.client, keepalive=1)  # a stalled broker is noticed within 2 s
    sims = [SimTable(t, LINK, [("127.0.0.1", link.broker.port)], link.password(t), link.folder / ("%s.json" % t),
                     beat_ms=200, down_ms=1500, resend_ms=500, pay_after_s=0.2, mqtt=mqtt) for t in tables]

    async def until(check, what, timeout=60):
        deadline = time.monotonic() + timeout
        while not check():
            assert time.monotonic() < deadline, what
            await asyncio.sleep(0.05)

    async def scenario():
        stop = asyncio.Event()
        runs = [asyncio.ensure_future(t.run(stop)) for t in sims]
        await until(lambda: all(t.up for t in sims), "tables up")
        halt = link.folder / "stop-play"
        plays = [asyncio.ensure_future(t.play(stop, 0.1, random.Random(i), hit_every=10, until=str(halt)))
                 for i, t in enumerate(sims)]
        await until(lambda: all(t.state["round"] >= 5 for t in sims), "rounds before the kill")
        link.broker.kill()
        await asyncio.sleep(0.5)
        link.broker.start()
        await until(lambda: all(t.up for t in sims), "tables up after the kill")
        rounds = [t.state["round"] for t in sims]
        await until(lambda: all(t.state["round"] >= r + 5 for t, r in zip(sims, rounds)), "rounds after the kill")
        connected = [t.client for t in sims]
        link.broker.pause()
        try:  # each table's connection dropped by the client itself: no read for two keepalives
            await until(lambda: all(t.client is not c for t, c in zip(sims, connected)), "stall noticed")
        finally:
            link.broker.pause(False)
        await until(lambda: all(t.up for t in sims), "tables up after the stall")
        halt.write_text("stop")
        await until(lambda: all(not t.state["out"] and not t.state["claims"] for t in sims), "outboxes empty")
        stop.set()
        await asyncio.gather(*(runs + plays), return_exceptions=True)

    asyncio.run(scenario())
    st_ = link.status()["links"][LINK]
    assert st_["balance_off"] == 0 and st_["pending"] == []
    for t in sims:
        meters = st_["tables"][t.table]
        assert (meters["bets"], meters["contributed"] > 0) == (t.state["bets"], True), t.table
        assert meters["messages"] == t.state["seq"] and meters["refused"] == 0, t.table
