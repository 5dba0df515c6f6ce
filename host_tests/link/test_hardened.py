"""The link under attack (real mosquitto, the real server process): hostile payloads from every account, a
client id taken by another account, amounts past the link's limits, duplicates counted apart.

Nothing here waits on a clock: every negative check ends with a sentinel the same connection sends after
the hostile message (the broker keeps one connection's order), and waits for the sentinel's answer.
"""
import json
import threading

import paho.mqtt.client as mqtt
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from jackpot import protocol
from jackpot.broker import SERVER_USER, SIGN_USER, Broker
from jackpot.ledger import Ledger, link_view
from jackpot.rig import GAME, LINK, Demo, RawTable

DEEP = b"[" * 1000 + b"]" * 1000  # what took the server down: RecursionError in the JSON decoder


class Session:
    """A paho client on a thread that counts its disconnections and waits on acknowledgements, not time."""

    def __init__(self, port, user, password, client_id):
        self.cond = threading.Condition()
        self.got, self.acked, self.dropped, self.rc = [], set(), 0, None
        self.c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311,
                             clean_session=False)
        self.c.username_pw_set(user, password)
        self.c.on_connect = lambda c, u, f, rc, p=None: self._set("rc", rc)
        self.c.on_disconnect = lambda c, u, f, rc, p=None: self._set("dropped", self.dropped + 1)
        self.c.on_subscribe = lambda c, u, mid, rcs, p=None: self._ack(mid)
        self.c.on_message = lambda c, u, m: self._got(m)
        self.c.connect("127.0.0.1", port)
        self.c.loop_start()
        with self.cond:
            assert self.cond.wait_for(lambda: self.rc is not None, 10) and self.rc == 0, (user, self.rc)

    def _set(self, name, value):
        with self.cond:
            setattr(self, name, value)
            self.cond.notify_all()

    def _ack(self, mid):
        with self.cond:
            self.acked.add(mid)
            self.cond.notify_all()

    def _got(self, m):
        with self.cond:
            self.got.append((m.topic, m.payload))
            self.cond.notify_all()

    def subscribe(self, topic):
        """Subscribed once the broker says so (its SUBACK): a round trip on this connection."""
        _, mid = self.c.subscribe(topic, qos=1)
        with self.cond:
            assert self.cond.wait_for(lambda: mid in self.acked, 10), "no SUBACK for %s" % topic

    def until(self, ok, timeout=15):
        with self.cond:
            assert self.cond.wait_for(lambda: ok(self.got), timeout), self.got[-5:]

    def close(self):
        self.c.loop_stop()
        self.c.disconnect()


# -- 2: client ids are the accounts' --------------------------------------------------------------------
@pytest.fixture
def broker(tmp_path):
    b = Broker(tmp_path / "broker", {"t01": LINK, "t02": LINK}, servers=(SERVER_USER, "jackpot-b")).start()
    yield b
    b.stop()


# the ids the programs ask for (the server's and the firmware's before the broker tied ids to accounts)
VICTIMS = {SERVER_USER: "tablectl-jackpot", SIGN_USER: "tablectl-sign", "t02": "tablectl-t02"}


@pytest.mark.parametrize("attacker", ["t01", SIGN_USER, "jackpot-b"])  # a table, the sign, another server
@pytest.mark.parametrize("victim", sorted(VICTIMS))
def test_no_account_takes_another_accounts_session_by_its_client_id(broker, attacker, victim):
    """The sign connecting as the server, t01 as t02, a second server instance as the first: the victim
    keeps its connection (on main mosquitto closed the old one: the server was knocked off)."""
    if attacker == victim:
        pytest.skip("one account's second connection is its own session")
    held = Session(broker.port, victim, broker.password(victim), VICTIMS[victim])
    other = Session(broker.port, attacker, broker.password(attacker), VICTIMS[victim])
    held.subscribe("tablectl/server")  # after the attacker's CONNACK: a takeover has happened by now
    other.subscribe("tablectl/server")
    assert (held.dropped, other.dropped) == (0, 0)
    for s in (held, other):
        s.close()


