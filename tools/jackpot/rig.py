"""The link's test and bench rig: a real mosquitto, the jackpot server and tables (CPython, firmware) as processes that can be SIGKILLed.

Used by host_tests/link and tools/bench/link.py; not part of the server.
"""
import json
import os
import pathlib
import subprocess
import sys
import threading
import time
import urllib.request

from child import Child
from jackpot.broker import Broker, free_port
from jackpot.natscluster import NatsCluster

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
PYTHON = sys.executable
LINK = "pit1"
GAME = {"game": "caribbean_stud", "seed_cents": 500000, "rate_bp": 2000, "limit_cents": 50000000,
        "fixed_flush": 12500, "fixed_full_house": 18750, "fixed_four_of_a_kind": 25000,
        "fixed_straight_flush": 250000, "fixed_royal_flush": 1000000}


def env():
    e = dict(os.environ)
    e["PYTHONPATH"] = str(ROOT / "tools")
    return e


class Proc(Child):
    """A child process (the server or a table) that can be killed with SIGKILL and started again."""

    def __init__(self, args, log):
        self.args = args
        self.log = pathlib.Path(log)
        self.proc = None

    def start(self, cwd=None, environ=None):
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(self.args, stdout=out, stderr=out, stdin=subprocess.DEVNULL,
                                         env=environ or env(), cwd=cwd, start_new_session=True)
        return self

    def tail(self, n=15):
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-n:]) if self.log.exists() else ""


class Link:
    """A broker (mosquitto, or with cluster=True three nats-server nodes), a server and its configuration in
    one folder; tables started on demand."""

    def __init__(self, folder, tables, tls=False, game=None, servers=None, db=None, cluster=False):
        self.folder = pathlib.Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.tables = dict((t, LINK) for t in tables)
        self.config = self.folder / "link.json"
        self.config.write_text(json.dumps({"links": {LINK: game or GAME}, "tables": self.tables}))
        kind = NatsCluster if cluster else Broker
        self.broker = kind(self.folder / "broker", self.tables, tls=tls, **({"servers": servers} if servers else {}))
        self.db = db or self.folder / "ledger.db"  # a SQLite path, or a PostgreSQL URI (jackpot.ledgerdb)
        self.tls = tls
        self.cluster = cluster
        self.web_ports = {}  # server account -> its web side's port
        self.servers = {}    # server account -> its process
        self.procs = []
        self.server = self.add_server(self.broker.servers[0])

    def add_server(self, user, first=0):
        """A server instance as a process (not started) under its own broker account (one of `servers`),
        on the same ledger, with its own web side; the first is self.server. first: the cluster's node it
        connects to first."""
        log = "server.log" if not self.web_ports else "server-%s.log" % user
        self.web_ports[user] = port = free_port()
        proc = Proc([PYTHON, "-m", "jackpot", "serve", "--config", str(self.config), "--db", str(self.db),
                     "--broker", self.broker.addresses(first), "--credentials", str(self.creds),
                     "--web-port", str(port), "--user", user] + (["--ca", str(self.broker.ca_file)] if self.tls else []) +
                    (["--qos", "0"] if self.cluster else []),
                    self.folder / log)
        self.procs.append(proc)
        self.servers[user] = proc
        return proc

    @property
    def until(self):
        return self.folder / "stop-play"

    @property
    def creds(self):
        return self.broker.credentials_path

    @property
    def web_port(self):
        return self.web_ports[self.broker.servers[0]]

    @property
    def url(self):
        return "http://127.0.0.1:%d" % self.web_port

    def password(self, user):
        return self.broker.password(user)

    def start(self):
        self.broker.start()
        self.server.start()
        self.wait_web()
        return self

    def wait_web(self, timeout=15, user=None):
        """Until the server's web side answers and the server has subscribed to the tables' topics (another
        instance: its account's)."""
        server = self.servers[user] if user else self.server
        deadline = time.monotonic() + timeout
        while True:
            try:
                st = self.status(user)
                if st["server"]["connected"]:
                    return st
            except OSError:
                pass
            assert server.alive(), server.tail()
            assert time.monotonic() < deadline, "the server did not come up: " + server.tail()
            time.sleep(0.05)

    def status(self, user=None):
        port = self.web_ports[user] if user else self.web_port
        with urllib.request.urlopen("http://127.0.0.1:%d/status" % port, timeout=5) as r:
            return json.loads(r.read())

    def table(self, tid, every=0.5, seed=1, hit_every=50, pay_after=0.5):
        """A CPython table as a process, playing until the file `until` exists (self.folder/'stop-play')."""
        p = Proc([PYTHON, "-m", "jackpot", "table", "--id", tid, "--link", LINK, "--broker",
                  self.broker.addresses(), "--credentials", str(self.creds), "--state",
                  str(self.folder / ("%s.json" % tid)), "--every", str(every), "--seed", str(seed),
                  "--hit-every", str(hit_every), "--pay-after", str(pay_after), "--until", str(self.until)],
                 self.folder / ("%s.log" % tid))
        self.procs.append(p)
        return p

    def record(self, tid):
        return json.loads((self.folder / ("%s.json" % tid)).read_text())

    def stop(self):
        for p in self.procs:
            p.stop()
        self.broker.stop()


