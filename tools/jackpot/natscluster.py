"""Debian's nats-server as the link's broker for a casino: three nodes, MQTT 3.1.1 over JetStream (replicas 3).

    c = NatsCluster(folder, tables={'t01': 'pit1'}, nodes=3)  # the accounts of broker.Broker, as nats users
    c.start()                # writes nodeN.conf, starts every node, waits until each takes an MQTT login
    c.ports, c.addresses()   # each node's MQTT port; 'h:p,h:p,h:p' for a table's link or the server
    c.kill(i), c.start_node(i)   # SIGKILL one node (a machine lost); start it again on its ports and store

The permissions are broker.py's ACL in nats subjects (an MQTT topic's / is a subject's .), with nats'
own needs: a QoS 1 subscribe takes `$MQTT.sub.>` (the subject nats delivers it on). A publish a user may
not make is acknowledged and dropped (the server answers every message, a table takes silence as a
refusal: docs/link.md). nats has no use_username_as_clientid: what the tables and servers ask for is
their account's name (docs/link.md says what that leaves open). No TLS here (mosquitto has it).
"""
import json
import os
import socket
import subprocess
import time

from child import Child
from jackpot.broker import SIGN_USER, Broker, BrokerError, ensure_installed, free_port

NATS = "/usr/sbin/nats-server"
DELIVERY = "$MQTT.sub.>"  # nats' subject for QoS 1 deliveries: a QoS 1 subscribe needs it


def subject(topic):
    """An MQTT topic filter as a nats subject: tablectl/+/pool -> tablectl.*.pool, a/# -> a and a.>."""
    levels = topic.split("/")
    subj = ".".join("*" if lv == "+" else lv for lv in levels)
    if levels[-1] == "#":  # MQTT's a/# matches a itself too; nats' a.> does not
        return [subj[:-2], subj[:-1] + ">"] if len(levels) > 1 else [">"]
    return [subj]


def _subjects(topics):
    return [s for t in topics for s in subject(t)]


class Node(Child):
    def __init__(self, name, folder):
        self.name = name
        self.folder = folder
        self.mqtt, self.client, self.route = free_port(), free_port(), free_port()

    def log_tail(self, n=8):
        p = self.folder / ("%s.log" % self.name)
        return "\n".join(p.read_text(errors="replace").splitlines()[-n:]) if p.exists() else ""