def test_each_server_instance_has_a_session_of_its_own(broker):
    a = Session(broker.port, SERVER_USER, broker.password(SERVER_USER), "tablectl-jackpot")
    b = Session(broker.port, "jackpot-b", broker.password("jackpot-b"), "tablectl-jackpot")
    b.subscribe("tablectl/#")
    a.c.publish("tablectl/pit9/pool", b"from a", qos=1).wait_for_publish(5)
    b.until(lambda got: ("tablectl/pit9/pool", b"from a") in got)
    a.subscribe("tablectl/server")
    assert (a.dropped, b.dropped) == (0, 0)
    for s in (a, b):
        s.close()


# -- 4: the link's own limits, held by the server -------------------------------------------------------
def send(led, table, kind, body):
    body = protocol.decode(kind, protocol.encode(body))
    with led.batch():
        return led.handle(table, kind, body, 1.0)


def test_the_server_holds_the_links_bet_seats_and_one_contribution_a_round(ledger_at):
    led = Ledger(ledger_at, {LINK: dict(GAME, seats=5, bet_cents=2500)}, {"t01": LINK})
    ok = send(led, "t01", "contrib", {"ep": 1, "seq": 1, "round": 1, "bets": [[1, 2500]], "locked": [1]})[0]
    assert ok["ok"] == "contrib"
    before = link_view(led.db, LINK)
    refused = [
        ({"ep": 1, "seq": 2, "round": 2, "bets": [[1, 500000000]], "locked": [1]}, "at most 2500"),
        ({"ep": 1, "seq": 3, "round": 3, "bets": [[1, 2501]], "locked": [1]}, "at most 2500"),
        ({"ep": 1, "seq": 4, "round": 4, "bets": [[6, 2500]], "locked": [6]}, "5 seats"),
        ({"ep": 1, "seq": 5, "round": 5, "bets": [], "locked": [1, 9]}, "5 seats"),
        # the same round again under a new sequence number: a second contribution
        ({"ep": 1, "seq": 6, "round": 1, "bets": [[2, 2500]], "locked": [2]}, "contribution already"),
    ]
    for body, why in refused:
        answer, changed, how = send(led, "t01", "contrib", body)
        assert how == "new" and changed is None and why in answer["error"] and answer["seq"] == body["seq"]
    assert link_view(led.db, LINK) == before  # nothing of them reached the pool
    assert send(led, "t01", "contrib", {"ep": 1, "seq": 7, "round": 6, "bets": [[5, 2500]], "locked": [5]})[0]["ok"]
    led.db.close()


# -- 1, 5: hostile payloads from every account; duplicates counted apart -------------------------------
def test_a_payload_nested_past_the_bound_is_refused_before_decoding():
    for kind in protocol.KINDS:
        with pytest.raises(ValueError, match="deeper"):
            protocol.decode(kind, DEEP)
    with pytest.raises(ValueError, match="deeper"):
        protocol.decode("contrib", b'{"ep":1,"seq":1,"round":1,"bets":[[[1]]],"locked":[]}')
    assert protocol.depth(b'{"a":"[[[[[[[[\\"[[[["}') == 1  # brackets in strings do not count


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.binary(max_size=3000), st.text(alphabet="[]{}\",:\\01 a", max_size=3000).map(str.encode)))
def test_decode_refuses_any_bytes_with_a_value_error_only(payload):
    for kind in protocol.KINDS:
        try:
            protocol.decode(kind, payload)
        except ValueError as e:
            assert "\n" not in str(e)


JSON = st.recursive(st.none() | st.booleans() | st.integers(-(1 << 40), 1 << 40) | st.floats() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
                    max_leaves=12)