class Demo(Proc):
    """`python -m jackpot demo` (what `make link` runs) as a process, on the broker and web ports given."""

    def __init__(self, folder, *args, tables=2):
        self.folder = pathlib.Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.broker_port, self.web_port = free_port(), free_port()
        Proc.__init__(self, [PYTHON, "-m", "jackpot", "demo", "--tables", str(tables), "--folder",
                             str(self.folder / "link"), "--broker-port", str(self.broker_port), "--web-port",
                             str(self.web_port)] + list(args), self.folder / "demo.log")

    def start(self, timeout=60):
        """Started, its server subscribed (a bounded poll of its own /status)."""
        Proc.start(self, cwd=str(ROOT))
        deadline = time.monotonic() + timeout
        while not (self.status() or {}).get("server", {}).get("connected"):
            assert time.monotonic() < deadline, self.tail()
            time.sleep(0.1)
        return self

    def status(self):
        try:
            with urllib.request.urlopen("http://127.0.0.1:%d/status" % self.web_port, timeout=5) as r:
                return json.loads(r.read())
        except OSError:
            assert self.alive(), self.tail()
            return None

    def output(self):
        return self.log.read_text(errors="replace")

    def credentials(self):
        return json.loads((self.folder / "link" / "broker" / "credentials.json").read_text())


class RawTable:
    """A table as bare MQTT messages (paho): send(kind, body) publishes with QoS 1 and returns the answer."""

    def __init__(self, link, tid, ep=1, qos=1):
        import paho.mqtt.client as mqtt
        from jackpot import protocol
        self.protocol = protocol
        self.tid = tid
        self.ep = ep
        self.seq = 0
        self.qos = qos  # its publishes' (a table's on a nats cluster: 0)
        self.answers = {}
        self.subscribed = set()
        self.cond = threading.Condition()
        self.c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="raw-" + tid, protocol=mqtt.MQTTv311)
        self.c.username_pw_set(tid, link.password(tid))
        self.c.on_message = self._message
        self.c.on_subscribe = self._subscribed
        self.c.connect("127.0.0.1", link.broker.port)
        self.c.loop_start()
        _, mid = self.c.subscribe(protocol.table_topic(LINK, tid, "ack"), qos=1)
        with self.cond:  # the broker's SUBACK: answers from now on reach this client
            assert self.cond.wait_for(lambda: mid in self.subscribed, 10), "no SUBACK"

    def _subscribed(self, client, userdata, mid, codes, props=None):
        with self.cond:
            self.subscribed.add(mid)
            self.cond.notify_all()

    def _message(self, client, userdata, msg):
        body = json.loads(msg.payload)
        with self.cond:
            self.answers[body.get("seq")] = body
            self.cond.notify_all()

    def send(self, kind, body, timeout=10):
        self.seq += 1
        body = dict(body, ep=self.ep, seq=self.seq)
        self.c.publish(self.protocol.table_topic(LINK, self.tid, kind), self.protocol.encode(body), qos=self.qos)
        with self.cond:
            assert self.cond.wait_for(lambda: body["seq"] in self.answers, timeout), "no answer to %s" % body
            return self.answers[body["seq"]]

    def close(self):
        self.c.loop_stop()
        self.c.disconnect()


