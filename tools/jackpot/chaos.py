"""The link's chaos run: simulated tables and a firmware table on the casino topology while its parts are SIGKILLed.

    report = Chaos(folder, firmware_build, tables=100, seed=25).run(faults)   # faults: ['server', 'node', 'pg', ...]

The topology is the casino's (docs/link.md): three nats-server nodes, two jackpot servers, a PostgreSQL
primary with its synchronous standby. A fault: one server SIGKILLed and restarted; one node SIGKILLed and
restarted; the primary SIGKILLed, the standby promoted (the documented procedure, done by the run after a
random pause, as an operator would); once the tables are up again, a new standby on the dead one's port
(a step of its own, 'standby'). The faults come one after another at random moments (random.Random(seed):
a failure repeats). For each: how long the tables refused progressive bets (LINK DOWN) and why, when the
part it hit was back, and what the simulated tables' PROCESSES processes did (lag, reads, unread bytes;
CHAOS_PROFILE=folder: their CPU profiles a fault window). Used by host_tests/link/test_chaos.py and
tools/bench/linkscale.py.
"""
import asyncio
import cProfile
import fcntl
import json
import multiprocessing
import os
import random
import re
import tempfile
import threading
import termios
import time

from jackpot import leanmqtt, postgres
from jackpot.broker import SERVER_USER, SIGN_USER
from jackpot.ledgerdb import connect
from jackpot.natscluster import login
from jackpot.rig import LINK, FirmwareTable, Link
from jackpot.simtable import SAVES, SimTable

SECOND = "jackpot-b"
DOWN_MS = 3000   # the tables' link_down_ms (the firmware's default)
SAMPLE_S = 0.1   # how often every table's link state is looked at
# a fault's refusal past the moment the part it hit works again ("back": the other server is up at once,
# a node's survivors take a login, the promoted standby commits): a resend (2 s) and a batch on a loaded machine
LINK_SLACK_S = 5.0
LAG_S = 0.5
SHM = "/dev/shm"
PROCESSES = 4  # the simulated tables' processes: 25 tables each, as the bench runs its tables (250 a process)