NEAR = st.fixed_dictionaries({"ep": st.sampled_from([1, 2, -1, True, 1.5, "1", 1 << 40]),
                              "seq": st.integers(-2, 40) | JSON, "round": st.integers(-1, 40) | JSON,
                              "n": st.integers(-1, 1 << 33) | JSON, "claim": st.integers(-1, 40) | JSON,
                              "bets": st.lists(st.lists(st.integers(-1, 1 << 31), max_size=3), max_size=10) | JSON,
                              "locked": st.lists(st.integers(-1, 12), max_size=10) | JSON,
                              "hits": st.lists(st.tuples(st.integers(-1, 12), st.sampled_from(
                                  ["flush", "royal_flush", "x", ""])), max_size=10) | JSON})
PAYLOADS = st.one_of(
    st.just(DEEP), st.binary(max_size=2100),
    st.integers(1, 4000).map(lambda n: b"[" * n + b"]" * n),
    st.integers(1, 4000).map(lambda n: b'{"a":' * n + b"1" + b"}" * n),
    JSON.map(lambda v: json.dumps(v).encode()),
    NEAR.map(lambda v: json.dumps(v).encode()),
    st.integers(2040, 5000).map(lambda n: b'{"ep":1,"seq":1,"x":"' + b"x" * n + b'"}'),
    st.sampled_from([b"\xff\xfe{", b"\x00", b"", b"1e999999", b'{"ep":1e999,"n":1}', b"9" * 2048,
                     b'{"ep":NaN,"n":Infinity}']),
)
# who may send what where: each table on its own topics, the sign (the broker drops what it sends), the
# server's account on any table's topics (a second server instance: the running one's account is its own)
SENDERS = [("t01", "t01"), ("t02", "t02"), (SIGN_USER, "t01"), ("jackpot-b", "t02")]


def test_no_payload_from_any_account_stops_the_server_and_the_ledger_balances(make_link):
    link = make_link(("t01", "t02"), servers=(SERVER_USER, "jackpot-b"))
    senders = dict((user, Session(link.broker.port, user, link.password(user), "attack-" + user))
                   for user, _ in SENDERS)
    acks = dict((t, senders[t]) for t in ("t01", "t02"))  # the answers, read by the tables themselves
    for t, s in acks.items():
        s.subscribe(protocol.table_topic(LINK, t, "ack"))
    beat = [0]

    def sentinel(table, via):
        """A heartbeat after the hostile message on the same connection: answered, the server is alive and
        has handled everything sent before it (the broker keeps the order of one connection)."""
        beat[0] += 1
        n = beat[0]
        beat_msg = protocol.encode({"ep": 99, "n": n})
        via.c.publish(protocol.table_topic(LINK, table, "beat"), beat_msg, qos=1).wait_for_publish(10)
        acks[table].until(lambda got: any(json.loads(p).get("beat") == n for _, p in got))

    @settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
    @given(sender=st.sampled_from(SENDERS), kind=st.sampled_from(protocol.KINDS), payload=PAYLOADS)
    def campaign(sender, kind, payload):
        user, table = sender
        via = senders[user]
        via.c.publish(protocol.table_topic(LINK, table, kind), payload, qos=1).wait_for_publish(10)
        sentinel(table, senders[table] if user == SIGN_USER else via)

    campaign()
    for payload in (DEEP, b"\xff", b"{}"):  # the payloads on every topic, whatever hypothesis drew
        for kind in protocol.KINDS:
            senders["t01"].c.publish(protocol.table_topic(LINK, "t01", kind), payload, qos=1).wait_for_publish(10)
    sentinel("t01", senders["t01"])
    assert link.server.alive(), link.server.tail()
    st_ = link.status()
    assert st_["links"][LINK]["balance_off"] == 0
    assert st_["server"]["refused"] > 0 and st_["server"]["connected"]
    assert "Traceback" not in link.server.log.read_text()
    for s in senders.values():
        s.close()
    t = RawTable(link, "t02", ep=12345)  # a table's ordinary round is still taken
    assert t.send("contrib", {"round": 1, "bets": [[1, 2500]], "locked": [1]})["ok"] == "contrib"
    t.close()


