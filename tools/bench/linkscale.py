"""The link at casino scale: 200, 500 and 2,000 tables on one mosquitto and one server; the chaos run on the casino topology.

    python tools/bench/linkscale.py [--seconds 30] [--sizes 200,500,2000] [--no-chaos] [--client lean|paho]
        [--tables-nice N]   (make bench runs it; LINK_BENCH_SCALE=5 makes the measured windows five times
    longer; LINKSCALE_PROFILE=folder writes CPU-time cProfiles of each simulating process and the server there)

1. Scale: N CPython tables (jackpot.simtable on jackpot.leanmqtt) in processes of 250 at most, a round every
   10 s each, on one
   link: lock -> answer (the table's contribution queued, the LOCK, to its answer arriving) and lock -> sign (to the
   sign's event stream showing a pool that holds it), p50 and p99; the server's, the broker's and the
   simulating processes' CPU over the window, in % of one core (/proc's utime + stime; the processes'
   own clocks), how late those processes' loops woke (a table reads its answer that much after it came:
   their lag is in lock -> answer), the ledger's commits (a second, messages each, time in its
   transactions), the disk's fsync beside the ledger, and CPU per unit of work (server per 1,000 messages,
   tables per table-round: figures the machine's load barely moves). Goal: p99 lock -> sign < 100 ms at
   2,000 tables. Before it, IDLE_S with every table connected and no round: what their own heartbeats
   alone cost the server and the broker.
2. Chaos (jackpot.chaos, as host_tests/link/test_chaos.py): 100 tables and a firmware table on three
   nats-server nodes, two servers, PostgreSQL primary + synchronous standby; servers, nodes and the
   primary SIGKILLed; how long tables refused progressive bets after each fault (goal <= 10 s).
Everything on this 2-core machine together: the figures are this machine's, with its load.
"""
import argparse
import asyncio
import json
import os
import pathlib
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))  # its sibling bench/link.py, when `python -m bench` loads this module by its path

from jackpot.rig import LINK, Link, env  # noqa: E402

PER_PROCESS = 250
# the link counted up with the server's beat a minute old: a simulating process behind on 500 beats a second
# would otherwise refuse its own locks, and the bench measures the server's and the broker's side
DOWN_MS = 60000
SHM = "/dev/shm"
UP_S = 180  # a worker's tables' time to connect and hear the server; the window starts then
IDLE_S = 30  # tables connected and no round played: a KEEP_MS of their own heartbeats (tablectl/link.py)


def cpu_s(pid):
    """utime + stime of a process so far, in seconds."""
    fields = pathlib.Path("/proc/%d/stat" % pid).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _lag(stop, lags, every=0.05):
    """How late this process's loop wakes (ms): its tables read their answers that much after they came."""
    while not stop.is_set():
        t = time.monotonic()
        await asyncio.sleep(every)
        lags.append((time.monotonic() - t - every) * 1000)


async def _worker(args):
    from jackpot import leanmqtt, protocol
    from jackpot.simtable import SimTable
    creds = json.loads(pathlib.Path(args.creds).read_text())
    folder = pathlib.Path(args.folder)
    mqtt = leanmqtt.client if args.client == "lean" else protocol.client
    tables = [SimTable(t, LINK, [("127.0.0.1", args.port)], creds[t], folder / ("%s.json" % t), beat_ms=1000,
                       down_ms=DOWN_MS, resend_ms=3000, pay_after_s=1.0, mqtt=mqtt) for t in args.ids.split(",")]
    tables[0].group = tables  # the first hears the link's beat and pool for the process (a board hears its own)
    for t in tables[1:]:
        t.group = []
    samples = []
    for t in tables:
        t.on_answer.append(lambda seq, body, now, t=t: samples.append((t.queued_at.get(seq), now, body["ver"]))
                           if body.get("ok") == "contrib" else None)
    stop = asyncio.Event()
    runs = [asyncio.ensure_future(t.run(stop)) for t in tables]
    deadline = time.monotonic() + args.up_s  # on a loaded machine some may not make it: counted, not waited for
    while not all(t.up for t in tables) and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    pathlib.Path(args.out + ".ready").write_text(str(sum(t.up for t in tables)))
    while not os.path.exists(args.go):  # every process's tables up: the window starts for all at once
        await asyncio.sleep(0.05)
    rng = random.Random(args.seed)
    plays = [asyncio.ensure_future(t.play(stop, 10.0, random.Random(rng.random()), hit_every=100)) for t in tables]
    lags = []
    lagging = asyncio.ensure_future(_lag(stop, lags))
    cpu0, t0 = time.process_time(), time.monotonic()
    rounds0 = sum(t.state["round"] for t in tables)
    await asyncio.sleep(args.seconds)
    used_s = time.process_time() - cpu0
    cpu = used_s / (time.monotonic() - t0)  # this process's tables' share of a core
    rounds = sum(t.state["round"] for t in tables) - rounds0
    stop.set()
    await asyncio.gather(*(runs + plays + [lagging]), return_exceptions=True)
    unanswered = sum(t.state["round"] for t in tables) - len(samples)
    pathlib.Path(args.out).write_text(json.dumps({"samples": samples, "unanswered": max(0, unanswered), "cpu": cpu,
                                                  "cpu_s": used_s, "rounds": rounds, "lags": lags}))