class Chaos:
    def __init__(self, folder, firmware_build, tables=100, seed=25, every_s=5.0):
        self.folder = folder
        self.build = firmware_build
        self.ids = ["s%03d" % i for i in range(tables)]
        self.rng = random.Random(seed)
        self.every_s = every_s
        self.down = {}        # table -> [[from, to or None], ...] on the monotonic clock
        self.faults = []      # (kind, what, at, {step: monotonic time})
        self.answered = []    # monotonic times of the simulated tables' answers (where the server's outage ends)
        self.sends = []       # (monotonic time, the simulated tables' publishes (resends too), messages read, CPU s)
        self.saves = []       # (monotonic time, records the simulated tables wrote so far, seconds it took)
        self.lag = []         # (monotonic time, seconds the simulated tables' loop woke late)
        self.snaps = []       # each server's stats before each fault and at the end of play (_servers)
        self.fw_rounds = {}   # firmware round number -> seats it locked
        self.halt = threading.Event()
        self.backlog = []     # (monotonic time, bytes unread in the simulated tables' sockets, bytes unsent)
        self.events = {}      # table -> [(monotonic time, what)]: a simulated table's link events
        self.workers = []     # the simulating processes (_Worker)
        self.records = None   # the simulated tables' records' folder (a TemporaryDirectory)
        self.lock = threading.Lock()

    # -- the tables' link state, sampled ----------------------------------------------------
    def _seen(self, table, why, now):
        """A sample of a table's link: why it is down ('' when up). A down span is [from, to or None,
        {why: seconds}], its time shared out by the reasons the samples gave."""
        spans = self.down.setdefault(table, [])
        if why and (not spans or spans[-1][1] is not None):
            spans.append([now, None, {}, now])
        elif why:
            span = spans[-1]
            span[2][why] = span[2].get(why, 0.0) + now - span[3]
            span[3] = now
        elif spans and spans[-1][1] is None:
            spans[-1][1] = now

    def all_up(self):
        return all(not s or s[-1][1] is not None for s in self.down.values()) and len(self.down) == len(self.ids) + 1

    def refused(self, start, end):
        """{table: (seconds it refused progressive bets within [start, end), {why: seconds})}."""
        out = {}
        for table, spans in self.down.items():
            total, whys = 0.0, {}
            for a, b, why, _ in spans:
                if a < end and (b is None or b > start):
                    total += min(b if b is not None else end, end) - max(a, start)
                    for k, v in why.items():
                        whys[k] = whys.get(k, 0.0) + v
            if total > 0:
                out[table] = (total, whys)
        return out

    # -- the simulated tables (PROCESSES processes of their own) --------------------------------
    def _start_sims(self, link):
        """The simulated tables in PROCESSES processes (spawned: this one has threads), each table's node
        order and play seed chosen here; a thread a process reads what it reports (_heard)."""
        ports = link.broker.ports
        # their records (written and renamed at every lock and a pass's answers, in their loops) in memory
        # when the machine has a tmpfs: on the shared disk, at a load of 18, 566 of them took 50 s in one
        # window, seconds of each process's loop (ext4 flushes a file renamed over another)
        self.records = tempfile.TemporaryDirectory(prefix="chaos_tables_", dir=SHM if os.path.isdir(SHM) else None)
        specs = []
        for i, tid in enumerate(self.ids):
            order = ports[i % 3:] + ports[:i % 3]  # each node first for a third of the tables
            specs.append((tid, [("127.0.0.1", p) for p in order], link.password(tid),
                          os.path.join(self.records.name, "%s.json" % tid), self.rng.random()))
        ctx = multiprocessing.get_context("spawn")
        self.workers = []
        for k in range(PROCESSES):
            conn, child = ctx.Pipe()
            proc = ctx.Process(target=_simulate, args=(child, specs[k::PROCESSES], self.every_s,
                                                       os.getenv("CHAOS_PROFILE"), k), daemon=True)
            proc.start()
            child.close()
            w = _Worker(proc, conn)
            w.thread = threading.Thread(target=self._heard, args=(w,), daemon=True)
            w.thread.start()
            self.workers.append(w)

    def _heard(self, w):
        """What a simulating process reports, every SAMPLE_S: its tables' link states that changed or are
        down, their new events and answers, its loop's lag, its publishes, reads, CPU and records."""
        while True:
            try:
                msg = w.conn.recv()
            except (EOFError, OSError):
                return
            if msg[0] == "ready":
                w.ready.set()
            elif msg[0] == "played":
                w.played_at = w.samples
                w.played.set()
            elif msg[0] == "done":
                w.states = msg[1]
                w.done.set()
                return
            else:
                _, now, whys, events, answered, lag, figures, backlog, pending = msg
                w.samples += 1
                for table, why in whys.items():
                    self._seen(table, why, now)
                for table, new in events.items():
                    self.events.setdefault(table, []).extend(new)
                self.answered.extend(answered)
                w.pending = pending
                with self.lock:
                    if lag is not None:
                        self.lag.append((now, lag))
                    w.figures = figures
                    total = [sum(x.figures[j] for x in self.workers) for j in range(5)]
                    self.sends.append((now, total[0], total[1], total[2]))
                    self.saves.append((now, total[3], total[4]))
                    if backlog is not None:
                        w.backlog = backlog
                        self.backlog.append((now, sum(x.backlog[0] for x in self.workers),
                                             sum(x.backlog[1] for x in self.workers)))

    def _tell(self, *cmd):
        for w in self.workers:
            try:
                w.conn.send(cmd)
            except OSError:
                pass

    # -- the firmware table (a thread pressing its keys) ----------------------------------------
    def _firmware(self, fw):
        rng = random.Random(self.rng.random())
        while not self.halt.is_set():
            st = fw.picture()["status"]
            if st.get("state") == "locked":  # a round locked (however late the LOCK took): counted once
                self.fw_rounds[st["rounds"]] = len(st["locked"])  # rounds played before it: one key a round
                fw.press("CONFIRM")
                _wait(fw, lambda s: s["status"].get("state") != "locked", 3)
            elif st.get("state") == "betting":
                fw.seats(*rng.sample(range(1, 8), rng.randint(1, 3)))
                fw.press("LOCK")
                _wait(fw, lambda s: s["status"].get("state") == "locked", 3)
            self.halt.wait(rng.uniform(0.5, 1.5))

    def _fw_sampler(self, fw):
        while not self.halt.is_set() or not self.fw_done.is_set():
            state = fw.picture()["status"].get("link_state", "no status")
            self._seen(fw.folder.name, "" if state == "up" else _reason(state), time.monotonic())
            time.sleep(SAMPLE_S)

    # -- the faults ---------------------------------------------------------------------------
    def cut(self, name):
        """CHAOS_PROFILE=folder: each simulating process's CPU profile since the last cut to name-K.prof."""
        if os.getenv("CHAOS_PROFILE"):
            self._tell("cut", name)

    def _fault(self, kind, link):
        self.cut("%02d-before-%s" % (len(self.faults), kind))
        rng = self.rng
        if kind == "server":
            user = rng.choice(sorted(link.servers))
            link.servers[user].kill()
            at = time.monotonic()
            time.sleep(rng.uniform(0, 1.0))
            link.servers[user].start()
            link.wait_web(60, user=user)
            return user, at, {"restarted": time.monotonic(), "back": at}  # the other one serves meanwhile
        if kind == "node":
            i = rng.randrange(len(link.broker.nodes))
            link.broker.kill(i)
            at = time.monotonic()
            steps = {}
            others = [n.mqtt for j, n in enumerate(link.broker.nodes) if j != i]
            probe = threading.Thread(target=self._first_login, args=(link, others, steps), daemon=True)
            probe.start()
            time.sleep(rng.uniform(0, 1.0))
            link.broker.start_node(i, 60)
            steps["restarted"] = time.monotonic()
            probe.join(60)
            return link.broker.nodes[i].name, at, steps
        dead, alive = self.pg
        dead.kill()
        at = time.monotonic()
        time.sleep(rng.uniform(0.2, 1.0))  # the operator's step 1: it stays down
        promoting = time.monotonic()
        alive.promote()
        promoted = time.monotonic()
        dead.remove()
        self.pg = [alive, dead.port]  # its new standby comes once the tables are up again (_new_standby)
        return "primary :%d" % dead.port, at, {"promoting": promoting, "promoted": promoted, "back": promoted}

    def _new_standby(self):
        """The procedure's last step, later, as a step of its own (its window measured apart): a new
        synchronous standby of the promoted primary on the dead one's port (the servers' URI names it)."""
        primary, port = self.pg
        at = time.monotonic()
        self.pg = [primary, primary.standby(port=port, live=True)]
        done = time.monotonic()
        return "standby :%d" % port, at, {"synchronous": done, "back": done}

    def _first_login(self, link, ports, steps):
        """steps['back']: when a node that lived through the fault first takes a login (nats' own recovery)."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            for port in ports:
                if not login(port, SIGN_USER, link.password(SIGN_USER), timeout=5):
                    steps["back"] = time.monotonic()
                    return
            time.sleep(0.05)

    def _settle(self, kind, what, at, link):
        """Past link_down_ms (a table that would go down has), then until every table is up again."""
        print("chaos: %s %s at %s" % (kind, what, time.strftime("%H:%M:%S", time.localtime(time.time() - time.monotonic() + at))),
              flush=True)
        settled = at + DOWN_MS / 1000 + 1.0
        deadline = time.monotonic() + 90
        while time.monotonic() < settled or not self.all_up():
            if time.monotonic() >= deadline:
                self.cut("%02d-collapse-%s" % (len(self.faults), kind))
            assert time.monotonic() < deadline, \
                "tables still down %.0f s after %s %s (faults %s): %s; servers %s; %s" % (
                    time.monotonic() - at, kind, what, [f[:2] for f in self.faults], self._down_now(),
                    self._servers(link), self._stuck(at))
            time.sleep(SAMPLE_S)

    def run(self, faults):
        """Every fault of `faults` in a random order at random moments; then play stops, the outboxes empty
        and the report: {'faults': [(kind, what, refused s worst, tables refused)], 'sims', 'fw', 'link'}."""
        self.pg = [postgres.Node.primary(fsync=False)]
        self.pg.append(self.pg[0].standby())
        self.pg[0].create_database("ledger")
        uri = postgres.pair_uri(self.pg[0], self.pg[1], "ledger")
        link = Link(self.folder, self.ids + ["fw1"], servers=(SERVER_USER, SECOND), db=uri, cluster=True)
        link.add_server(SECOND, first=1)
        self.fw_done = threading.Event()
        threads = []
        try:
            link.start()
            link.servers[SECOND].start()
            link.wait_web(60, user=SECOND)
            fw = FirmwareTable(self.build, self.folder / "fw1", link, "fw1", first=2, link_down_ms=DOWN_MS)
            link.procs.append(fw)
            fw.configure().start()
            _wait(fw, lambda s: s["status"].get("link_state") == "up", 30)
            self._start_sims(link)
            threads = [None, threading.Thread(target=self._firmware, args=(fw,), daemon=True),
                       threading.Thread(target=self._fw_sampler, args=(fw,), daemon=True)]
            up_by = time.monotonic() + 120
            for w in self.workers:
                assert w.ready.wait(max(0.0, up_by - time.monotonic())), \
                    "the simulated tables did not come up: %s" % self._servers(link)
            self._tell("play")
            for th in threads[1:]:
                th.start()
            order = list(faults)
            self.rng.shuffle(order)
            for kind in order:
                time.sleep(self.rng.uniform(0.5, 2.5))  # a random moment of the play
                self.snaps.append(self._servers(link))
                what, at, steps = self._fault(kind, link)
                self.faults.append((kind, what, at, steps))
                self._settle(kind, what, at, link)
                if kind == "pg":
                    self.snaps.append(self._servers(link))
                    what, at, steps = self._new_standby()
                    self.faults.append(("standby", what, at, steps))
                    self._settle("standby", what, at, link)
            self.snaps.append(self._servers(link))
            self.halt.set()
            threads[1].join(15)
            self._tell("play off")
            for w in self.workers:
                assert w.played.wait(30), "a simulating process did not stop playing"
            deadline = time.monotonic() + 60
            # w.pending from a sample each process sent after its last round was locked
            while any(w.samples <= w.played_at or w.pending for w in self.workers) or \
                    fw.picture()["status"].get("link_unanswered"):
                assert time.monotonic() < deadline, "outboxes not emptied: %s" % (
                    sum((w.pending for w in self.workers), [])[:10])
                time.sleep(0.2)
            st = fw.picture()["status"]
            if st.get("state") == "locked":  # the last LOCK, taken after the thread last looked
                self.fw_rounds[st["rounds"]] = len(st["locked"])
            self.fw_done.set()
            end = time.monotonic()
            self._tell("stop")
            for w in self.workers:
                assert w.done.wait(30), "a simulating process did not stop"
            sims = [_Record(table, w.states[table]) for w in self.workers for table in w.states]
            report = {"faults": [], "sims": sorted(sims, key=lambda t: t.table), "fw": sum(self.fw_rounds.values()),
                      "link": link.status(), "why": []}
            events = self.events
            answered = sorted(self.answered)
            for n, (kind, what, at, steps) in enumerate(self.faults):
                upto = self.faults[n + 1][2] if n + 1 < len(self.faults) else end
                ref = self.refused(at, upto)
                worst = max(ref, key=lambda t: ref[t][0]) if ref else None
                report["faults"].append((kind, what, ref[worst][0] if ref else 0.0, len(ref),
                                         ref.get("fw1", (0.0,))[0]))
                whys = {}
                for total, why in ref.values():
                    for k, v in why.items():
                        whys[k] = whys.get(k, 0.0) + v
                # the longest pause of the answers after the fault: the link's outage as the tables saw it
                near = [at] + [t for t in answered if at <= t < min(upto, at + 30)]
                gap = max(zip(near, near[1:]), key=lambda ab: ab[1] - ab[0]) if len(near) > 1 else (at, at)
                steps = dict(steps, **{"answers paused": gap[0], "answers resumed": gap[1]})
                if worst:  # where the worst table's refusal lay
                    for a, b, _, _ in self.down[worst]:
                        if a < upto and (b is None or b > at):
                            steps["%s refused" % worst] = max(a, at)
                            steps["%s up" % worst] = min(b or upto, upto)
                sends = [s for s in self.sends if at <= s[0] < upto]
                saves = [s for s in self.saves if at <= s[0] < upto]
                span = (sends[-1][0] - sends[0][0]) if len(sends) > 1 else 0.0
                report["why"].append({"back": steps.get("back", upto) - at, "servers": _served(self.snaps[n:n + 2]),
                                      # the simulating process in the window: its publishes (resends too),
                                      # the answers, what it read a second, its CPU (one core = 1), its records
                                      "sent": sends[-1][1] - sends[0][1] if span else 0,
                                      "answers": len([t for t in answered if at <= t < upto]),
                                      "read_s": (sends[-1][2] - sends[0][2]) / span if span else 0.0,
                                      "cpu": (sends[-1][3] - sends[0][3]) / span if span else 0.0,
                                      "saves": (saves[-1][1] - saves[0][1], saves[-1][2] - saves[0][2])
                                      if span else (0, 0.0),
                                      "lag": max([g for t, g in self.lag if at <= t < upto] or [0.0]),
                                      "backlog": max([b[1] for b in self.backlog if at <= b[0] < upto] or [0]),
                                      "steps": sorted((round(t - at, 2), k) for k, t in steps.items()),
                                      "worst": worst, "worst_why": ref[worst][1] if ref else {}, "all": whys,
                                      "events": [(round(t - at, 2), e) for t, e in events.get(worst, ())
                                                 if at - 1 <= t < upto]})
            report["ledger"] = self.ledger(link)
            return report
        finally:
            self.halt.set()
            self.fw_done.set()
            for w in self.workers:
                if w.proc.is_alive():
                    w.proc.kill()
                w.proc.join(10)
            link.stop()
            if self.records is not None:
                self.records.cleanup()
            for node in self.pg:
                if isinstance(node, postgres.Node):  # not the port of a standby not made yet
                    node.remove()

    def _servers(self, link):
        out = {}
        for user in link.servers:
            try:
                out[user] = dict((k, v) for k, v in link.status(user)["server"].items() if k != "sessions")
            except OSError as e:
                out[user] = str(e)
        return out

    def _stuck(self, at):
        """The simulating process since `at`, for a run that did not settle: its loop's lag, its publishes and
        reads, and the last events of the first simulated table still down."""
        lag = max([g for t, g in self.lag if t >= at] or [0.0])
        sends = [x for x in self.sends if x[0] >= at]
        moved = (sends[-1][1] - sends[0][1], sends[-1][2] - sends[0][2]) if len(sends) > 1 else (0, 0)
        down = [t for t, _ in self._down_now() if t in self.events]
        events = [(round(t - at, 2), e) for t, e in self.events[down[0]][-12:]] if down else []
        backlog = [b for b in self.backlog if b[0] >= at]
        return "the simulated tables' loop up to %.1f s late, %d sent, %d read since; their sockets: up to %d " \
            "bytes unread, %d unsent; %s: %s" % (
            lag, moved[0], moved[1], max([b[1] for b in backlog] or [0]), max([b[2] for b in backlog] or [0]),
            down[0] if down else "-", events)

    def _down_now(self):
        return sorted((t, _shares(s[-1][2])) for t, s in self.down.items() if s and s[-1][1] is None)[:10]

    def ledger(self, link):
        """{table: (bets, cents, max seq, messages, refused)} from the ledger, and its contributed/paid sums."""
        db = connect(link.db, readonly=True)
        try:
            out = {}
            for tbl, body in db.execute("SELECT tbl, body FROM message WHERE kind = 'contrib' AND ok = 1").fetchall():
                bets = json.loads(body)["bets"]
                n, c = out.get(tbl, (0, 0))
                out[tbl] = (n + len(bets), c + sum(cents for _, cents in bets))
            seqs = dict((t, (m, c, r)) for t, m, c, r in db.execute(
                "SELECT tbl, MAX(seq), COUNT(*), SUM(1 - ok) FROM message GROUP BY tbl").fetchall())
            sums = db.execute("SELECT SUM(CASE WHEN kind = 'contrib' THEN cents ELSE 0 END), "
                              "SUM(CASE WHEN kind = 'hit' THEN cents ELSE 0 END) FROM message WHERE ok = 1").fetchone()
            return {"bets": out, "seqs": seqs, "contributed": sums[0], "paid": sums[1]}
        finally:
            db.close()


class _Worker:
    """A simulating process as the run sees it: its pipe and what it last reported."""

    def __init__(self, proc, conn):
        self.proc, self.conn = proc, conn
        self.ready, self.done, self.played = threading.Event(), threading.Event(), threading.Event()
        self.samples = 0      # samples heard
        self.played_at = 0    # samples heard when it said its tables' play had ended
        self.figures = (0, 0, 0.0, 0, 0.0)  # publishes (resends too), messages read, CPU s, records, their s
        self.backlog = (0, 0)
        self.pending = []  # its tables with an unanswered message or an unpaid claim
        self.states = None
        self.thread = None


async def _played(plays, conn):
    """'played' once every table's play has ended: its rounds are all locked, and the samples after it say
    what is still unanswered."""
    await asyncio.gather(*plays)
    conn.send(("played",))


class _Record:
    """A simulated table's record at the end of the run (its process has ended)."""

    def __init__(self, table, state):
        self.table, self.state = table, state


