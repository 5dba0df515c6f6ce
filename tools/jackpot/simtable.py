"""A table in CPython that speaks the link's protocol as the firmware does: for `make link`, the tests and the bench.

    t = SimTable('t01', 'pit1', brokers=[('127.0.0.1', port)], password=pw, state_path='t01.json')
    task = asyncio.ensure_future(t.run(stop))
    t.up                     # the link's heartbeat heard within down_ms, something it sent answered within keep + 2 beats
    seq = t.lock({2: 2500, 5: 2500})    # LinkDown when the link is down (the firmware's LOCK refused: LINK DOWN)
    seq = t.hit([[5, 'royal_flush']]); awards = await t.answer(seq); t.paid(seq)
    await t.play(stop, every_s=10, rng=random.Random(1))     # rounds with random seats, a hit now and then

Its record (state_path, JSON, written to a temporary file and renamed, so a kill leaves the old or the new
one) holds the epoch, the sequence number, the round, every message the server has not answered, and the
table's own totals (bets and cents it locked). A message is in the record before it is sent; it leaves
the record when its answer comes (the record written once for the answers of a pass). On every
(re)connection the unanswered messages are sent again in order; otherwise only the oldest goes again,
after resend_ms, doubled to RESEND_CAP times it while unanswered, with jitter, and its answer brings the
rest sent before it: the server answers duplicates with the answer they had, so nothing counts twice.
It reads its answers and the link's beat (which carries the pool), not the retained pool topic.
"""
import asyncio
import json
import os
import random
import time

import aiomqtt

from jackpot import protocol

BEAT_MS = 500       # the pass that resends what is unanswered
OWN_BEAT_MS = 5000  # the table's own heartbeat while nothing it sent is answered; the link's comes every 0.5 s
KEEP_MS = 30000     # once something it sent is answered: the next own heartbeat 50-100% of this later (the firmware's)
DOWN_MS = 3000
RESEND_MS = 1500
RESEND_CAP = 2      # the backoff's longest wait, in resend_ms: a fault over, a table waits at most this for its answer
JITTER = 0.25
SAVES = [0, 0.0]     # the records written by this process's tables, and the seconds it took (the chaos run's figure)
SAVE_AFTER_S = 0.05  # the record's save after answers gathers those of this long


class LinkDown(RuntimeError):
    pass