class FsyncProbe(threading.Thread):
    """A 4 KB write and fsync every 0.1 s beside the ledger, for the window: the disk's part of a commit's time
    (the machine's, not the server's: every other engineer's tests fsync on the same disk)."""

    def __init__(self, folder):
        threading.Thread.__init__(self, daemon=True)
        self.path = pathlib.Path(folder) / "fsync-probe"
        self.times = []
        self.halt = threading.Event()

    def run(self):
        with open(self.path, "wb") as f:
            while not self.halt.wait(0.1):
                t = time.monotonic()
                f.write(b"\0" * 4096)
                f.flush()
                os.fsync(f.fileno())
                self.times.append((time.monotonic() - t) * 1000)


def idle(link, pids, n):
    """The server's and the broker's CPU over IDLE_S with the tables connected and no round played."""
    before = dict((k, cpu_s(pid)) for k, pid in pids.items())
    beats0 = link.status()["server"]["beats"]
    t0 = time.monotonic()
    time.sleep(IDLE_S)
    elapsed = time.monotonic() - t0
    used = dict((k, (cpu_s(pid) - before[k]) / elapsed * 100) for k, pid in pids.items())
    beats = link.status()["server"]["beats"] - beats0
    print("idle: %d tables connected, no round, %.0f s: %d of their own heartbeats answered (%.0f a second), "
          "server %.1f%%, broker %.1f%% of one core" % (n, elapsed, beats, beats / elapsed, used["server"],
                                                         used["broker"]))