def _simulate(conn, specs, every_s, profile, k):
    """A simulating process (multiprocessing's target): asyncio.run(_simulating(...))."""
    asyncio.run(_simulating(conn, specs, every_s, profile, k))


async def _simulating(conn, specs, every_s, profile, k):
    """Its tables on jackpot.leanmqtt (aiomqtt's paho reads one packet a socket a pass, the loop's own
    work a pass grows with the tables: once behind on a loaded machine, 100 tables never caught up,
    docs/link.md's Tests); every SAMPLE_S what changed goes to the run on `conn`; its commands: 'play',
    'play off', 'stop', ('cut', name) (the CPU profile so far to profile/name-k.prof)."""
    answered = []
    sims = []
    for tid, brokers, password, path, seed in specs:
        t = SimTable(tid, LINK, brokers, password, path, down_ms=DOWN_MS, pay_after_s=0.5, qos=0,
                     mqtt=leanmqtt.client)
        t.events, t.seed = [], seed
        t.on_answer.append(lambda seq, body, now: answered.append(now))
        sims.append(t)
    stop_link, stop_play = asyncio.Event(), asyncio.Event()
    runs = [asyncio.ensure_future(t.run(stop_link)) for t in sims]
    while not all(t.up for t in sims):
        await asyncio.sleep(SAMPLE_S)
    conn.send(("ready",))
    while not conn.poll():
        await asyncio.sleep(SAMPLE_S / 2)
    conn.recv()  # 'play': every process's tables up
    plays = [asyncio.ensure_future(t.play(stop_play, every_s, random.Random(t.seed), hit_every=40)) for t in sims]
    prof = None
    if profile:
        prof = cProfile.Profile(time.process_time)
        prof.enable()
    last, told, lag, n = {}, dict((t.table, 0) for t in sims), None, 0
    while not stop_link.is_set():
        now = time.monotonic()
        while conn.poll():
            cmd = conn.recv()
            if cmd[0] == "play off":
                stop_play.set()
                asyncio.ensure_future(_played(plays, conn))
            elif cmd[0] == "stop":
                stop_link.set()
            elif cmd[0] == "cut" and prof is not None:
                prof.disable()
                prof.dump_stats(os.path.join(profile, "%s-%d.prof" % (cmd[1], k)))
                prof = cProfile.Profile(time.process_time)
                prof.enable()
        whys, events = {}, {}
        for t in sims:
            why = t.down_why()
            if why or last.get(t.table, True):  # down, or changed (the first sample: every table)
                whys[t.table] = why
            last[t.table] = why
            if len(t.events) > told[t.table]:
                events[t.table] = t.events[told[t.table]:]
                told[t.table] = len(t.events)
        n += 1
        conn.send(("sample", now, whys, events, answered[:], lag,
                   (sum(t.sent for t in sims), sum(t.received for t in sims), time.process_time(), SAVES[0], SAVES[1]),
                   _queued(sims) if n % 10 == 0 else None,
                   [t.table for t in sims if t.state["out"] or t.state["claims"]]))
        del answered[:]
        await asyncio.sleep(SAMPLE_S)
        # how late the loop woke: the simulated tables' own lag (their process, on a loaded machine), which
        # their refusals include and a board's would not
        lag = time.monotonic() - now - SAMPLE_S
    await asyncio.gather(*(runs + plays))
    conn.send(("done", dict((t.table, t.state) for t in sims)))


