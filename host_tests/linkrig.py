"""The link tests' rig: a real mosquitto, the jackpot server and CPython tables as processes a test can SIGKILL (host_tests/link)."""
import json
import os
import pathlib
import signal
import subprocess
import sys
import threading
import time
import urllib.request

from jackpot.broker import SERVER_USER, Broker, free_port

ROOT = pathlib.Path(__file__).resolve().parent.parent
PYTHON = sys.executable
LINK = "pit1"
GAME = {"game": "caribbean_stud", "seed_cents": 500000, "rate_bp": 2000, "limit_cents": 50000000,
        "fixed_flush": 12500, "fixed_full_house": 18750, "fixed_four_of_a_kind": 25000,
        "fixed_straight_flush": 250000, "fixed_royal_flush": 1000000}


def env():
    e = dict(os.environ)
    e["PYTHONPATH"] = str(ROOT / "tools")
    return e


class Proc:
    """A child process (the server or a table) that can be killed with SIGKILL and started again."""

    def __init__(self, args, log):
        self.args = args
        self.log = pathlib.Path(log)
        self.proc = None

    def start(self):
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(self.args, stdout=out, stderr=out, stdin=subprocess.DEVNULL, env=env(),
                                         start_new_session=True)
        return self

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def kill(self):
        if self.alive():
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(5)

    def stop(self):
        if self.alive():
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.kill()

    def tail(self, n=15):
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-n:]) if self.log.exists() else ""


class Link:
    """A broker, a server and its configuration in one folder; tables started on demand."""

    def __init__(self, folder, tables, tls=False, game=None):
        self.folder = pathlib.Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.tables = dict((t, LINK) for t in tables)
        self.config = self.folder / "link.json"
        self.config.write_text(json.dumps({"links": {LINK: game or GAME}, "tables": self.tables}))
        self.broker = Broker(self.folder / "broker", self.tables, tls=tls)
        self.db = self.folder / "ledger.db"
        self.web_port = free_port()
        self.server = Proc([PYTHON, "-m", "jackpot", "serve", "--config", str(self.config), "--db", str(self.db),
                            "--broker", "127.0.0.1:%d" % self.broker.port, "--credentials", str(self.creds),
                            "--web-port", str(self.web_port)] + (["--ca", str(self.broker.ca_file)] if tls else []),
                           self.folder / "server.log")
        self.procs = [self.server]

    @property
    def until(self):
        return self.folder / "stop-play"

    @property
    def creds(self):
        return self.broker.folder / "credentials.json"

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

    def wait_web(self, timeout=15):
        deadline = time.monotonic() + timeout
        while True:
            try:
                return self.status()
            except OSError:
                assert self.server.alive(), self.server.tail()
                assert time.monotonic() < deadline, "the server's web side did not answer: " + self.server.tail()
                time.sleep(0.1)

    def status(self):
        with urllib.request.urlopen(self.url + "/status", timeout=5) as r:
            return json.loads(r.read())

    def table(self, tid, every=0.5, seed=1, hit_every=50, pay_after=0.5):
        """A CPython table as a process, playing until the file `until` exists (self.folder/'stop-play')."""
        p = Proc([PYTHON, "-m", "jackpot", "table", "--id", tid, "--link", LINK, "--broker",
                  "127.0.0.1:%d" % self.broker.port, "--credentials", str(self.creds), "--state",
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


def server_password(link):
    return link.password(SERVER_USER)


class RawTable:
    """A table as bare MQTT messages (paho): send(kind, body) publishes with QoS 1 and returns the answer."""

    def __init__(self, link, tid, ep=1):
        import paho.mqtt.client as mqtt
        from jackpot import protocol
        self.protocol = protocol
        self.tid = tid
        self.ep = ep
        self.seq = 0
        self.answers = {}
        self.cond = threading.Condition()
        self.c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="raw-" + tid, protocol=mqtt.MQTTv311)
        self.c.username_pw_set(tid, link.password(tid))
        self.c.on_message = self._message
        self.c.connect("127.0.0.1", link.broker.port)
        self.c.loop_start()
        self.c.subscribe(protocol.table_topic(LINK, tid, "ack"), qos=1)
        time.sleep(0.3)

    def _message(self, client, userdata, msg):
        body = json.loads(msg.payload)
        with self.cond:
            self.answers[body.get("seq")] = body
            self.cond.notify_all()

    def send(self, kind, body, timeout=10):
        self.seq += 1
        body = dict(body, ep=self.ep, seq=self.seq)
        self.c.publish(self.protocol.table_topic(LINK, self.tid, kind), self.protocol.encode(body), qos=1)
        with self.cond:
            assert self.cond.wait_for(lambda: body["seq"] in self.answers, timeout), "no answer to %s" % body
            return self.answers[body["seq"]]

    def close(self):
        self.c.loop_stop()
        self.c.disconnect()