def scale_phase(folder, n, seconds, client="lean", tables_nice=0, link_nice=None, ledger_dir=None):
    from link import SignFeed, pct
    ids = ["s%04d" % i for i in range(n)]
    db = pathlib.Path(tempfile.mkdtemp(prefix="linkscale_ledger_", dir=ledger_dir)) / "ledger.db" if ledger_dir else None
    link = Link(folder / ("scale%d" % n), ids, db=db)
    if os.getenv("LINKSCALE_PROFILE"):  # the server's main thread too (its web thread is not in it)
        args = link.server.args
        link.server.args = [args[0], __file__, "profile", os.path.join(os.environ["LINKSCALE_PROFILE"],
                                                                       "server%d.prof" % n)] + args[3:]
    link.start()
    workers = []
    # the tables' records (written and renamed at every lock and answer) in memory when the machine has a
    # tmpfs: on this shared disk each rename waited 3 ms on the others' fsyncs, in the tables' own loop
    records = tempfile.TemporaryDirectory(prefix="linkscale_tables_", dir=SHM if os.path.isdir(SHM) else None)
    try:
        go = link.folder / "go"
        feed = SignFeed(link.web_port)
        feed.start()
        if link_nice is not None:  # the link's processes first on the CPU (root for < 0): the product's part
            for pid in (link.server.proc.pid, link.broker.proc.pid, feed.proc.pid):
                for task in os.listdir("/proc/%d/task" % pid):  # every thread: the server's web side is one
                    os.setpriority(os.PRIO_PROCESS, int(task), link_nice)
        log = open(link.folder / "workers.log", "ab")  # aiomqtt's complaints of an overloaded loop
        for k in range(0, n, PER_PROCESS):
            out = str(link.folder / ("w%d.json" % k))
            p = subprocess.Popen([sys.executable, __file__, "worker", "--ids", ",".join(ids[k:k + PER_PROCESS]),
                                  "--port", str(link.broker.port), "--creds", str(link.creds), "--folder",
                                  records.name, "--out", out, "--go", str(go), "--seconds", str(seconds),
                                  "--seed", str(k), "--client", client, "--nice", str(tables_nice)],
                                 env=env(), stdout=log, stderr=log)
            workers.append((p, out))
        while not all(os.path.exists(out + ".ready") for _, out in workers):
            assert all(p.poll() is None for p, _ in workers), "a worker died: %s" % (link.folder / "workers.log")
            time.sleep(0.2)
        up = sum(int(pathlib.Path(out + ".ready").read_text()) for _, out in workers)
        pids = {"server": link.server.proc.pid, "broker": link.broker.proc.pid}
        idle(link, pids, n)
        before = dict((k, cpu_s(pid)) for k, pid in pids.items())
        st0 = link.status()["server"]
        probe = FsyncProbe(pathlib.Path(link.db).parent)
        probe.start()
        t0 = time.monotonic()
        go.write_text("go")
        for p, _ in workers:
            p.wait(seconds + 120)
        elapsed = time.monotonic() - t0
        probe.halt.set()
        spent = dict((k, cpu_s(pid) - before[k]) for k, pid in pids.items())
        used = dict((k, spent[k] / elapsed * 100) for k in pids)
        time.sleep(0.5)
        feed.stop()
        results = [json.loads(pathlib.Path(out).read_text()) for _, out in workers]
        samples = [s for r in results for s in r["samples"]]
        unanswered = sum(r["unanswered"] for r in results)
        tables_cpu = sum(r["cpu"] for r in results) * 100
        lags = [x for r in results for x in r["lags"]]
        answer = [(got - sent) * 1000 for sent, got, _ in samples if sent is not None]
        shown = [(feed.shown_at(ver) - sent) * 1000 for sent, _, ver in samples
                 if sent is not None and feed.shown_at(ver) is not None]
        # when the slow ones were locked, by second of the window: a burst (tables beating in phase) shows here
        slow = {}
        for (sent, _, ver), ms in zip([x for x in samples if x[0] is not None and feed.shown_at(x[2]) is not None],
                                      shown):
            if ms > 100:
                slow[int(sent - t0)] = slow.get(int(sent - t0), 0) + 1
        st = link.status()
        srv = dict((k, st["server"][k] - st0[k]) for k in ("batches", "messages", "duplicates", "beats", "ledger_s"))
        print("scale: %d tables (%d processes, %d up when the window began), a round every 10 s each, %.0f s: "
              "%d contributions answered, %d locked and unanswered at the end"
              % (n, len(workers), up, elapsed, len(samples), unanswered))
        print("  lock -> answer: p50 %.1f ms, p99 %.1f ms; lock -> sign: p50 %.1f ms, p99 %.1f ms (%d seen)"
              % (pct(answer, 50), pct(answer, 99), pct(shown, 50), pct(shown, 99), len(shown)))
        print("  CPU over the window: server %.0f%%, broker %.0f%%, the simulated tables %.0f%% of one core; the "
              "tables' processes' loops woke late by p50 %.1f ms, p99 %.1f ms; machine load %.1f"
              % (used["server"], used["broker"], tables_cpu, pct(lags, 50), pct(lags, 99), os.getloadavg()[0]))
        print("  server over the window: %d messages, %d duplicates, %d heartbeats answered; the ledger %d commits "
              "(%.0f a second, %.1f messages each), in its transactions %.0f%% of the time, %.1f ms a transaction; "
              "the disk's fsync beside it p50 %.1f ms, p99 %.1f ms"
              % (srv["messages"], srv["duplicates"], srv["beats"], srv["batches"], srv["batches"] / elapsed,
                 (srv["messages"] + srv["duplicates"]) / max(1, srv["batches"]), srv["ledger_s"] / elapsed * 100,
                 srv["ledger_s"] / max(1, srv["batches"]) * 1000, pct(probe.times, 50), pct(probe.times, 99)))
        # the machine's load barely moves these: CPU seconds per unit of work, not per second of the window
        handled = srv["messages"] + srv["duplicates"] + srv["beats"]
        rounds = sum(r["rounds"] for r in results)
        print("  CPU per work (load-independent): server %.1f ms per 1,000 messages taken (heartbeats included); "
              "the simulating processes %.2f ms per table-round (its lock and answer, the heartbeats between)"
              % (spent["server"] / max(1, handled) * 1e6, sum(r["cpu_s"] for r in results) / max(1, rounds) * 1000))
        print("  lock -> sign over 100 ms: %d of %d, by second of the window locked in: %s"
              % (sum(slow.values()), len(shown), ", ".join("%d s: %d" % kv for kv in sorted(slow.items())) or "none"))
        if n >= 2000:
            print("  goal 2,000 tables, p99 lock -> sign < 100 ms: %s" % ("met" if pct(shown, 99) < 100 else "NOT met"))
        print("  balance: %d cents off" % st["links"][LINK]["balance_off"])
    finally:
        for p, _ in workers:
            if p.poll() is None:
                p.kill()
        if workers:
            log.close()
        link.stop()
        records.cleanup()
        if db:
            shutil.rmtree(db.parent, ignore_errors=True)