def _queued(sims):
    """(bytes unread, bytes unsent) in the simulated tables' sockets: whether what is late waits in this
    process (unread) or before it (in the nodes)."""
    unread = unsent = 0
    buf = bytearray(4)
    for t in sims:
        c = t.client
        sock = getattr(getattr(c, "_client", None), "socket", lambda: None)() if c is not None else None
        if sock is None:
            transport = getattr(getattr(c, "proto", None), "transport", None)
            sock = transport.get_extra_info("socket") if transport is not None else None
        if sock is None:
            continue
        try:
            fcntl.ioctl(sock.fileno(), termios.FIONREAD, buf)
            unread += int.from_bytes(buf, "little")
            fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, buf)
            unsent += int.from_bytes(buf, "little")
        except (OSError, ValueError):
            pass
    return unread, unsent


def _served(snaps):
    """What each server did between two snapshots of its stats (one process: its counters since it started):
    {server: (messages, duplicates, batches, seconds in the ledger)}, or None where it was restarted between."""
    if len(snaps) < 2:
        return {}
    out = {}
    for user, a in snaps[0].items():
        b = snaps[1].get(user)
        if isinstance(a, dict) and isinstance(b, dict) and a.get("started") == b.get("started"):
            out[user] = tuple(b[k] - a[k] for k in ("messages", "duplicates", "batches", "ledger_s"))
        else:
            out[user] = None
    return out


