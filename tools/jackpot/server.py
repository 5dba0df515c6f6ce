"""The jackpot server's MQTT side (asyncio, aiomqtt): tables' messages in, into the ledger in batches, answers and pools out.

    srv = JackpotServer(db_path, links, tables, brokers=[('127.0.0.1', 1883)], user='jackpot', password=...)
    await srv.run(stop)         # until the asyncio.Event `stop` is set; reconnects by itself, to the
                                # next of `brokers` (a cluster's nodes) after a failure
    srv.stats                   # messages, duplicates, early, refused, beats, batches (commits), ledger_s
                                # (seconds in the ledger's transactions)
    srv.listeners               # fn() after every batch that changed a pool (the web's sign feed)

Flow: the server subscribes to every table's topics (tablectl/+/table/+/<kind>, QoS 1) in a persistent session
(clean_session False: while it is away the broker queues what the tables send); on a nats cluster (qos=0) at
QoS 0 in a clean session, its retained messages on a connection of their own (Retainer, docs/link.md). Messages are taken in
batches: every message waiting is applied in one transaction (one fsync), then the answers go out (QoS 1
on each table's ack topic), then the changed pools (retained). A message is answered only once it is
on disk, so an answer is a promise the ledger keeps; a crash before the commit leaves the table without
an answer, and it sends again. The server's heartbeat is one message a link (tablectl/L/beat, QoS 0,
every LINK_BEAT_S, with the pool), not an answer a table: a table counts the link as up while it hears
it, so a server that is down, or cannot write its ledger (no beat while its last batch failed), stops
progressive bets on every table within the tables' timeout. A table's own heartbeat is still answered
(QoS 0: a table whose answer is lost beats again within 5 s), in the same pass as its other messages: it
proves the table's publishes get through, and goes every 15-30 s only while nothing else the table sent
was answered (tablectl/link.py's KEEP_MS), so a pit's tables cost the server few of them.
"""
import asyncio
import json
import sys
import time

import aiomqtt

from jackpot import protocol
from jackpot.ledger import Ledger, last_hits

BATCH = 500  # messages a transaction at most
POOL_EVERY_S = 0.2  # the retained pool goes out at most this often a link (every table reads it; the
# table whose message changed it has it in its answer at once, and the sign's event stream is not held)
RETRY_S = 0.5  # between two connection attempts to the broker
LINK_BEAT_S = 0.5  # the server's heartbeat a link: what 2,000 tables' link up/down rests on, at one message
HOW_STAT = {"new": "messages", "duplicate": "duplicates", "early": "early", "refused": "refused"}


def log(msg):
    print("jackpot: %s" % msg, file=sys.stderr, flush=True)


def _one_line(e):
    return ("%s: %s" % (type(e).__name__, e)).splitlines()[0][:200]


def _publish_now(client, topic, payload, qos):
    """An answer handed to the connection without waiting for the broker's PUBACK (a table whose answer is
    lost sends its message again). aiomqtt's publish waits for it, and registers each waiting publish by
    scanning every other one: a batch of n answers awaited together cost n**2 steps (500 answers: 14 ms of
    CPU in that scan alone), so a server that fell behind took larger batches and fell further behind.
    aiomqtt is pinned (requirements.txt): its paho client is `_client`."""
    info = client._client.publish(topic, payload, qos)
    if info.rc != 0:  # not connected (paho would keep it for the next connection: the table resends it anyway)
        raise aiomqtt.MqttCodeError(info.rc, "could not publish to %s" % topic)


