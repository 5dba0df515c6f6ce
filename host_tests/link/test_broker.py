"""The broker as the project sets it up (real mosquitto): accounts, the ACL, persistence, TLS with a certificate made by openssl.

With MQTT 3.1.1 a broker drops a publish its ACL forbids without telling the publisher, so each refusal is
checked from the other side: a subscriber that may read the topic sees the allowed message and never the
forbidden one.
"""
import ssl
import threading

import paho.mqtt.client as mqtt
import pytest

from jackpot.broker import SERVER_USER, SIGN_USER, Broker, check_id


class Client:
    """A paho client on a thread: connect(), publish(), and what it received."""

    def __init__(self, broker, user, password=None, ca=None):
        self.got = []
        self.cond = threading.Condition()
        self.c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="test-%s-%d" % (user, id(self)),
                             protocol=mqtt.MQTTv311)
        self.c.username_pw_set(user, broker.password(user) if password is None else password)
        if ca:
            self.c.tls_set(ca_certs=str(ca), tls_version=ssl.PROTOCOL_TLS_CLIENT)
        self.c.on_message = self._message
        self.c.on_connect = self._connect
        self.c.on_subscribe = self._subscribed
        self.subs = set()
        self.rc = None
        self.broker = broker

    def _connect(self, c, userdata, flags, rc, props=None):
        with self.cond:
            self.rc = rc
            self.cond.notify_all()

    def _subscribed(self, c, userdata, mid, codes, props=None):
        with self.cond:
            self.subs.add(mid)
            self.cond.notify_all()

    def subscribe(self, topic):
        """Subscribed once the broker's SUBACK is in (no clock)."""
        _, mid = self.c.subscribe(topic, qos=1)
        with self.cond:
            assert self.cond.wait_for(lambda: mid in self.subs, 5), "no SUBACK for %s" % topic

    def _message(self, c, userdata, msg):
        with self.cond:
            self.got.append((msg.topic, msg.payload))
            self.cond.notify_all()

    def connect(self, timeout=5):
        self.c.connect("127.0.0.1", self.broker.port)
        self.c.loop_start()
        with self.cond:
            self.cond.wait_for(lambda: self.rc is not None, timeout)
        return self.rc

    def wait(self, n, timeout=5):
        with self.cond:
            self.cond.wait_for(lambda: len(self.got) >= n, timeout)
        return list(self.got)

    def close(self):
        self.c.loop_stop()
        self.c.disconnect()


@pytest.fixture
def broker(tmp_path):
    b = Broker(tmp_path / "broker", {"t01": "pit1", "t02": "pit1", "t09": "pit2"}).start()
    yield b
    b.stop()


def subscribed(broker, user, topic):
    c = Client(broker, user)
    assert c.connect() == 0
    c.subscribe(topic)
    return c


def test_a_wrong_password_or_an_unknown_user_is_refused(broker):
    assert Client(broker, "t01", "not-the-password").connect().is_failure
    assert Client(broker, "t77", "x").connect().is_failure
    good = Client(broker, "t01")
    assert good.connect() == 0
    good.close()


def test_a_table_publishes_only_its_own_topics_on_its_own_link(broker):
    server = subscribed(broker, SERVER_USER, "tablectl/#")
    t01 = Client(broker, "t01")
    assert t01.connect() == 0
    for topic in ("tablectl/pit1/table/t02/contrib",   # another table's
                  "tablectl/pit2/table/t01/contrib",   # its own id on another link
                  "tablectl/pit1/pool",                 # only the server publishes the pool
                  "tablectl/pit1/table/t01/ack",        # and the answers
                  "tablectl/server"):
        t01.c.publish(topic, b"forged", qos=1).wait_for_publish(5)
    t01.c.publish("tablectl/pit1/table/t01/contrib", b"mine", qos=1).wait_for_publish(5)
    got = server.wait(1)  # "mine" went last on t01's connection: a forged one that passed is before it
    assert server.got == [("tablectl/pit1/table/t01/contrib", b"mine")] == got
    for c in (server, t01):
        c.close()


def test_a_table_reads_its_own_acks_and_its_links_pool_only(broker):
    t01 = subscribed(broker, "t01", "tablectl/#")
    server = Client(broker, SERVER_USER)
    assert server.connect() == 0
    for topic in ("tablectl/pit1/table/t02/ack", "tablectl/pit2/pool", "tablectl/pit1/table/t01/ack", "tablectl/pit1/pool"):
        server.c.publish(topic, topic.encode(), qos=1).wait_for_publish(5)
    t01.wait(2)  # the allowed ones went last: a forbidden one that passed came before them
    assert sorted(t for t, _ in t01.got) == ["tablectl/pit1/pool", "tablectl/pit1/table/t01/ack"]
    for c in (server, t01):
        c.close()


def test_the_sign_account_reads_and_cannot_publish(broker):
    server = subscribed(broker, SERVER_USER, "tablectl/#")
    sign = subscribed(broker, SIGN_USER, "tablectl/+/pool")
    sign.c.publish("tablectl/pit1/pool", b"forged", qos=1).wait_for_publish(5)
    server.c.publish("tablectl/pit1/pool", b"real", qos=1, retain=True).wait_for_publish(5)
    assert sign.wait(1) == [("tablectl/pit1/pool", b"real")]
    server.wait(1)  # the forged one was acknowledged before "real" was sent: had it passed, it is first
    assert server.got == [("tablectl/pit1/pool", b"real")]
    for c in (server, sign):
        c.close()


def test_retained_pool_survives_a_broker_restart(broker):
    """Persistence on: a sign that connects after the broker restarted still gets the last pool at once.
    The broker is stopped (it saves as it exits), not killed after a wait for its autosave: a clock that a
    loaded machine outran once (the link's exactly-once never rests on the broker's persistence)."""
    server = Client(broker, SERVER_USER)
    assert server.connect() == 0
    server.c.publish("tablectl/pit1/pool", b'{"pool": 123}', qos=1, retain=True).wait_for_publish(5)
    server.close()
    broker.stop()  # SIGTERM: mosquitto saves its state as it exits (waited for, no clock)
    assert broker.proc.returncode == 0, broker.log_tail()  # it exited by itself, saved, not SIGKILLed
    broker.start()
    sign = subscribed(broker, SIGN_USER, "tablectl/+/pool")
    assert sign.wait(1) == [("tablectl/pit1/pool", b'{"pool": 123}')]
    sign.close()


def test_tls_with_a_certificate_made_by_openssl(tmp_path):
    b = Broker(tmp_path / "tls", {"t01": "pit1"}, tls=True).start()
    try:
        assert b.ca_file.exists()
        c = Client(b, "t01", ca=b.ca_file)
        assert c.connect() == 0
        c.close()
        plain = Client(b, "t01")  # MQTT without TLS on the TLS listener: no connection
        with pytest.raises(Exception):
            plain.c.connect("127.0.0.1", b.port)
            plain.c.loop_start()
            with plain.cond:
                plain.cond.wait_for(lambda: plain.rc is not None, 3)
            assert plain.rc == 0, "connected without TLS"
            plain.c.loop_stop()
    finally:
        b.stop()


@pytest.mark.parametrize("kind, name, why", [
    ("table", "T01", "a-z, 0-9"), ("table", "a/b", "a-z, 0-9"), ("table", "jackpot", "account's"),
    ("link", "server", "state topic"), ("link", "", "1-32"), ("table", "x" * 33, "1-32"),
])
def test_ids_that_would_break_topics_or_accounts_are_refused(kind, name, why):
    with pytest.raises(ValueError, match=why):
        check_id(kind, name)
