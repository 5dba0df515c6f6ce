"""Messages on topics that are not the sender's, against the real mosquitto: the broker's ACL drops a table's
hit, paid and beat on another table's topics (as it drops contrib), and the jackpot server refuses a message on
a link its configuration does not put the table on (a broker configured apart from the server), changing no pool.

MQTT 3.1.1 drops a forbidden publish silently, so each refusal is seen from the reader's side: a table's own
messages published after the forged ones arrive, in the order the broker took them, and nothing before them.
"""
import json
import sqlite3
import threading

import paho.mqtt.client as mqtt

from jackpot import protocol
from jackpot.broker import SERVER_USER, Broker
from jackpot.rig import LINK


class Peer:
    """A paho client that waits for what it waits for (connection, subscription, messages), never a clock."""

    def __init__(self, port, user, password):
        self.got = []
        self.cond = threading.Condition()
        self.acked = False
        self.c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="forge-%s-%d" % (user, id(self)),
                             protocol=mqtt.MQTTv311)
        self.c.username_pw_set(user, password)
        self.c.on_message = self._message
        self.c.on_subscribe = self._subscribed
        self.c.connect("127.0.0.1", port)
        self.c.loop_start()

    def _message(self, c, userdata, msg):
        with self.cond:
            self.got.append((msg.topic, msg.payload))
            self.cond.notify_all()

    def _subscribed(self, c, userdata, mid, reasons, props=None):
        with self.cond:
            self.acked = True
            self.cond.notify_all()

    def subscribe(self, topic):
        self.c.subscribe(topic, qos=1)
        with self.cond:
            assert self.cond.wait_for(lambda: self.acked, 10), "no SUBACK for " + topic

    def publish(self, topic, payload):
        self.c.publish(topic, payload, qos=1).wait_for_publish(10)

    def wait(self, n):
        with self.cond:
            assert self.cond.wait_for(lambda: len(self.got) >= n, 10), self.got
            return list(self.got)

    def close(self):
        self.c.loop_stop()
        self.c.disconnect()


def test_a_table_cannot_publish_hit_paid_or_beat_on_another_tables_topics(tmp_path):
    broker = Broker(tmp_path / "broker", {"t01": "pit1", "t02": "pit1"}).start()
    try:
        server = Peer(broker.port, SERVER_USER, broker.password(SERVER_USER))
        server.subscribe("tablectl/#")
        t01 = Peer(broker.port, "t01", broker.password("t01"))
        kinds = ("hit", "paid", "beat", "contrib")
        for kind in kinds:
            t01.publish(protocol.table_topic("pit1", "t02", kind), b"forged")  # t02's, on their common link
        for kind in kinds:
            t01.publish(protocol.table_topic("pit1", "t01", kind), b"mine")
        got = server.wait(len(kinds))
        assert got[:len(kinds)] == [(protocol.table_topic("pit1", "t01", k), b"mine") for k in kinds], got
        for peer in (server, t01):
            peer.close()
    finally:
        broker.stop()


def test_a_message_on_a_link_the_table_is_not_on_is_refused_and_changes_no_pool(make_link):
    """The server keeps two links and puts t01 on pit1; the broker lets t01 publish on pit2 (its ACL says so):
    the server answers with the refusal, and its ledger holds no message and the same pools."""
    link = make_link(("t01",), start=False)
    cfg = json.loads(link.config.read_text())
    cfg["links"]["pit2"] = cfg["links"][LINK]
    link.config.write_text(json.dumps(cfg))
    link.broker.tables = {"t01": "pit2"}  # the broker's configuration out of step with the server's
    link.start()
    before = link.status()["links"]
    t01 = Peer(link.broker.port, "t01", link.password("t01"))
    try:
        t01.subscribe(protocol.table_topic("pit2", "t01", "ack"))
        body = {"ep": 4, "seq": 1, "round": 1, "bets": [[1, 2500], [2, 2500]], "locked": [1, 2]}
        t01.publish(protocol.table_topic("pit2", "t01", "contrib"), protocol.encode(body))
        (topic, payload), = t01.wait(1)
        assert json.loads(payload) == {"seq": 1, "error": "table t01 is not on link pit2"}
    finally:
        t01.close()
    after = link.status()["links"]
    for lid in (LINK, "pit2"):
        assert [after[lid][k] for k in ("pool", "contributed", "ver")] == [before[lid][k] for k in ("pool", "contributed", "ver")]
        assert after[lid]["tables"] == {}
    with sqlite3.connect(str(link.db)) as db:
        assert db.execute("SELECT COUNT(*) FROM message").fetchone() == (0,)
