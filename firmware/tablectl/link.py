"""A progressive table on a link: its bets feed the server's pool, its hits are paid as the server confirms (docs/link.md).

    LinkedController(app)   # tablectl.app.make_controller's, when the configuration has `link`; else never imported
    ctl.pool                # LinkPool: seats from the table's core pool (rate 0, CSP-11.1), money from the server
    ctl.figures             # the server's last pool message (pool, reserve, ver, pending, meters)
    await ctl.run()         # the connection task: the outbox resent in order, heartbeats, LINK DOWN
What LOCK, LINK DOWN, LINK BUSY, CONFIRM with hits and JACKPOT PENDING do: docs/link.md, "What a linked table
does"; the messages: its "The protocol".
"""
import json
import os

from tablectl.games.progressive import ProgressiveController, refunded
from tablectl.hw.clock import sleep_ms, ticks_add, ticks_diff
from tablectl.linkaddr import link_parts, message_bytes, round_bytes  # noqa: F401 (message_bytes: tests)
from tablectl.valid import int_in

BEAT_MS = 5000     # the table's own heartbeat while nothing it sent is answered (the server answers it)
# once anything the table sent is answered, its publishes are known to get through: the next own beat a random
# 50-100% of KEEP_MS later (a pit's 2,000 tables beat ~90 times a second, not 400, and never in phase). The
# broker drops a connection silent for 1.5 keepalives (linkwire.KEEPALIVE_S): KEEP_MS stays well below that
KEEP_MS = 30000
OWN_MS = KEEP_MS + 2 * BEAT_MS  # nothing the table sent answered this long (3 beats): LINK DOWN
TICK_MS = 100      # the connection task's pass
RESEND_MS = 2000   # an unanswered message older than this: the outbox goes again
OPEN_MS = 3000     # to connect, and for the network to take what is written
RETRY_MS = 1000    # between two connection attempts
OUT_MAX = 12       # messages waiting for the server at most (LINK BUSY beyond; and beyond its bytes' cap)
RECORD = "link"    # the outbox's record: {'ep', 'seq', 'out', 'claim'}
CA_FILE = "link_ca.der"  # the CA of a mqtts:// broker, DER (what MicroPython's ssl loads), in the current
# folder: a board's / (mpremote cp ca.der :link_ca.der), the sim board process's folder


class LinkPool:
    """The controller's `pool` on a linked table: seats from the table's core pool, money from the server."""

    def __init__(self, seats, ctl):
        self.seats = seats
        self.ctl = ctl

    # the seats: the table's own core pool (rate 0: it adds nothing, it books)
    @property
    def locked(self):
        return self.seats.locked

    @property
    def carried(self):
        return self.seats.carried

    @property
    def awards(self):
        return self.seats.awards

    @property
    def limit(self):
        return self.seats.limit

    def lock(self, seat_bets):
        seats = self.seats
        bets = []
        locked = []
        for i in range(len(seat_bets)):
            if seat_bets[i]:
                locked.append(i + 1)
                if not (seats.carried and seats.locked[i]):  # CSP-11.1: a carried bet is not sent again
                    bets.append([i + 1, seat_bets[i]])
        seats.lock(seat_bets)
        self.ctl.queue("contrib", {"round": self.ctl.round_no, "bets": bets, "locked": locked})
        return 0

    def void_round(self):
        self.seats.void_round()

    def settle(self, hits):
        if hits:
            raise ValueError("SERVER SETTLES")
        return self.seats.settle(hits)

    def state(self):
        return self.seats.state()

    # the money: the link's figures as the server last sent them (0 before the first)
    def _figure(self, key):
        return self.ctl.figures.get(key, 0)

    pool = property(lambda self: self._figure("pool"))
    reserve = property(lambda self: self._figure("reserve"))
    contributed = property(lambda self: self._figure("contributed"))
    paid = property(lambda self: self._figure("paid"))
    seeded = property(lambda self: self._figure("seeded"))