FW_CONFIG = """
import board
from tablectl.config import Config
from tablectl.journal import Journal
from tablectl.storage import Log
from tablectl.store import Store
log = Log(board.sim_flash())
cfg = Config(Store(log), Journal(log))
cfg.change(0, **%r)
print('configured', cfg['game'], cfg['link'])
"""


class FirmwareTable(Proc):
    """The firmware (.mpy files of the sim build) on the unix port as a linked table, its buttons and outputs
    through the sim board's host link (tools/sim/hostlink_server.py); a process a test can SIGKILL and start again.
    umqtt.simple comes from tools/building/mplib.py, as mip puts it in a board's /lib."""

    def __init__(self, build, folder, link, tid, heap="256K", tls=False, first=0, **cfg):
        from building import mplib
        from building.build_mpy import venv_tool
        from sim.hostlink_server import HostLinkServer
        self.build = pathlib.Path(build)
        self.folder = pathlib.Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.heap = heap
        self.micropython = venv_tool("micropython") or "micropython"
        self.path = "%s:%s:.frozen" % (self.build, mplib.folder())
        # every broker address, from node `first` of a cluster on (the one the table connects to first)
        url = "%s://%s:%s@%s/%s" % ("mqtts" if tls else "mqtt", tid, link.password(tid), link.broker.addresses(first), LINK)
        self.cfg = dict({"game": "caribbean_stud", "link": url, "link_down_ms": 1500}, **cfg)
        for key in ("seed_cents", "rate_bp", "limit_cents", "fixed_flush", "fixed_full_house", "fixed_four_of_a_kind",
                    "fixed_straight_flush", "fixed_royal_flush"):
            self.cfg.setdefault(key, GAME[key])  # the table posts the link's amounts (CSP-10.3)
        if tls:
            (self.folder / "link_ca.der").write_bytes((link.broker.ca_file.parent / "ca.der").read_bytes())
        self.link = HostLinkServer()
        Proc.__init__(self, [self.micropython, "-X", "heapsize=" + heap, str(self.build / "main.py")],
                      self.folder / "firmware.log")

    def env(self):
        e = dict(os.environ, MICROPYPATH=self.path, TABLECTL_ROOT="simstate",
                 TABLECTL_HOSTLINK="%s:%d" % self.link.address)
        e.pop("TABLECTL_REPL", None)
        return e

    def configure(self):
        proc = subprocess.run([self.micropython, "-X", "heapsize=" + self.heap, "-c", FW_CONFIG % (self.cfg,)],
                              cwd=str(self.folder), env=self.env(), capture_output=True, text=True, timeout=30)
        assert proc.returncode == 0 and "configured" in proc.stdout, proc.stdout + proc.stderr
        return self

    def start(self, timeout=15):
        Proc.start(self, cwd=str(self.folder), environ=self.env())
        self.wait(lambda st: st["connected"] and st["status"].get("state"), timeout)
        return self

    def kill(self):
        Proc.kill(self)
        deadline = time.monotonic() + 5
        while self.picture()["connected"]:  # the host link's end notices the closed socket
            assert time.monotonic() < deadline, "the host link still sees the killed firmware"
            time.sleep(0.02)

    def stop(self):
        Proc.stop(self)
        self.link.close()

    def tail(self, n=20):
        return Proc.tail(self, n)

    def picture(self):
        return self.link.snapshot()[1]

    def wait(self, ok, timeout=10):
        """Until ok(picture) holds: {'connected', 'status' (the controller's status()), 'out' (display, jackpot...)}."""
        deadline = time.monotonic() + timeout
        version = -1
        while True:
            version, st = self.link.snapshot()
            if ok(st):
                return st
            assert self.alive() or not st["connected"], self.tail()
            assert time.monotonic() < deadline, "timed out; picture %s\nfirmware log:\n%s" % (
                json.dumps({"status": st["status"], "display": st["out"].get("display"),
                            "jackpot": st["out"].get("jackpot")}), self.tail())
            self.link.wait(version, 0.2)

    def press(self, *roles, hold=0.1):
        for role in roles:
            self.link.send("press " + role)
            time.sleep(hold)  # past the firmware's 30 ms debounce
            self.link.send("release " + role)
            time.sleep(0.05)

    def seats(self, *seats):
        for s in range(1, 8):
            self.link.send("seat %d %d" % (s, 1 if s in seats else 0))
        time.sleep(0.15)

    def display(self):
        return self.picture()["out"].get("display", ["", ""])