class SimTable:
    def __init__(self, table, link, brokers, password, state_path, ca_file=None, beat_ms=BEAT_MS, down_ms=DOWN_MS,
                 resend_ms=RESEND_MS, pay_after_s=None, own_beat_ms=OWN_BEAT_MS, qos=1, mqtt=None, keep_ms=KEEP_MS):
        self.table = table
        self.link = link
        self.brokers = list(brokers)  # tried in turn: the next after a lost connection
        self.turn = 0
        self.password = password
        self.state_path = str(state_path)
        self.ca_file = ca_file
        self.beat_ms = beat_ms
        self.down_ms = down_ms
        self.resend_ms = resend_ms
        self.resends = 0        # the outbox's oldest message sent again this many times unanswered (its backoff)
        self.resend_at = 0.0    # when the oldest went again last: what was sent before then goes again after it
        self.rng = random.Random()
        self.wait_s = self.resend_wait()  # the oldest's wait now (resend_wait)
        self._save_later = None  # the timer of the record's next save after answers (one for many)
        # its messages and its answers' subscription: 0 on a nats cluster, where QoS 1 goes through JetStream
        # (a consumer made at every login; a publish the node stores before it reads the next packet, which
        # waits for a stream's new leader seconds after a node's death); the record resends what is lost
        self.qos = qos
        self.pay_after_s = pay_after_s  # not None: the dealer pays a confirmed hit this long after (play)
        # protocol.client's signature; the bench's thousands of tables take jackpot.leanmqtt's, cheaper than paho
        self.mqtt = mqtt or protocol.client
        self.state = self._load()
        self.client = None
        self.last_beat_ack = -1e9  # the server's heartbeat last heard (monotonic)
        self.last_own = -1e9       # something the table sent (its own heartbeat, a message) last answered
        self.own_beat_ms = own_beat_ms
        self.keep_ms = keep_ms
        self.next_own = 0.0        # when its own heartbeat is due (monotonic)
        self.pool = None        # the last pool message (dict)
        self.answers = {}       # seq -> answer, for those asked with answer()
        self.waiting = {}       # seq -> asyncio.Future
        self.sent_at = {}       # seq -> monotonic time of the last send
        self.queued_at = {}     # seq -> monotonic time it was queued (the lock), until its answer
        self.oldest_at = time.monotonic()  # when the outbox's oldest message became the one waiting
        self.beat_n = 0
        self.on_answer = []     # fn(seq, answer, monotonic time)
        self.sent = 0           # messages published (resends too)
        self.received = 0       # messages read (answers, beats)
        # the tables that hear the link's beat and pool through this one (the bench's processes of hundreds
        # of tables: each subscribing would read 2 beats and 5 pools a second a table); [] on those others
        self.group = [self]
        self.events = None      # a list: the link's events, (monotonic time, what), for the chaos run's breakdown

    # -- the record ---------------------------------------------------------------------------
    def _load(self):
        try:
            with open(self.state_path) as f:
                return json.load(f)
        except FileNotFoundError:
            return {"ep": random.SystemRandom().randrange(1, 1 << 31), "seq": 0, "round": 0, "out": [],
                    "bets": 0, "bet_cents": 0, "claims": {}}

    def save(self):
        if self._save_later is not None:
            self._save_later.cancel()
            self._save_later = None
        t0 = time.monotonic()
        tmp = self.state_path + ".tmp"
        data = json.dumps(self.state)  # json.dump to a file takes the pure-Python encoder: 3 times the CPU
        with open(tmp, "w") as f:
            f.write(data)
        os.replace(tmp, self.state_path)
        SAVES[0] += 1
        SAVES[1] += time.monotonic() - t0

    # -- the link -----------------------------------------------------------------------------
    @property
    def up(self):
        return not self.down_why()

    def down_why(self):
        """'' while the link is up; else why not, the firmware's reasons (tablectl/link.py)."""
        now = time.monotonic()
        if (now - self.last_beat_ack) * 1000 >= self.down_ms:
            return "no server heartbeat" if self.client is not None else "not connected"
        if self.state["out"] and (now - self.oldest_at) * 1000 >= self.down_ms:
            return "message unanswered"
        if (now - self.last_own) * 1000 >= self.keep_ms + 2 * self.own_beat_ms:
            return "own heartbeat unanswered"
        return ""

    def _event(self, what):
        if self.events is not None:
            self.events.append((time.monotonic(), what))

    @property
    def pending(self):
        """The top awards of other tables waiting to be paid (JACKPOT PENDING on this table)."""
        if not self.pool:
            return []
        return [p for p in self.pool.get("pending", []) if p["table"] != self.table]

    def _topic(self, kind):
        return protocol.table_topic(self.link, self.table, kind)

    def _queue(self, kind, body):
        st = self.state
        st["seq"] += 1
        body = dict(body, ep=st["ep"], seq=st["seq"])
        if not st["out"]:
            self.oldest_at = time.monotonic()
        st["out"].append([kind, body])
        self.queued_at[st["seq"]] = time.monotonic()
        self.save()  # in the record before it is sent
        self._send(kind, body)
        return st["seq"]

    def _send(self, kind, body, now=None):
        if self.client is None:
            return
        self.sent_at[body["seq"]] = time.monotonic() if now is None else now
        self.sent += 1
        nowait = getattr(self.client, "publish_nowait", None)  # jackpot.leanmqtt: on the socket at the lock
        if nowait is None:
            asyncio.ensure_future(self._publish(self._topic(kind), protocol.encode(body), self.qos))
            return
        try:
            nowait(self._topic(kind), protocol.encode(body), self.qos)
        except aiomqtt.MqttError:
            pass  # the connection went: the record still holds it

    async def _publish(self, topic, payload, qos):
        try:
            await self.client.publish(topic, payload, qos=qos)
        except (aiomqtt.MqttError, AttributeError):
            pass  # the connection went: the record still holds it, it goes again on the next one

    def lock(self, bets, locked=None):
        """Lock this round's progressive bets {seat: cents}: the contribution message; LinkDown if the link is down."""
        if not self.up:
            raise LinkDown("LINK DOWN")
        st = self.state
        st["round"] += 1
        st["bets"] += len(bets)
        st["bet_cents"] += sum(bets.values())
        seats = sorted(set(bets) | set(locked or ()))
        return self._queue("contrib", {"round": st["round"], "bets": [[s, bets[s]] for s in sorted(bets)],
                                       "locked": seats})

    def hit(self, hits):
        return self._queue("hit", {"round": self.state["round"], "hits": hits})

    def paid(self, claim):
        """The awards of `claim` are paid: it leaves the record's unpaid claims with the message that says so."""
        self.state["claims"].pop(str(claim), None)
        return self._queue("paid", {"claim": claim})

    async def answer(self, seq, timeout=30):
        if seq in self.answers:
            return self.answers[seq]
        fut = self.waiting.setdefault(seq, asyncio.get_event_loop().create_future())
        return await asyncio.wait_for(asyncio.shield(fut), timeout)

    def _answered(self, body):
        now = time.monotonic()
        if "beat" in body:  # the answer to the table's own heartbeat
            self.last_beat_ack = now
            self._own_answered(now)
            return
        seq = body.get("seq")
        if seq is not None and "error" not in body:  # a message taken proves what a heartbeat's answer does
            self._own_answered(now)
        out = self.state["out"]
        if not any(m[1]["seq"] == seq for m in out):
            return  # an answer to a message already answered (a duplicate's)
        head = out[0][1]["seq"] == seq
        self.state["out"] = [m for m in out if m[1]["seq"] != seq]
        if head:
            self.oldest_at = now  # the next one waits from now
            if self.resends:
                # the server took the resent oldest: what followed it before that resend may have been
                # dropped as early (a gap before it); it goes again now, in order, not at the next backoff
                for kind, m in list(self.state["out"]):
                    if self.sent_at.get(m["seq"], 0) <= self.resend_at:
                        self._send(kind, m)
            self.resends = 0
            self.wait_s = self.resend_wait()
        if body.get("ok") == "hit":
            self.state["claims"][str(seq)] = body["awards"]  # confirmed, to be paid
        self._save_soon()
        if body.get("ok") == "hit" and self.pay_after_s is not None:
            asyncio.get_event_loop().call_later(self.pay_after_s, self._pay_once, seq)
        if len(self.answers) > 200:
            self.answers.clear()
        self.answers[seq] = body
        fut = self.waiting.pop(seq, None)
        if fut is not None and not fut.done():
            fut.set_result(body)
        for fn in self.on_answer:
            fn(seq, body, now)
        self.queued_at.pop(seq, None)

    def _own_answered(self, now):
        """Its publishes reach the server: its own heartbeat can wait (tablectl/link.py, KEEP_MS)."""
        self.last_own = now
        self.next_own = now + self.keep_ms / 1000 * random.uniform(0.5, 1.0)

    def _save_soon(self):
        """The record after answers: one write for the answers of a pass, not one each (a write and a
        rename in the tables' one loop; 100 tables answered at once after a fault stalled it for seconds).
        Losing it to a kill only sends those messages again, answered from the ledger as duplicates; a
        message itself is in the record before it is sent (save())."""
        if self._save_later is None:
            self._save_later = asyncio.get_event_loop().call_later(SAVE_AFTER_S, self.save)

    async def run(self, stop):
        """Connect, subscribe, resend, beat; again after every lost connection, until `stop` is set."""
        while not stop.is_set():
            self._event("connecting to :%d" % self.brokers[self.turn][1])
            try:
                async with self.mqtt(self.brokers[self.turn], self.table, self.password, "tablectl-" + self.table,
                                     self.ca_file, timeout=5, clean=self.qos == 0) as client:
                    self._event("connected")
                    await protocol.subscribe(client, self._topic("ack"), self.qos)
                    # not the retained pool topic (the signs'): the link's beat carries the pool, its version and
                    # what is pending every LINK_BEAT_S, an answer the pool it changed. Each server of a link
                    # sends its pool up to 5 times a second: with two servers that was 10 messages a second
                    # a table, 70% of what 100 tables in one process read, and the part that put them behind
                    # (every beat and answer late) on a loaded machine
                    if self.group:
                        await protocol.subscribe(client, protocol.link_beat_topic(self.link), 0)
                    self.client = client
                    self._event("subscribed")
                    if self.pay_after_s is not None:  # confirmed before a restart and not paid yet
                        for claim in list(self.state["claims"]):
                            asyncio.get_event_loop().call_later(self.pay_after_s, self._pay_once, int(claim))
                    for kind, body in list(self.state["out"]):  # what the server has not answered, in order
                        self._send(kind, body)
                    self.resends, self.resend_at = 0, time.monotonic()
                    self.wait_s = self.resend_wait()
                    tasks = [asyncio.ensure_future(f) for f in (self._receive(client), self._beat(client), stop.wait())]
                    done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
                    for t in tasks:
                        t.cancel()
                    for t in done:
                        if not t.cancelled() and t.exception():
                            self._event("lost: %s" % t.exception())
            except aiomqtt.MqttError as e:
                self._event("failed: %s" % e)
            self.client = None
            self.turn = (self.turn + 1) % len(self.brokers)
            if not stop.is_set():
                await asyncio.sleep(0.3)
        if self._save_later is not None:  # the last answers' record, before the loop that would write it ends
            self.save()

    async def _receive(self, client):
        async for msg in client.messages:
            self.received += 1
            try:
                body = json.loads(msg.payload)
            except ValueError:
                continue
            if msg.topic.value == protocol.link_beat_topic(self.link):
                now = time.monotonic()
                for t in self.group:
                    t.last_beat_ack = now
                    t._figures(body)
            else:
                self._answered(body)

    def _figures(self, beat):
        """The pool as the link's beat has it (pool, ver, pending), unless an older one than the pool held."""
        if self.pool is None or beat.get("ver", -1) >= self.pool.get("ver", -1):
            self.pool = dict(self.pool or {}, **dict((k, beat[k]) for k in ("pool", "ver", "pending") if k in beat))

    async def _beat(self, client):
        self.next_own = 0  # the first of a connection at once
        spread = (0.05, 1.0)  # the first period's: a random phase from the start
        while True:
            if time.monotonic() >= self.next_own:
                self.beat_n += 1
                # tables that connected together (a process's start, a broker's restart) beat at random
                # phases, not in one burst every period: at 2,000 tables the server's 2,000 answers in one
                # pass held every contribution behind them for a second, every 5 s. Set before the publish:
                # its answer puts it off to keep_ms
                self.next_own = time.monotonic() + self.own_beat_ms / 1000 * random.uniform(*spread)
                spread = (0.9, 1.0)
                await client.publish(self._topic("beat"), protocol.encode({"ep": self.state["ep"], "n": self.beat_n}))
            self._resend(time.monotonic())
            await asyncio.sleep(self.beat_ms / 1000)

    def resend_wait(self):
        """Seconds the oldest unanswered message waits before it goes again: resend_ms, doubled after every
        resend left unanswered up to RESEND_CAP times resend_ms, each drawn within +-JITTER of it, so that
        tables that lost their answers at one moment do not resend at one moment again."""
        return self.resend_ms / 1000 * min(2 ** self.resends, RESEND_CAP) * self.rng.uniform(1 - JITTER, 1 + JITTER)

    def _resend(self, now):
        """At QoS 0 nothing paces a resend but this: only the oldest goes again (its answer brings the
        rest, _answered), at a backoff, so a server slowed by a fault is not sent the whole outbox of
        every table again and again while it catches up."""
        out = self.state["out"]
        if out and self.client is not None and now - self.sent_at.get(out[0][1]["seq"], 0) >= self.wait_s:
            self.resends += 1
            self.resend_at = now
            self.wait_s = self.resend_wait()
            self._event("resend %d of %d" % (out[0][1]["seq"], len(out)))
            self._send(*out[0], now=now)

    # -- play ---------------------------------------------------------------------------------
    async def play(self, stop, every_s=10.0, rng=None, bet_cents=2500, hit_every=50, seats=7, until=None):
        """A round every `every_s` seconds (the first at a random point of the period): random seats lock
        (LinkDown: the round is played without progressive bets), and one round in `hit_every` has a hit
        (paid pay_after_s after the server confirms it, when that is set). Play ends when the file `until`
        exists (the link goes on: what the server has not answered is still sent)."""
        rng = rng or random.Random()
        await asyncio.sleep(rng.random() * every_s)
        classes = ("flush", "full_house", "four_of_a_kind", "straight_flush", "royal_flush")
        while not stop.is_set() and not (until and os.path.exists(until)):
            chosen = rng.sample(range(1, seats + 1), rng.randint(1, seats))
            try:
                self.lock(dict((s, bet_cents) for s in chosen))
                if rng.randrange(hit_every) == 0:
                    self.hit([[chosen[0], rng.choices(classes, (60, 25, 10, 4, 1))[0]]])
            except LinkDown:
                pass
            try:
                await asyncio.wait_for(stop.wait(), every_s)
            except asyncio.TimeoutError:
                pass

    def _pay_once(self, claim):
        if str(claim) in self.state["claims"]:
            self.paid(claim)
