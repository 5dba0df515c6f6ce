"""The link on a 3-node nats-server cluster (MQTT over JetStream): the server and the firmware table on
different nodes, the permissions of the mosquitto ACL, and a table failing over when its node is SIGKILLed."""
import json
import subprocess
import time

import pytest

from jackpot.broker import BrokerError
from jackpot.natscluster import NatsCluster, subject
from jackpot.rig import LINK, ROOT, Demo, RawTable, env


def test_topic_filters_become_nats_subjects():
    assert subject("tablectl/+/pool") == ["tablectl.*.pool"]
    assert subject("tablectl/#") == ["tablectl", "tablectl.>"]  # MQTT's # matches its parent level too
    assert subject("#") == [">"]
    assert subject("tablectl/pit1/table/t01/ack") == ["tablectl.pit1.table.t01.ack"]


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


def test_the_cluster_holds_the_acl_a_table_cannot_forge_a_pool_nor_read_another_tables_answers(make_link):
    link = make_link(("t01", "t02"), cluster=True)
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


def up(st):
    return st["status"].get("link_state") == "up"


def test_the_firmware_table_fails_over_when_its_node_dies_losing_and_doubling_nothing(make_link, fw_table):
    """The server on node 1, the table on node 2 (first in its link). Rounds are locked, node 2 is SIGKILLed
    just after a LOCK (its contribution in flight); the table goes to node 3, sends its outbox again, and
    the server counts every locked bet once. Prints how long the table refused progressive bets."""
    link = make_link(("fw1",), cluster=True)
    fw = fw_table(link, first=1, link_down_ms=3000)
    fw.wait(up, 20)
    assert "(1 of 3)" in fw.picture()["status"]["link"]
    locks = 0
    for rnd in range(3):
        fw.seats(1, 2)
        fw.wait(lambda st: st["status"]["state"] == "betting" and up(st), 10)
        fw.press("LOCK")
        fw.wait(lambda st: st["status"]["state"] == "locked", 10)
        locks += 1
        if rnd == 1:
            link.broker.kill(1)  # the table's node, its contribution perhaps unanswered
            killed = time.monotonic()
            fw.wait(lambda st: not up(st), 10)
            down = time.monotonic()
            st = fw.wait(lambda st: up(st) and st["status"]["link_unanswered"] == 0, 30)
            refused = time.monotonic() - killed
            print("\ncluster failover: the table refused progressive bets %.1f s after its node's SIGKILL (goal <= 10 s;"
                  " down seen after %.1f s)" % (refused, down - killed))
            assert "(2 of 3)" in st["status"]["link"] or "(3 of 3)" in st["status"]["link"]
            assert refused <= 30
        fw.press("CONFIRM")
        try:
            fw.wait(lambda st: st["status"]["state"] == "betting", 5)
        except AssertionError:  # seen once on the loaded machine right after a failover: the press not
            print("\nCONFIRM not taken in 5 s; pressed again")  # taken (open, in the closing note)
            fw.press("CONFIRM")
        fw.wait(lambda st: st["status"]["state"] == "betting" and st["status"]["link_unanswered"] == 0, 15)
    meters = link.status()["links"][LINK]["tables"]["fw1"]
    # 20% of two 25.00 bets a round (CSP-10.1), each round once
    assert (meters["bets"], meters["contributed"], meters["refused"]) == (2 * locks, 1000 * locks, 0)
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
