"""The CPython table (jackpot.simtable) without a broker, its publishes recorded: after a fault only the oldest
unanswered message goes again, at a backoff with jitter and a cap, and its answer brings the rest; the
record is written once for the answers of a pass; the pool is taken from the link's beat (no pool
topic). What made 100 tables in one process fall behind on a loaded machine (docs/link.md, Tests)."""
import asyncio
import json
import random
import time
import types

from jackpot import protocol, simtable
from jackpot.simtable import JITTER, RESEND_CAP, SimTable


def table(tmp_path, **kw):
    t = SimTable("t01", "pit1", [("127.0.0.1", 1)], "pw", tmp_path / "t01.json", **kw)
    t.published = []

    async def publish(topic, payload, qos):
        t.published.append(json.loads(payload)["seq"])
    t._publish = publish
    t.client = object()  # connected, as far as _send can tell
    t.last_beat_ack = t.last_own = 1e12  # the link's beat heard (for ever): LOCK is taken
    return t


def run(coro):
    return asyncio.run(coro)


def answer(t, seq, ok="contrib"):
    t._answered({"seq": seq, "ok": ok, "cents": 0, "pool": 1, "ver": seq})


def test_only_the_oldest_goes_again_and_its_answer_brings_what_followed_it(tmp_path):
    async def go():
        t = table(tmp_path)
        for _ in range(3):
            t.lock({1: 2500})
        await asyncio.sleep(0)
        assert t.published == [1, 2, 3]
        t.published.clear()
        for seq in t.sent_at:  # sent a while ago, all three
            t.sent_at[seq] -= t.wait_s - 0.05
        t._resend(time.monotonic())
        await asyncio.sleep(0)
        assert t.published == []  # not yet
        for seq in t.sent_at:
            t.sent_at[seq] -= 0.1
        t._resend(time.monotonic())
        await asyncio.sleep(0)
        assert t.published == [1]  # the oldest alone, not the outbox
        t.lock({2: 2500})  # sent after the resend: it follows the oldest, in order
        await asyncio.sleep(0)
        t.published.clear()
        answer(t, 1)
        await asyncio.sleep(0)
        # 2 and 3 went before the resend (the server may have dropped them as early): again now, in order
        assert t.published == [2, 3]
        assert [m[1]["seq"] for m in t.state["out"]] == [2, 3, 4]
    run(go())


def test_no_resend_after_an_answer_in_order(tmp_path):
    async def go():
        t = table(tmp_path)
        t.lock({1: 2500})
        t.lock({1: 2500})
        await asyncio.sleep(0)
        t.published.clear()
        answer(t, 1)  # answered without a resend: the next is not sent again at once
        await asyncio.sleep(0)
        assert t.published == []
    run(go())


def test_the_backoff_doubles_to_its_cap_with_jitter(tmp_path):
    async def go():
        t = table(tmp_path, resend_ms=1000)
        t.rng = random.Random(5)
        t.lock({1: 2500})
        now = t.sent_at[1]
        waits = []
        for _ in range(8):
            waits.append(t.wait_s)
            now += t.wait_s + 1e-6
            t._resend(now)
            assert t.sent_at[1] == now
        await asyncio.sleep(0)
        assert len(t.published) == 9
        for n, w in enumerate(waits):
            base = min(2 ** n, RESEND_CAP)
            assert base * (1 - JITTER) <= w <= base * (1 + JITTER), (n, w)
        assert max(waits) <= RESEND_CAP * (1 + JITTER)
        answer(t, 1)
        assert t.resends == 0 and t.wait_s <= 1 + JITTER  # the next message starts again at resend_ms
    run(go())


def test_tables_that_lost_their_answers_together_do_not_resend_together(tmp_path):
    async def go():
        waits = []
        for i in range(100):
            t = table(tmp_path)
            t.rng = random.Random(i)
            waits.append(t.wait_s)
        # spread over most of the jitter's width: not one moment for every table
        assert max(waits) - min(waits) > 1.5 * JITTER * simtable.RESEND_MS / 1000
    run(go())


def test_the_answers_of_a_pass_are_saved_once(tmp_path):
    async def go():
        t = table(tmp_path)
        for _ in range(10):
            t.lock({1: 2500})
        saves = []
        save = t.save
        t.save = lambda: (saves.append(1), save())
        for seq in range(1, 11):
            answer(t, seq)
        assert saves == []  # not one each
        for _ in range(500):  # until the timer has run (bounded)
            if saves:
                break
            await asyncio.sleep(0.01)
        assert saves == [1]
        assert json.loads((tmp_path / "t01.json").read_text())["out"] == []
    run(go())


def test_a_message_is_in_the_record_before_it_is_sent(tmp_path):
    async def go():
        t = table(tmp_path)
        path = tmp_path / "t01.json"
        send = t._send

        def checked(kind, body, now=None):
            assert body["seq"] in [m[1]["seq"] for m in json.loads(path.read_text())["out"]]
            send(kind, body, now)
        t._send = checked
        t.lock({1: 2500})
        answer(t, 1)  # its save comes later; the next message's save holds the answer too
        t.lock({1: 2500})
        await asyncio.sleep(0)
        assert t.published == [1, 2]
        assert [m[1]["seq"] for m in json.loads(path.read_text())["out"]] == [2]
    run(go())


class FakeClient:
    def __init__(self, messages):
        self.subscribed = []
        self._messages = messages

    async def subscribe(self, topic, qos=0):
        self.subscribed.append(topic)
        return [qos]

    @property
    def messages(self):
        async def gen():
            for m in self._messages:
                yield m
        return gen()


def message(topic, body, retain=False):
    return types.SimpleNamespace(topic=types.SimpleNamespace(value=topic), payload=json.dumps(body).encode(),
                                 retain=retain)


def test_the_pool_comes_with_the_link_beat_and_the_pool_topic_is_not_read(tmp_path, monkeypatch):
    beat = protocol.link_beat_topic("pit1")
    msgs = [message(beat, {"beat": 1, "pool": 500000, "ver": 7, "pending": [{"table": "t02", "seat": 4}]}),
            message(beat, {"beat": 2, "pool": 400000, "ver": 6, "pending": []})]  # an older pool: not shown
    client = FakeClient(msgs)

    class Connect:
        async def __aenter__(self):
            return client

        async def __aexit__(self, *exc):
            return False
    monkeypatch.setattr(protocol, "client", lambda *a, **kw: Connect())

    async def go():
        t = SimTable("t01", "pit1", [("127.0.0.1", 1)], "pw", tmp_path / "t01.json", qos=0)
        stop = asyncio.Event()

        async def own_beat(c):
            await stop.wait()
        t._beat = own_beat
        task = asyncio.ensure_future(t.run(stop))
        for _ in range(100):
            await asyncio.sleep(0)
        stop.set()
        await task
        assert protocol.pool_topic("pit1") not in client.subscribed
        assert beat in client.subscribed
        assert (t.pool["pool"], t.pool["ver"]) == (500000, 7)
        assert [p["table"] for p in t.pending] == ["t02"]
    run(go())