class NatsCluster(Broker):
    """The accounts, passwords and credentials.json of Broker; nats-server nodes in place of mosquitto."""

    def __init__(self, folder, tables=None, nodes=3, servers=None, tls=False, port=0):
        if tls:
            raise ValueError("the nats cluster here speaks MQTT without TLS (mosquitto has it)")
        Broker.__init__(self, folder, tables, port=port, **({"servers": servers} if servers else {}))
        self.nodes = [Node("n%d" % (i + 1), self.folder) for i in range(nodes)]
        if port:
            self.nodes[0].mqtt = port
        self.port = self.nodes[0].mqtt

    @property
    def ports(self):
        return [n.mqtt for n in self.nodes]

    def addresses(self, first=0):
        """Every node's MQTT address, from node `first` on: what a table's link or the server is given."""
        first %= len(self.nodes)
        order = self.nodes[first:] + self.nodes[:first]
        return ",".join("127.0.0.1:%d" % n.mqtt for n in order)

    def permissions(self):
        """{user: (publish subjects, subscribe subjects)}, from the ACL broker.py gives mosquitto."""
        perms = dict((s, (subject("tablectl/#"), subject("tablectl/#") + [DELIVERY])) for s in self.servers)
        perms[SIGN_USER] = ([], _subjects(("tablectl/+/pool", "tablectl/+/hits", "tablectl/server")) + [DELIVERY])
        for table, link in self.tables.items():
            own = "tablectl/%s/table/%s/" % (link, table)
            perms[table] = (_subjects(own + k for k in ("contrib", "hit", "paid", "refund", "beat")),
                            _subjects((own + "ack", "tablectl/%s/pool" % link, "tablectl/%s/beat" % link, "tablectl/server")) + [DELIVERY])
        return perms

    def write_files(self):
        ensure_installed("nats-server", (NATS,))
        self.folder.mkdir(parents=True, exist_ok=True)
        creds = self._credentials()
        users = []
        for user, (pub, sub) in sorted(self.permissions().items()):
            publish = {"allow": pub} if pub else {"deny": [">"]}
            users.append({"user": user, "password": creds[user],
                          "permissions": {"publish": publish, "subscribe": {"allow": sub}}})
        routes = ["nats-route://127.0.0.1:%d" % n.route for n in self.nodes]
        for node in self.nodes:
            # nats' configuration reads JSON: one value, written whole, no quoting of our own
            conf = {
                "server_name": node.name,
                "listen": "127.0.0.1:%d" % node.client,
                "jetstream": {"store_dir": str(self.folder / node.name), "max_memory_store": 64 << 20},
                "cluster": {"name": "tablectl", "listen": "127.0.0.1:%d" % node.route, "routes": routes},
                # an unacknowledged QoS 1 delivery goes again after ack_wait (a subscriber that died with it)
                "mqtt": {"listen": "127.0.0.1:%d" % node.mqtt, "ack_wait": "5s", "max_ack_pending": 1000,
                         # a session's consumers (one a QoS 1 subscription, replicated on every node) kept in
                         # memory: made at every login, they would otherwise wait on the disk
                         "consumer_memory_storage": True},
                "authorization": {"users": users},
                "log_file": str(self.folder / ("%s.log" % node.name)),
            }
            path = self.folder / ("%s.conf" % node.name)
            path.write_text(json.dumps(conf, indent=1))
            os.chmod(path, 0o600)  # the passwords are in it
        return [self.folder / ("%s.conf" % n.name) for n in self.nodes]

    # -- processes ----------------------------------------------------------------------------
    def start(self, timeout=30):
        self.write_files()
        for i in range(len(self.nodes)):
            self._spawn(i)
        for i in range(len(self.nodes)):
            self._ready(i, timeout)
        return self

    def start_node(self, i, timeout=30):
        self._spawn(i)
        self._ready(i, timeout)

    def _spawn(self, i):
        node = self.nodes[i]
        with open(self.folder / ("%s.stderr" % node.name), "ab") as err:
            node.proc = subprocess.Popen([NATS, "-c", str(self.folder / ("%s.conf" % node.name))], stdout=err,
                                         stderr=err, stdin=subprocess.DEVNULL, start_new_session=True)

    def _ready(self, i, timeout):
        """Until node i answers an MQTT login with CONNACK 0: JetStream has its leaders (a bounded retry)."""
        node = self.nodes[i]
        deadline = time.monotonic() + timeout
        why = ""
        while time.monotonic() < deadline:
            if not node.alive():
                raise BrokerError("nats-server %s exited (%s): %s" % (node.name, node.proc.returncode, node.log_tail()))
            why = login(node.mqtt, SIGN_USER, self.password(SIGN_USER))
            if not why:
                return
            time.sleep(0.2)
        raise BrokerError("nats-server %s: no MQTT login within %d s (%s): %s" % (node.name, timeout, why,
                                                                                  node.log_tail()))

    def alive(self):
        return any(n.alive() for n in self.nodes)

    def kill(self, i=None):
        """SIGKILL node i (every node when None)."""
        for n in self.nodes if i is None else [self.nodes[i]]:
            n.kill()

    def stop(self):
        for n in self.nodes:
            n.stop()

    def pause(self, paused=True):
        raise NotImplementedError("a stalled node: not for the cluster here")

    def log_tail(self, n=10):
        return "\n".join(node.log_tail(n) for node in self.nodes)


def login(port, user, password, timeout=2):
    """'' when an MQTT 3.1.1 CONNECT (clean session) to 127.0.0.1:port gets CONNACK 0; else why not."""
    def field(b):
        return len(b).to_bytes(2, "big") + b
    body = field(b"MQTT") + bytes([4, 0xC2]) + (10).to_bytes(2, "big") + field(b"") + field(user.encode()) + \
        field(password.encode())
    try:
        with socket.create_connection(("127.0.0.1", port), timeout) as s:
            s.sendall(bytes([0x10, len(body)]) + body)
            ack = s.recv(4)
            s.sendall(b"\xe0\x00")  # DISCONNECT
    except OSError as e:
        return str(e) or type(e).__name__
    return "" if ack[:2] == b"\x20\x02" and ack[3:4] == b"\x00" else "CONNACK %r" % ack