class JackpotServer:
    def __init__(self, db_path, links, tables, brokers, user, password, ca_file=None, qos=1):
        self.ledger = Ledger(db_path, links, tables)
        self.db_path = db_path
        self.brokers = list(brokers)
        self.turn = 0  # the broker connected to, or tried next: brokers[turn]
        self.user = user
        self.password = password
        self.ca_file = ca_file
        # the tables' messages and the answers: QoS 1 on mosquitto (it queues them for a server away); 0 on a
        # nats cluster, where QoS 1 goes through a JetStream stream that stalls the whole link for seconds while
        # it elects a new leader after a node's death (the tables' outboxes make either exactly once)
        self.qos = qos
        self.client_id = user  # the broker ties a client id to its account (use_username_as_clientid)
        self.stats = {"messages": 0, "duplicates": 0, "early": 0, "refused": 0, "beats": 0, "batches": 0,
                      "logins": 0, "ledger_s": 0.0, "connected": False, "started": time.time(), "sessions": {}}
        self._epochs = {}       # table -> (its last epoch, every epoch it sent under)
        self._last_failure = None
        self.ledger_ok = True   # the last batch was committed: the link beats only then
        self.listeners = []
        self._pool_sent = {}    # link -> time its pool last went out
        self._pool_later = {}   # link -> the timer that sends it, when one waits
        self.retainer = Retainer(self) if qos == 0 else None

    def _client(self):
        will = aiomqtt.Will(protocol.SERVER_TOPIC, b"offline", qos=1, retain=True)
        return protocol.client(self.brokers[self.turn], self.user, self.password, self.client_id, self.ca_file, will=will,
                               max_inflight_messages=1000, timeout=10, clean=self.qos == 0)

    async def run(self, stop=None):
        stop = stop or asyncio.Event()
        retaining = asyncio.ensure_future(self.retainer.run(stop)) if self.retainer else None
        try:
            await self._run(stop)
        finally:
            if retaining:
                retaining.cancel()

    async def _run(self, stop):
        while not stop.is_set():
            try:
                async with self._client() as client:
                    # its own links only (another server instance keeps others); not /+: its acks are there too
                    for lid in sorted(self.ledger.links):
                        for kind in protocol.KINDS:
                            await protocol.subscribe(client, protocol.table_topic(lid, "+", kind), self.qos)
                    await self._retain(client, protocol.SERVER_TOPIC, b"online")
                    self.stats["connected"] = True  # subscribed: what the tables send from now on is taken
                    self.stats["logins"] += 1
                    for lid in self.ledger.links:
                        await self._publish_pool(client, lid)
                        await self._publish_hits(client, lid)
                    self._pool_later.clear()
                    work = asyncio.ensure_future(self._serve(client))
                    beat = asyncio.ensure_future(self._beat(client))
                    halt = asyncio.ensure_future(stop.wait())
                    done, _ = await asyncio.wait((work, beat, halt), return_when=asyncio.FIRST_COMPLETED)
                    for t in (work, beat, halt):
                        t.cancel()
                    if beat in done and not beat.cancelled() and beat.exception():
                        raise beat.exception()
                    if work in done and not work.cancelled() and work.exception():
                        raise work.exception()
            except aiomqtt.MqttError as e:
                if self.stats["connected"]:
                    log("broker connection lost: %s" % e)
            self.stats["connected"] = False
            self.turn = (self.turn + 1) % len(self.brokers)  # a node that died: the next one
            if not stop.is_set():
                await asyncio.sleep(RETRY_S)

    async def _serve(self, client):
        messages = client.messages
        while True:
            batch = [await messages.__anext__()]
            while len(messages) and len(batch) < BATCH:
                batch.append(await messages.__anext__())
            try:
                await self.apply(client, batch)
            except aiomqtt.MqttError:
                raise
            except Exception as e:  # a batch the ledger did not take (its answers were not sent): the
                # tables send it again. The broker connection stays (on a cluster a login and its
                # subscriptions cost seconds); the next batch reconnects the ledger (a promoted standby)
                why = _one_line(e)
                self.ledger_ok = False
                if why != self._last_failure:
                    log("batch not applied: %s" % why)
                self._last_failure = why
                await asyncio.sleep(RETRY_S)

    async def apply(self, client, batch):
        """One pass: every message of the batch into the ledger in one transaction, then the answers."""
        now = t0 = time.time()
        answers = []  # (topic, payload)
        changed = set()
        hit_links = set()
        beats = []
        with self.ledger.batch() as led:
            for msg in batch:
                topic = msg.topic.value
                try:
                    link, table, kind = protocol.parse_table_topic(topic)
                    body = protocol.decode(kind, msg.payload)
                except Exception as e:  # whatever a payload does to the checks, it is refused, never fatal
                    self.stats["refused"] += 1
                    log("refused %s: %s" % (topic, _one_line(e)))
                    continue
                ack = protocol.table_topic(link, table, "ack")
                if led.tables.get(table) != link:
                    self.stats["refused"] += 1
                    answers.append((ack, {"seq": body.get("seq"), "error": "table %s is not on link %s" % (table, link)}))
                    continue
                self._watch_sessions(table, body["ep"])
                if kind == "beat":
                    self.stats["beats"] += 1
                    led.seen(table, now)
                    beats.append((ack, link, body["n"]))
                    continue
                answer, lid, how = led.handle(table, kind, body, now)
                self.stats[HOW_STAT.get(how, "refused")] += 1
                if answer is not None:
                    answers.append((ack, answer))
                if answer is not None and "error" in answer and how == "new":
                    log("table %s %s %d refused: %s" % (table, kind, body["seq"], answer["error"]))
                if lid:
                    changed.add(lid)
                    if kind == "hit":
                        hit_links.add(lid)
        self.stats["batches"] += 1
        self.stats["ledger_s"] += time.time() - t0
        self.ledger_ok = True
        # on disk now: the sign's feed (it reads the ledger) at once, not after the broker acknowledged every
        # answer; then the answers, then the pools (the table that locked learns its pool from its answer first)
        if changed:
            for fn in self.listeners:
                fn()
        for topic, body in answers:
            _publish_now(client, topic, protocol.encode(body), self.qos)
        for ack, lid, n in beats:
            link = led.links[lid]
            _publish_now(client, ack, protocol.encode({"beat": n, "pool": link.pool.pool, "ver": link.ver,
                                                       "pending": link.pending, "now": protocol.now()}), 0)
        sends = []
        for lid in sorted(changed):
            self._pool_soon(client, lid)
            if lid in hit_links:
                sends.append(self._publish_hits(client, lid))
        if sends:
            await asyncio.gather(*sends)

    async def _beat(self, client):
        """Every LINK_BEAT_S, each link's heartbeat with its pool, while the ledger takes what comes."""
        n = 0
        while True:
            if self.ledger_ok:
                n += 1
                for lid in sorted(self.ledger.links):
                    link = self.ledger.links[lid]
                    await client.publish(protocol.link_beat_topic(lid), protocol.encode(
                        {"beat": n, "pool": link.pool.pool, "ver": link.ver, "pending": link.pending}), qos=0)
            await asyncio.sleep(LINK_BEAT_S)

    def _watch_sessions(self, table, ep):
        """Two sessions under one table id (two boards, or a simulator, given the same account): their
        messages alternate between two epochs. A table whose records were cleared moves to a new epoch
        once and never back; a return to an earlier one is counted in stats['sessions'], logged once."""
        last, seen = self._epochs.get(table, (None, set()))
        if ep != last:
            if ep in seen:
                n = self.stats["sessions"].get(table, 0)
                if not n:
                    log("table %s: messages from two sessions (epochs %s): two boards use one id"
                        % (table, ", ".join(str(e) for e in sorted(seen))))
                self.stats["sessions"][table] = n + 1
            seen.add(ep)
            self._epochs[table] = (ep, seen)

    def _pool_soon(self, client, lid):
        """The link's pool out now, or when POOL_EVERY_S has passed since it last went (then with every
        change made meanwhile)."""
        if lid in self._pool_later:
            return
        wait = self._pool_sent.get(lid, 0) + POOL_EVERY_S - time.monotonic()
        loop = asyncio.get_running_loop()
        if wait <= 0:
            asyncio.ensure_future(self._send_pool(client, lid))
        else:
            self._pool_later[lid] = loop.call_later(wait, lambda: asyncio.ensure_future(self._send_pool(client, lid)))

    async def _send_pool(self, client, lid):
        self._pool_later.pop(lid, None)
        self._pool_sent[lid] = time.monotonic()
        try:
            await self._publish_pool(client, lid)
        except aiomqtt.MqttError:
            pass  # the connection went: the pool goes out again when it is back (run)

    async def _publish_pool(self, client, lid):
        link = self.ledger.links[lid]
        body = protocol.pool_payload(lid, link.game, link.totals(), link.ver, link.pending, int(time.time() * 1000))
        await self._retain(client, protocol.pool_topic(lid), protocol.encode(body))

    def _publish_hits(self, client, lid):
        """The link's last hits for the signs (retained), read from the ledger now; sent when awaited."""
        return self._retain(client, protocol.hits_topic(lid), protocol.encode(
            {"link": lid, "hits": last_hits(self.ledger.db, lid)}))

    async def _retain(self, client, topic, payload):
        if self.retainer:
            self.retainer.put(topic, payload)
        else:
            await client.publish(topic, payload, qos=1, retain=True)