def chaos_phase(folder):
    from building.build_mpy import build
    from jackpot import postgres
    from jackpot.chaos import Chaos, summary
    if not postgres.installed():
        print("chaos (casino topology): PostgreSQL not installed (make postgres); no figures")
        return
    build("sim", folder / "fwbuild")
    t0 = time.monotonic()
    report = Chaos(folder / "chaos", folder / "fwbuild", tables=100, seed=25, every_s=5.0).run(
        ["server"] * 3 + ["node"] * 2 + ["pg"] * 2)
    led = report["ledger"]
    equal = [t.table for t in report["sims"] if led["bets"].get(t.table, (0, 0)) != (t.state["bets"], t.state["bet_cents"])]
    st = report["link"]["links"][LINK]
    print("chaos (casino topology): 100 simulated tables + 1 firmware table, 3 nats nodes, 2 servers, PostgreSQL "
          "primary + synchronous standby, %.0f s" % (time.monotonic() - t0))
    print("\n".join(summary(report)))
    print("  bets locked %d, every table's record equal to the ledger: %s; firmware table %d bets, ledger %d; "
          "balance %d cents off" % (sum(t.state["bets"] for t in report["sims"]), "yes" if not equal else "NO %s" % equal,
                                    report["fw"], led["bets"].get("fw1", (0, 0))[0], st["balance_off"]))


def main(argv=None):
    argv = [] if argv is None else argv  # make bench: the defaults
    if argv[:1] == ["profile"]:  # python -m jackpot ARGS... under a CPU-time profile written to argv[1]
        import cProfile
        from jackpot.__main__ import main as jackpot
        prof = cProfile.Profile(time.process_time)
        try:
            prof.runcall(jackpot, argv[2:])
        finally:
            prof.dump_stats(argv[1])
        return
    if argv[:1] == ["worker"]:
        ap = argparse.ArgumentParser()
        for opt in ("--ids", "--creds", "--folder", "--out", "--go"):
            ap.add_argument(opt)
        ap.add_argument("--port", type=int)
        ap.add_argument("--seconds", type=float)
        ap.add_argument("--seed", type=int)
        ap.add_argument("--up-s", type=float, default=UP_S)
        ap.add_argument("--client", default="lean")
        ap.add_argument("--nice", type=int, default=0)
        args = ap.parse_args(argv[1:])
        os.nice(args.nice)
        if os.getenv("LINKSCALE_PROFILE"):  # a folder: each simulating process's cProfile there
            import cProfile
            prof = cProfile.Profile(time.process_time)  # CPU, not wall: on a loaded machine a wall profile
            prof.runcall(asyncio.run, _worker(args))   # charges the other processes' time to whatever was running
            prof.dump_stats(os.path.join(os.environ["LINKSCALE_PROFILE"], "w%d.prof" % args.seed))
        else:
            asyncio.run(_worker(args))
        return
    scale = float(os.getenv("LINK_BENCH_SCALE", "1"))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=30 * scale, help="each size's measured window (default 30)")
    ap.add_argument("--sizes", default="200,500,2000")
    ap.add_argument("--no-chaos", action="store_true")
    ap.add_argument("--client", choices=("lean", "paho"), default="lean",
                    help="the simulated tables' MQTT client: jackpot.leanmqtt, or aiomqtt's (paho)")
    ap.add_argument("--tables-nice", type=int, default=0,
                    help="the simulating processes' nice: >0 gives the link (broker, server, sign) the CPU first, "
                         "as when the tables are boards of their own")
    ap.add_argument("--link-nice", type=int, default=None,
                    help="the server's, broker's and sign reader's nice (negative needs root): how much of the "
                         "latency is their waiting for a core")
    ap.add_argument("--ledger-dir", default=None,
                    help="the ledger's folder (e.g. /dev/shm: the disk's part of the latency; not durable there)")
    args = ap.parse_args(argv)
    from jackpot.broker import ensure_installed
    ensure_installed()
    with tempfile.TemporaryDirectory(prefix="linkscale_") as tmp:
        folder = pathlib.Path(tmp)
        for n in [int(x) for x in args.sizes.split(",")]:
            scale_phase(folder, n, args.seconds, args.client, args.tables_nice, args.link_nice, args.ledger_dir)
        if not args.no_chaos:
            chaos_phase(folder)


if __name__ == "__main__":
    main(sys.argv[1:])
