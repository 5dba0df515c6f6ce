"""The link on a 3-node nats-server cluster (MQTT over JetStream): the server and the firmware table on
different nodes, the permissions of the mosquitto ACL, and a table failing over when its node is SIGKILLed."""
import json
import subprocess
import time

import pytest

from jackpot import protocol
from jackpot.broker import BrokerError
from jackpot.natscluster import NatsCluster, subject
from jackpot.rig import LINK, ROOT, Demo, RawTable, env


def test_topic_filters_become_nats_subjects():
    assert subject("tablectl/+/pool") == ["tablectl.*.pool"]
    assert subject("tablectl/#") == ["tablectl", "tablectl.>"]  # MQTT's # matches its parent level too
    assert subject("#") == [">"]
    assert subject("tablectl/pit1/table/t01/ack") == ["tablectl.pit1.table.t01.ack"]


def test_the_server_and_tables_take_every_node_and_name_a_bad_address():
    assert protocol.brokers("127.0.0.1:1883,10.0.0.2:1884") == [("127.0.0.1", 1883), ("10.0.0.2", 1884)]
    for bad, named in (("127.0.0.1:1883,", "''"), ("h:0", "'h:0'"), ("h:65536", "'h:65536'"), ("h", "'h'"),
                       (":1883", "':1883'"), ("h:1,h:x", "'h:x'")):
        with pytest.raises(ValueError) as e:
            protocol.brokers(bad)
        assert named in str(e.value) and "\n" not in str(e.value), bad


def test_a_cluster_refuses_tls_rather_than_speak_in_clear():
    with pytest.raises(ValueError, match="TLS"):
        NatsCluster("/nonexistent", {"t01": "pit1"}, tls=True)


def test_a_node_that_cannot_start_is_named_with_its_log(tmp_path):
    c = NatsCluster(tmp_path / "c", {"t01": "pit1"}, nodes=1)
    c.write_files()
    conf = json.loads((tmp_path / "c" / "n1.conf").read_text())
    conf["mqtt"]["listen"] = "127.0.0.1:99999"  # a port no node can bind
    (tmp_path / "c" / "n1.conf").write_text(json.dumps(conf))
    c._spawn(0)
    with pytest.raises(BrokerError, match="nats-server n1"):
        c._ready(0, 10)
    c.stop()


def _sub(client, topic):
    """Subscribe QoS 1 and wait for the SUBACK; its granted QoS (128: refused)."""
    import threading
    done = threading.Event()
    granted = []
    client.on_subscribe = lambda c, u, mid, codes, p=None: (granted.extend(codes), done.set())
    client.subscribe(topic, qos=1)
    assert done.wait(10), "no SUBACK for %s" % topic
    return granted[0].value


def _client(link, user, cid):
    import paho.mqtt.client as mqtt
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=cid, protocol=mqtt.MQTTv311)
    c.username_pw_set(user, link.password(user))
    got = []
    c.on_message = lambda cl, u, msg: got.append((msg.topic, msg.payload))
    c.connect("127.0.0.1", link.broker.ports[1])
    c.loop_start()
    return c, got


def holds_the_acl(link):
    """A table cannot read another table's answers, nor forge a pool or another table's message: the
    forbidden publishes are acknowledged and dropped."""
    t01 = RawTable(link, "t01")
    spy, seen = _client(link, "t02", "spy")
    assert _sub(spy, "tablectl/%s/table/t01/ack" % LINK) == 128  # another table's answers: refused
    assert _sub(spy, "tablectl/%s/pool" % LINK) == 1
    # a forbidden publish is acknowledged and dropped: no pool, no answer from t02 as t01
    spy.publish("tablectl/%s/pool" % LINK, b'{"pool":1}', qos=1).wait_for_publish(5)
    spy.publish("tablectl/%s/table/t01/contrib" % LINK, b'{"ep":1,"seq":1,"round":1,"bets":[[1,100]],"locked":[1]}',
                qos=1).wait_for_publish(5)
    b = t01.send("contrib", {"round": 1, "bets": [[1, 2500]], "locked": [1]})  # answered: the link is live
    assert b["ok"] == "contrib" and b["cents"] == 500
    meters = link.status()["links"][LINK]["tables"]
    assert meters["t01"]["bets"] == 1 and meters["t01"]["messages"] == 1  # the forged one never reached it
    assert all(json.loads(p).get("pool") != 1 for _, p in seen)
    spy.loop_stop()
    spy.disconnect()
    t01.close()
    assert refused_subscription(link, "t02", "tablectl/%s/table/t01/ack" % LINK)