def test_status_counts_duplicates_apart_from_refusals(make_link):
    link = make_link(("t01",))
    t = RawTable(link, "t01", ep=7)
    first = t.send("contrib", {"round": 1, "bets": [[1, 2500]], "locked": [1]})
    again = dict(ep=7, seq=1, round=1, bets=[[1, 2500]], locked=[1])
    for _ in range(2):
        t.c.publish(protocol.table_topic(LINK, "t01", "contrib"), protocol.encode(again), qos=1).wait_for_publish(10)
    assert t.send("contrib", {"round": 2, "bets": [[1, 2500]], "locked": [1]})["ok"] == "contrib"  # after both
    t.close()
    server = link.status()["server"]
    assert first["ok"] == "contrib"
    assert (server["duplicates"], server["refused"], server["messages"]) == (2, 0, 2)


# -- 6: one table id from two sessions ------------------------------------------------------------------
def test_the_server_reports_one_table_id_used_by_two_sessions(make_link):
    """Two boards (or a simulator and the demo's own table) given one account: each sends under its own
    epoch, so the server sees the id's messages alternate between two records; /status names the table
    (on main: nothing said, `refused 0`). A table whose records were cleared moves to a new epoch once:
    not two sessions."""
    link = make_link(("t01", "t02"))
    one, two = RawTable(link, "t01", ep=111), RawTable(link, "t02", ep=5)
    two.send("contrib", {"round": 1, "bets": [[1, 2500]], "locked": [1]})
    two.ep = 6  # t02's records cleared: a new epoch, once
    two.seq = 0
    two.send("contrib", {"round": 1, "bets": [[1, 2500]], "locked": [1]})
    seqs = {111: 0, 222: 0}
    for rnd, ep in enumerate((111, 222, 111, 222), 1):  # t01: two records' sequences interleaved on one id
        one.ep, one.seq = ep, seqs[ep]
        assert one.send("contrib", {"round": rnd, "bets": [[1, 2500]], "locked": [1]})["ok"] == "contrib"
        seqs[ep] = one.seq
    sessions = link.status()["server"]["sessions"]
    one.close()
    two.close()
    assert list(sessions) == ["t01"] and sessions["t01"] >= 1
    assert "two sessions" in link.server.tail(40)


def test_make_links_demo_takes_the_brokers_port_and_survives_the_payload_that_stopped_it(tmp_path):
    """What `make link` runs (python -m jackpot demo) on the broker port it is given: the issue's payload
    from a table's account stopped it, broker, tables and page with it; now it is refused and the demo
    answers the next heartbeat. The table id it keeps for a simulator (`yours`) is on the link."""
    demo = Demo(tmp_path).start()
    try:
        assert "mosquitto on 127.0.0.1:%d" % demo.broker_port in demo.output()
        assert "yours    t03 on the link" in demo.output()
        t03 = Session(demo.broker_port, "t03", demo.credentials()["t03"], "t03")
        t03.subscribe(protocol.table_topic(LINK, "t03", "ack"))
        for kind in protocol.KINDS:
            t03.c.publish(protocol.table_topic(LINK, "t03", kind), DEEP, qos=1).wait_for_publish(10)
        t03.c.publish(protocol.table_topic(LINK, "t03", "beat"), b'{"ep":1,"n":7}', qos=1).wait_for_publish(10)
        t03.until(lambda got: any(json.loads(p).get("beat") == 7 for _, p in got), 30)
        answer = [json.loads(p) for _, p in t03.got if json.loads(p).get("beat") == 7][0]
        assert abs(answer["now"] - protocol.now()) <= 5, answer  # the server's clock, for the tables' (issue 26)
        t03.close()
        assert demo.alive(), demo.tail()
    finally:
        demo.stop()  # SIGTERM: the demo stops its broker, tables and web side