class Retainer:
    """A server's retained messages (pool, hits, online) on a connection of their own, on a nats cluster:
    nats stores a retained message in a JetStream stream before it reads the connection's next packet, and
    after a node's death that waits up to 4 s a message for the stream's new leader; the beats and answers
    behind it would wait too (every table LINK DOWN). The latest message a topic is kept until it is sent."""

    def __init__(self, server):
        self.server = server
        self.latest = {}  # topic -> payload not sent yet
        self.ready = asyncio.Event()

    def put(self, topic, payload):
        self.latest[topic] = payload
        self.ready.set()

    async def run(self, stop):
        srv = self.server
        turn = srv.turn
        while not stop.is_set():
            try:
                async with protocol.client(srv.brokers[turn], srv.user, srv.password, srv.client_id + "-retained",
                                           srv.ca_file, timeout=10, clean=True) as client:
                    while not stop.is_set():
                        waits = [asyncio.ensure_future(e.wait()) for e in (self.ready, stop)]
                        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
                        for w in waits:
                            w.cancel()
                        self.ready.clear()
                        while self.latest:
                            topic = next(iter(self.latest))
                            payload = self.latest[topic]
                            await client.publish(topic, payload, qos=1, retain=True)
                            if self.latest.get(topic) is payload:  # not replaced by a newer one meanwhile
                                del self.latest[topic]
            except aiomqtt.MqttError:
                pass
            turn = (turn + 1) % len(srv.brokers)
            if not stop.is_set():
                await asyncio.sleep(RETRY_S)


def load_config(path):
    """{'links': {id: table configuration}, 'tables': {table id: link id}} from a JSON file; ValueError naming
    what is wrong."""
    from jackpot.broker import check_id
    try:
        cfg = json.loads(open(path).read())
    except (OSError, ValueError) as e:
        raise ValueError("%s: %s" % (path, e))
    if not isinstance(cfg, dict) or not isinstance(cfg.get("links"), dict) or not isinstance(cfg.get("tables"), dict):
        raise ValueError('%s: {"links": {id: {...}}, "tables": {table: link}} expected' % path)
    for lid in cfg["links"]:
        check_id("link", lid)
    for t, lid in cfg["tables"].items():
        check_id("table", t)
        if lid not in cfg["links"]:
            raise ValueError("%s: table %s is on link %r, which is not in links" % (path, t, lid))
    return cfg