class LinkedController(ProgressiveController):
    def __init__(self, app):
        self.figures = {}    # the server's last pool message (pool, reserve, ver, pending, meters)
        self.last_answer = None  # ticks the server's heartbeat was last heard (before the lamp is first set)
        self.last_own = None     # ticks something the table sent (its own heartbeat, a message) was last answered
        self.next_beat = 0       # ticks the table's own heartbeat is due
        self.oldest_at = 0       # ticks the oldest message of the outbox became the one waiting
        ProgressiveController.__init__(self, app)
        tls, self.table, self.password, self.brokers, self.link_id = link_parts(self.cfg["link"])
        self.turn = 0        # the broker connected to, or tried next: brokers[turn]
        self.tls = tls
        self.ep = self._epoch()
        self.rnd = self.ep % 65537  # beat_after's state: the epoch is random, each table's own
        self.seq = 0
        self.out = []        # [seq, kind, payload text] sent and not answered, oldest first
        longest = 0
        for c in self.class_ids:
            longest = max(longest, len(c))
        self.round_bytes = round_bytes(self.cfg["seats"], longest)  # what one round adds at most
        self.claim = 0       # the hit claim being settled or paid (its sequence number)
        self.conn = None
        self.sent_upto = 0   # on this connection, every message of the outbox up to this seq is sent
        self.task = None
        self.sent_at = 0     # ticks the oldest message of the outbox was last sent
        self.error = ""      # why the link is down, for status()
        self.was_up = False
        self.pool = LinkPool(self.pool, self)

    def _epoch(self):
        try:
            return int.from_bytes(os.urandom(4), "big") & 0x7FFFFFFF
        except (AttributeError, OSError, NotImplementedError):
            return self.board.ticks_ms() & 0x7FFFFFFF

    def void(self, kind):
        # the void's frame carries the refund's message in the outbox and its journal entry: both or neither
        with self.app.log.atomic():
            return ProgressiveController.void(self, kind)

    def refund(self):
        # the seats' bets go back on the table's own book, and the server takes the round's contributions (and a
        # carried round's, F3-17.3) back out of the link's pool (docs/link.md, "A void that returns the bets")
        self.pool.seats = refunded(self.pool.seats, self.pre, self._pool_params())
        seq = self.queue("refund", {"round": self.round_no})
        self.app.journal.append("link_refund", self.round_no, seq, 0, "sent")

    def _pool_params(self):
        params = dict(ProgressiveController._pool_params(self))
        params["rate_bp"] = 0  # the server's pool takes the contributions; this one books the seats
        return params

    # -- the outbox ---------------------------------------------------------------------------
    def topic(self, kind):
        return "tablectl/%s/table/%s/%s" % (self.link_id, self.table, kind)

    def queue(self, kind, body):
        """A message for the server, into the outbox. The caller saves the record in the same event; the
        connection task sends it after that (it runs once the event is handled): sent before it is on
        flash, a power cut would give its sequence number to another message, which the server would
        take for a duplicate."""
        self.seq += 1
        body["ep"] = self.ep
        body["seq"] = self.seq
        if not self.out:
            self.sent_at = self.oldest_at = self.board.ticks_ms()
        self.out.append([self.seq, kind, json.dumps(body)])
        return self.seq

    def send(self, msg):
        # QoS 0 to a cluster's nodes (nats): its QoS 1 goes through JetStream, which holds the connection up to
        # 4 s a message after a node's death; the outbox resends what is lost, as it does an unanswered one
        self.conn.publish(self.topic(msg[1]).encode(), msg[2].encode(), 0 if len(self.brokers) > 1 else 1)
        self.sent_upto = msg[0]

    def up(self, now=None):
        return not self.down_why(now)

    def down_why(self, now=None):
        """'' while the link is up; else why not (status() says it)."""
        if self.last_answer is None or self.last_own is None:
            return "no heartbeat answered yet"
        now = self.board.ticks_ms() if now is None else now
        down = self.cfg["link_down_ms"]
        if ticks_diff(now, self.last_answer) >= down:
            return "no server heartbeat within %d ms" % down
        if self.out and ticks_diff(now, self.oldest_at) >= down:
            return "message %d unanswered for %d ms" % (self.out[0][0], down)
        if ticks_diff(now, self.last_own) >= OWN_MS:
            return "no heartbeat answered within %d ms" % OWN_MS
        return ""

    def refusal(self):
        if not self.up():
            return "LINK DOWN"
        if len(self.out) >= OUT_MAX:
            return "LINK BUSY"
        # the outbox's cap: what a block's frame leaves beside a round's largest step, which any step's frame may
        # carry it with (tablectl.bound.outbox, derived when boot checked the configuration)
        if self.out_bytes() + self.round_bytes > self.app.config.outbox:
            return "LINK BUSY"
        return ""

    def out_bytes(self):
        """The JSON bytes of the outbox in record 'link': [seq, "kind", "text"] each, the text's quotes escaped."""
        n = 2
        for m in self.out:
            n += len(str(m[0])) + len(m[1]) + len(m[2]) + m[2].count('"') + 12
        return n

    def pending(self):
        """Top awards of other tables confirmed and not yet paid."""
        return [p for p in self.figures.get("pending", ()) if p.get("table") != self.table]

    # -- what the server says -----------------------------------------------------------------
    def on_message(self, topic, payload):
        """umqtt's callback: a pool message or an answer. A malformed one is journalled and changes nothing."""
        try:
            body = json.loads(payload)
            if not isinstance(body, dict):
                raise ValueError("not an object")
            if topic.endswith(b"/pool"):
                self._figures(body)
            elif "beat" in body:  # the link's heartbeat, or the answer to the table's own
                self.last_answer = self.board.ticks_ms()
                if not topic.endswith(b"/beat"):
                    self._own_answered()
                self._figures(body)
                if "now" in body:
                    self._server_time(body["now"])
            else:
                self.answered(body)
        except (ValueError, KeyError, TypeError) as e:
            self.app.journal.append("link_bad", self.round_no, text=str(e)[:40])

    def _own_answered(self):
        """An answer on the table's own topic: its publishes reach the server, so its own heartbeat can wait."""
        self.last_own = now = self.board.ticks_ms()
        self.next_beat = ticks_add(now, KEEP_MS // 2 + self.lcg() * (KEEP_MS // 2) // 65537)

    def _server_time(self, t):
        """The server's clock in a heartbeat's answer: the table's clock set from it when not set or off by
        more than DRIFT_S (journalled as the server's setting); ValueError for a time that is not one."""
        from tablectl.timeofday import DRIFT_S, END, FIRST
        if not int_in(t, FIRST, END - 1):
            raise ValueError("server time %r" % (t,))
        mine = self.app.clock.now()
        if mine is None or not -DRIFT_S <= t - mine <= DRIFT_S:
            self.app.set_clock(t, "link server")

    def _figures(self, body):
        if body.get("ver", -1) < self.figures.get("ver", -1):
            return  # an older pool than the one shown
        pool, others = self.figures.get("pool"), len(self.pending())
        fig = dict(self.figures)
        for key in ("pool", "reserve", "contributed", "paid", "seeded", "ver", "pending"):
            if key in body:
                fig[key] = body[key]
        self.figures = fig
        if fig.get("pool") != pool or len(self.pending()) != others:
            if self.state in ("betting", "claiming"):
                self.redraw()

    def answered(self, body):
        seq = body["seq"]
        if seq is None:  # the server refused this table altogether (not on this link): status() says so
            self.error = "server: " + str(body.get("error", ""))[:52]
            return
        if "error" not in body:  # a message taken proves what a heartbeat's answer does; a refusal does not
            self._own_answered()
        for i in range(len(self.out)):
            if self.out[i][0] == seq:
                kind = self.out.pop(i)[1]
                break
        else:
            return  # the answer to a duplicate: already had
        self.sent_at = self.board.ticks_ms()
        if i == 0:
            self.oldest_at = self.sent_at  # the next one waits from now
        if "error" in body:
            self.app.journal.append("link_refused", self.round_no, seq, 0, str(body["error"])[:40])
            if kind == "hit" and self.state == "claiming" and seq == self.claim:
                self.claim = 0
                self.state = "locked"
                self.save()
                self.refuse("SERVER REFUSED")
            return
        self._figures(body)
        if kind == "hit" and self.state == "claiming" and seq == self.claim:
            self._awards(body["awards"])
        elif kind == "refund":  # the pool shown is the link's without the returned contributions from here
            self.app.journal.append("link_refund", body["rounds"][0], seq, body["cents"], "taken back")
        # a contribution or a payment answered: the outbox shrank, which the next save writes (a cut
        # before it sends the message again, and the server answers it as the duplicate it is)

    def _awards(self, awards):
        """The server's awards of our claim (CSP-10.4..10.8, F3-15, BAC-17 applied there): shown and paid here."""
        self.pool.seats.settle([])  # the round's locked bets are done with, as the core's settle() does
        self.paying([[a[0], a[1], a[2]] for a in awards])
        self.redraw()

    # -- the controller -----------------------------------------------------------------------
    def reason(self, event):
        if self.state == "claiming" and event != "HISTORY":
            return "LINK DOWN" if not self.up() else "WAIT SERVER"
        why = ProgressiveController.reason(self, event)
        if not why and event == "LOCK" and self.state == "betting":
            why = self.refusal()  # the round's bets must reach the server
        return why

    def on_confirm(self):
        if self.state != "locked" or self.step or not self.hits:
            return ProgressiveController.on_confirm(self)
        # the server settles the round's hits (its pool, in arrival order); they are kept until it answers
        self.claim = self.queue("hit", {"round": self.round_no, "hits": [[h[0], h[1]] for h in self.hits]})
        self.set_state("claiming", "hit_claim", self.claim, len(self.hits))
        return True

    def _next_round(self):
        if self.state == "paying" and self.claim:
            self.queue("paid", {"claim": self.claim})  # saved by the end of the round
            self.claim = 0
        return ProgressiveController._next_round(self)

    def apply_pending(self):
        """The link's pool parameters are the server's: a table's pending pool changes wait."""

    def betting_lamp(self, on):
        # betting is open only while the link is up: progressive bets are refused while it is down
        ProgressiveController.betting_lamp(self, on and self.up())

    def prompt(self):
        if self.state == "claiming":
            return "HITS SENT: %d" % len(self.hits), ("WAIT SERVER" if self.up() else "LINK DOWN")
        if self.state == "betting" and not self.up():
            return "LINK DOWN", "NO JACKPOT BETS"  # no pool figure: the table does not know the link's now
        line1, line2 = ProgressiveController.prompt(self)
        if self.state == "betting":
            if self.pending():
                line1 = "JACKPOT PENDING"
            why = self.refusal()
            if why:
                line2 = why
        return line1, line2

    def animate(self, now):
        if self.state == "paying":
            ProgressiveController.animate(self, now)
        elif "pool" not in self.figures or not self.up(now):  # no pool known now: the digits are blank
            if self.digits != -2:
                self.digits = -2
                if self.board.jackpot is not None:
                    self.board.jackpot.blank()
        else:
            ProgressiveController.animate(self, now)

    def status(self):
        st = ProgressiveController.status(self)
        up = self.up()
        host, port = self.brokers[self.turn]
        st["link"] = "%s/%s as %s on %s:%d%s%s" % (self.link_id, self.table, self.table, host, port,
                                                 " (%d of %d)" % (self.turn + 1, len(self.brokers))
                                                 if len(self.brokers) > 1 else "", " (TLS)" if self.tls else "")
        st["link_state"] = "up" if up else "LINK DOWN: " + (self.error or self.down_why())
        st["link_unanswered"] = len(self.out)
        st["link_pending"] = ["table %s seat %d" % (p["table"], p["seat"]) for p in self.pending()]
        if self.claim:
            st["link_claim"] = self.claim
        return st

    def tick(self, now):
        ProgressiveController.tick(self, now)
        if self.task is None:
            import asyncio
            self.task = asyncio.create_task(self.run())
        up = self.up(now)
        if up != self.was_up:  # LINK DOWN appears and goes on the display, the betting lamp with it
            self.was_up = up
            self.betting_lamp(self.state == "betting")
            if self.state in ("betting", "claiming"):
                self.redraw()

    # -- persistence --------------------------------------------------------------------------
    def save(self):
        # the outbox is a record of its own, not in record 'round' (some 3.4 KB at its largest): a step's frame
        # carries the round's changed keys and, when it changed, the outbox (its cap leaves room for both)
        with self.app.log.atomic():
            ProgressiveController.save(self)
            # a new list each save: the store keeps the one it saved to compare the next save with
            self.app.store.save(RECORD, {"ep": self.ep, "seq": self.seq, "out": list(self.out), "claim": self.claim})

    def restore(self, rec):
        ProgressiveController.restore(self, rec)
        self.pool = LinkPool(self.pool, self)
        link = self.app.store.peek(RECORD)
        if link is not None:
            self.ep, self.seq, self.out, self.claim = link["ep"], link["seq"], list(link["out"]), link["claim"]
        elif "link" in rec:  # kept in record 'round' by an older firmware
            self.ep, self.seq, self.out, self.claim = rec["link"]
        if self.out:
            self.sent_at = self.oldest_at = self.board.ticks_ms()

    # -- the connection task ------------------------------------------------------------------
    def _ssl(self):
        if not self.tls:
            return None
        import ssl
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        ctx.verify_mode = ssl.CERT_REQUIRED
        ctx.load_verify_locations(cafile=CA_FILE)
        return ctx

    def lcg(self):
        """0..65536, each table's own sequence: small ints only (no import, no long ints; times KEEP_MS // 2
        it stays under 2**30, a small int on a 32-bit board)."""
        self.rnd = (self.rnd * 75 + 74) % 65537
        return self.rnd

    def beat_after(self, first):
        """ms to the table's next own heartbeat while the last is unanswered: after a connection's first, a
        random part of BEAT_MS (every table of a pit connects again at one moment after a broker's restart;
        beating in phase from then on, the server would answer them in one burst every period), then 90-100%
        of it, never more. An answer puts the next KEEP_MS off (_own_answered)."""
        if first:
            return BEAT_MS // 20 + self.lcg() * (BEAT_MS - BEAT_MS // 20) // 65537
        return BEAT_MS - BEAT_MS // 10 + self.lcg() * (BEAT_MS // 10) // 65537

    async def run(self):
        """Connect, subscribe, send the outbox, beat; again after any failure; ends when this controller is
        no longer the table's (a new configuration builds another)."""
        from tablectl.linkwire import Connection
        beat = 0
        failed = 0  # connections failed in a row
        while self.app.controller is self:
            conn = None
            try:
                host, port = self.brokers[self.turn]
                conn = Connection(host, port, ("tablectl-" + self.table).encode(), self.table.encode(),
                                  self.password.encode(), self._ssl(), self.on_message)
                await conn.open(OPEN_MS)
                conn.subscribe(self.topic("ack").encode())
                conn.subscribe(("tablectl/%s/pool" % self.link_id).encode())
                conn.subscribe(("tablectl/%s/beat" % self.link_id).encode())
                self.conn = conn
                self.error = ""
                failed = 0
                self.sent_upto = 0  # what the server has not answered goes again, in order
                self.sent_at = opened = self.next_beat = self.board.ticks_ms()
                first = True  # the first beat of a connection goes at once: the table is up as soon as it is answered
                while self.app.controller is self:
                    now = self.board.ticks_ms()
                    if ticks_diff(now, self.next_beat) >= 0:
                        beat += 1
                        self.next_beat = ticks_add(now, self.beat_after(first))  # before: its answer moves it
                        first = False
                        conn.publish(self.topic("beat").encode(), b'{"ep":%d,"n":%d}' % (self.ep, beat))
                    # a stalled connection (TCP still open, nothing heard): a new one may get through
                    heard = self.last_answer if self.last_answer is not None and \
                        ticks_diff(self.last_answer, opened) > 0 else opened
                    if ticks_diff(now, heard) > 2 * self.cfg["link_down_ms"]:
                        raise OSError("no answer for %d ms: connecting again" % ticks_diff(now, heard))
                    if self.out and ticks_diff(now, self.sent_at) >= RESEND_MS:
                        self.sent_upto = 0
                        self.sent_at = now
                    for msg in self.out:
                        if msg[0] > self.sent_upto:
                            self.send(msg)
                    await conn.flush(OPEN_MS)
                    await conn.receive(TICK_MS)
            except Exception as e:  # every failure of the network or of the broker: connect again
                self.error = str(e)[:60] or type(e).__name__
            self.conn = None
            if conn is not None:
                conn.close()
            self.turn = (self.turn + 1) % len(self.brokers)  # a broker that failed: the next (a cluster's node)
            failed += 1
            if self.app.controller is self:  # the next broker at once; a pause when every one has failed
                await sleep_ms(RETRY_MS if failed % len(self.brokers) == 0 else 0)