def refused_subscription(link, user, topic):
    """protocol.subscribe's error for a subscription nats refuses (the server and CPython tables connect
    again on it, not wait deaf): its message, '' if it was taken."""
    import asyncio
    import aiomqtt

    async def go():
        async with protocol.client(("127.0.0.1", link.broker.ports[2]), user, link.password(user), "refuse-" + user,
                                   timeout=10) as c:
            try:
                await protocol.subscribe(c, topic, 1)
            except aiomqtt.MqttError as e:
                return str(e)
            return ""
    why = asyncio.run(go())
    assert why in ("", "the broker refused the subscription to %s" % topic), why
    return why


def up(st):
    return st["status"].get("link_state") == "up"


def test_the_cluster_holds_the_acl_and_a_firmware_table_fails_over_when_its_node_dies(make_link, fw_table):
    """The ACL (holds_the_acl), then: the server on node 1, the table on node 2 (first in its link). Two
    rounds are played, a third locked, and node 2 is SIGKILLed at once (that contribution in flight); the
    table goes to node 3, sends its outbox again, and the server counts every locked bet once, none lost.
    Prints how long the table refused progressive bets. (One cluster for both: a cluster and its server
    take seconds to start.)"""
    link = make_link(("fw1", "t01", "t02"), cluster=True)
    holds_the_acl(link)
    fw = fw_table(link, first=1, link_down_ms=3000)
    fw.wait(up, 20)
    assert "(1 of 3)" in fw.picture()["status"]["link"]
    for rnd in range(3):
        fw.seats(1, 2)
        fw.wait(lambda st: st["status"]["state"] == "betting" and up(st), 10)
        fw.press("LOCK")
        fw.wait(lambda st: st["status"]["state"] == "locked", 10)
        if rnd < 2:
            fw.press("CONFIRM")
            fw.wait(lambda st: st["status"]["state"] == "betting" and st["status"]["link_unanswered"] == 0, 15)
    link.broker.kill(1)  # the table's node, the third round's contribution perhaps unanswered
    killed = time.monotonic()
    seen = {}  # when the table said LINK DOWN, and when up again (a failover within link_down_ms: never)

    def failed_over(st):
        now = time.monotonic() - killed
        if not up(st):
            seen.setdefault("down", now)
        elif "down" in seen:
            seen.setdefault("up", now)
        # up past link_down_ms after the kill: a heartbeat heard on the new node
        return now > 3.5 and "(1 of 3)" not in st["status"]["link"] and up(st) and st["status"]["link_unanswered"] == 0

    st = fw.wait(failed_over, 30)
    refused = seen["up"] - seen["down"] if "down" in seen else 0.0
    print("\ncluster failover: progressive bets refused for %.1f s after the table's node was SIGKILLed (goal <= 10 s%s)"
          % (refused, "; LINK DOWN at %.1f s" % seen["down"] if "down" in seen else "; never down"))
    assert "(2 of 3)" in st["status"]["link"] or "(3 of 3)" in st["status"]["link"]
    meters = link.status()["links"][LINK]["tables"]["fw1"]
    # 20% of two 25.00 bets a round (CSP-10.1), each of the three rounds once
    assert (meters["bets"], meters["contributed"], meters["refused"]) == (6, 3000, 0)
    assert link.status()["links"][LINK]["balance_off"] == 0