def _did(v):
    if v is None:
        return "restarted"
    return "%d new, %d duplicates, %d batches, %.1f ms a batch in the ledger" % (v[0], v[1], v[2],
                                                                               1000 * v[3] / max(v[2], 1))


def _wait(fw, ok, timeout):
    try:
        return fw.wait(ok, timeout)
    except AssertionError:
        return None  # a key refused (LINK DOWN) or a press lost on a busy machine: the next pass sees where it is


def _reason(state):
    """A firmware table's link_state as a reason to add up: numbers out, so the same cause is one key."""
    return re.sub(r"[0-9]+", "N", state.replace("LINK DOWN: ", ""))[:48]


def _shares(whys):
    return ", ".join("%s %.1f s" % (k, v) for k, v in sorted(whys.items(), key=lambda kv: -kv[1])) or "-"


def bound(why):
    """The longest a table may refuse after a fault: until the part it hit is back, and LINK_SLACK_S."""
    return why["back"] + LINK_SLACK_S


def lagging(why):
    """The simulated tables' loop woke LAG_S late or more in the fault's window: said on the fault's line
    (their one process was behind on a loaded machine); the test holds them to the bound all the same."""
    return why["lag"] >= LAG_S


def summary(report):
    """The printed lines: each fault and how long tables refused progressive bets after it."""
    lines = []
    for (kind, what, worst, count, fw), why in zip(report["faults"], report["why"]):
        lines.append("  %-7s %-15s refused progressive bets: worst table %.1f s, %d tables, the firmware table %.1f s;"
                     " back after %.1f s (bound %.1f s)%s" % (kind, what, worst, count, fw, why["back"], bound(why),
                                                               "; the simulating loop %.1f s late" % why["lag"]
                                                               if lagging(why) else ""))
        served = sorted(why.get("servers", {}).items())
        lines.append("    servers: %s" % "; ".join("%s %s" % (u, _did(v)) for u, v in served))
        lines.append("    simulated tables: %d sent, %d answers, %.0f messages read a second, CPU %.0f%% of a core, "
                     "loop late up to %.1f s, up to %d bytes unread in its sockets, %d records written in %.2f s"
                     % (why["sent"], why["answers"], why["read_s"], 100 * why["cpu"], why["lag"],
                        why.get("backlog", 0), why["saves"][0], why["saves"][1]))
    for (kind, what, _, _, _), why in zip(report["faults"], report.get("why", ())):
        lines.append("    %s %s: %s" % (kind, what, ", ".join("%s %+.2f s" % (k, t) for t, k in why["steps"])))
        if why["worst"]:
            lines.append("    %s: %s; every table's: %s" % (why["worst"], _shares(why["worst_why"]), _shares(why["all"])))
            for t, e in why["events"]:
                lines.append("      %+6.2f s %s" % (t, e))
    worst = max([f[2] for f in report["faults"]] or [0.0])
    lines.append("  worst %.1f s (goal <= 10 s: %s)" % (worst, "met" if worst <= 10 else "NOT met"))
    return lines