def test_a_table_on_a_node_that_lives_plays_on_through_the_death_of_each_other_node(make_link, fw_table):
    """The server and a firmware table on node 1, another table's contributions changing the pool (so the
    server sends its retained pool all along); node 2 and then node 3 SIGKILLed and restarted. On nats a
    QoS 1 message, a persistent session's record and a retained message wait for a stream's new leader;
    had the link's answers and beats gone that way (or behind the server's retained pool, on its one
    connection), the table would say LINK DOWN after whichever node held a leader. It never does."""
    import threading
    link = make_link(("fw1", "t01"), cluster=True)
    fw = fw_table(link, first=0, link_down_ms=3000)
    fw.wait(up, 20)
    t01 = RawTable(link, "t01", qos=0)  # as a table publishes to a cluster
    states, halt, failed = [], threading.Event(), []

    def play():  # t01's contributions, one after another, each answered
        n = 0
        while not halt.is_set():
            n += 1
            try:
                assert t01.send("contrib", {"round": n, "bets": [[1, 2500]], "locked": [1]}, timeout=15)["ok"] == "contrib"
            except AssertionError as e:
                failed.append(str(e))
                return
            halt.wait(0.2)

    def sample():
        while not halt.is_set():
            states.append(fw.picture()["status"].get("link_state"))
            halt.wait(0.1)
    threads = [threading.Thread(target=f, daemon=True) for f in (play, sample)]
    for th in threads:
        th.start()
    for i in (1, 2):
        link.broker.kill(i)
        link.broker.start_node(i, 60)  # until it takes logins again: nats' own recovery
        past = time.monotonic() + 3.5   # past link_down_ms: a table that would go down has
        while time.monotonic() < past:
            fw.seats(1, 2)
            fw.press("LOCK")
            fw.wait(lambda st: st["status"]["state"] == "locked", 10)
            fw.press("CONFIRM")
            fw.wait(lambda st: st["status"]["state"] == "betting", 10)
    halt.set()
    for th in threads:
        th.join(20)
    t01.close()
    assert failed == []
    assert states and [st for st in states if st != "up"] == []
    fw.wait(lambda st: st["status"]["link_unanswered"] == 0, 15)
    meters = link.status()["links"][LINK]["tables"]["fw1"]
    assert meters["refused"] == 0 and meters["contributed"] == 1000 * meters["bets"] // 2  # 20% (CSP-10.1)
    assert link.status()["links"][LINK]["balance_off"] == 0


def test_make_link_ha_runs_the_demo_on_three_nodes_and_its_tables_play_on_them(tmp_path):
    """`make link HA=1` (python -m jackpot demo --cluster): the server and two simulated tables on a 3-node
    cluster (each table first on another node); both tables' rounds reach the ledger, balanced."""
    demo = Demo(tmp_path, "--cluster", "--every", "0.5", tables=2).start()
    try:
        out = demo.output()
        assert "nats-server x3" in out and "127.0.0.1:%d," % demo.broker_port in out, out
        deadline = time.monotonic() + 30
        while True:
            st = demo.status()["links"][LINK]
            if all(st["tables"].get(t, {}).get("bets", 0) > 0 for t in ("t01", "t02")):
                break
            assert time.monotonic() < deadline, json.dumps(st)[:800]
            time.sleep(0.2)
        assert st["balance_off"] == 0
    finally:
        demo.stop()
    assert "Traceback" not in demo.output()


def test_the_demo_refuses_tls_on_the_cluster_in_one_line(tmp_path):
    demo = Demo(tmp_path, "--cluster", "--tls", tables=1)  # as make link HA=1 LINK_TLS=1 runs it
    proc = subprocess.run(demo.args, capture_output=True, text=True, timeout=60, cwd=str(ROOT), env=env())
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines()[-1:] == ["jackpot: the nats cluster here speaks MQTT without TLS "
                                                     "(mosquitto has it)"], proc.stderr
