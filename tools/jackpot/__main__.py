"""`python -m jackpot serve|table|demo`: the jackpot server, a simulated table, or a whole link (what `make link` runs).

    python -m jackpot serve --config link.json --db ledger.db --broker 127.0.0.1:1883 --credentials creds.json
    python -m jackpot table --id t01 --link pit1 --broker 127.0.0.1:1883 --credentials creds.json --state t01.json
    python -m jackpot demo [--tables 6] [--folder build/link] [--web-port 8080] [--broker-port 1883] [--tls]

serve: the server and its web side (status page, /status, the sign) until SIGTERM/Ctrl-C. Its password
is its account's entry (--user, `jackpot` by default) in the credentials file (the broker's
credentials.json) or $JACKPOT_PASSWORD.
table: one CPython table playing a round every --every seconds on random seats (the bench's and the
tests' table). demo: mosquitto, the server, the sign and --tables simulated tables on link pit1
(Caribbean Stud), with their state in --folder, which a restart resumes.
"""
import argparse
import asyncio
import json
import os
import pathlib
import random
import signal
import sys

from jackpot import ROOT, protocol, web
from jackpot.broker import SERVER_USER, Broker, BrokerError
from jackpot.ledger import LedgerError
from jackpot.ledgerdb import shown
from tablectl.config import DEMO, keys_for

DEMO_LINK = "pit1"
# the firmware's demo amounts, said outright: a host process has no virtual board to ship them (BAC-17.13)
DEMO_GAME = dict([(k, v) for k, v in DEMO.items() if k in keys_for("caribbean_stud")],
                 game="caribbean_stud", seed_cents=2500000, rate_bp=2000, limit_cents=200000000)


def _brokers(text):
    try:
        return protocol.brokers(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e))


def _password(args, user, server=False):
    if server and os.getenv("JACKPOT_PASSWORD"):
        return os.environ["JACKPOT_PASSWORD"]
    try:
        return json.loads(pathlib.Path(args.credentials).read_text())[user]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise SystemExit("jackpot: no password for %s in %s (%s)" % (user, args.credentials, e))


def _stop_event():
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        loop.add_signal_handler(sig, stop.set)
    return stop


def start_server(config, db, broker, password, web_port, ca_file=None, user=SERVER_USER, qos=1):
    """The server and its web side: (JackpotServer, web server)."""
    from jackpot.server import JackpotServer
    srv = JackpotServer(db, config["links"], config["tables"], broker, user, password, ca_file, qos)
    changes = web.Changes()
    srv.listeners.append(changes.bump)
    httpd = web.serve(db, srv.stats, changes, web_port)
    return srv, httpd


async def _serve(args):
    from jackpot.server import load_config
    try:
        config = load_config(args.config)
        srv, httpd = start_server(config, args.db, args.broker, _password(args, args.user, True), args.web_port,
                                  args.ca, args.user, args.qos)
    except (ValueError, LedgerError, OSError) as e:
        print("jackpot: %s" % e, file=sys.stderr)
        return 2
    print("jackpot: serving links %s from %s; status http://127.0.0.1:%d/ (JSON /status), sign /sign"
          % (", ".join(sorted(config["links"])), shown(args.db), httpd.server_address[1]), flush=True)
    stop = _stop_event()
    try:
        await srv.run(stop)
    finally:
        web.stop(httpd)
    return 0


async def _table(args):
    from jackpot.simtable import SimTable
    t = SimTable(args.id, args.link, args.broker, _password(args, args.id), args.state, ca_file=args.ca,
                 pay_after_s=args.pay_after)
    stop = _stop_event()
    rng = random.Random(args.seed)
    await asyncio.gather(t.run(stop), t.play(stop, args.every, rng, hit_every=args.hit_every, until=args.until))
    return 0


async def _demo(args):
    from building import mplib
    from jackpot.simtable import SimTable
    try:
        mplib.folder()  # umqtt.simple for a simulator (make sim) joining the link as a firmware table
    except mplib.FetchError as e:
        print("link: a simulator cannot join without umqtt.simple: %s" % e, file=sys.stderr)
    folder = pathlib.Path(args.folder)
    folder.mkdir(parents=True, exist_ok=True)
    tables = dict(("t%02d" % i, DEMO_LINK) for i in range(1, args.tables + 1))
    # the ids after them are on the link with no simulated table playing them: for a simulator or a board
    own = ["t%02d" % i for i in range(args.tables + 1, args.tables + 1 + args.own)]
    config = {"links": {DEMO_LINK: DEMO_GAME}, "tables": dict(tables, **dict((t, DEMO_LINK) for t in own))}
    (folder / "link.json").write_text(json.dumps(config, indent=1))
    if args.cluster:  # three nats-server nodes, the first on --broker-port
        from jackpot.natscluster import NatsCluster
        try:
            broker = NatsCluster(folder / "broker", config["tables"], port=args.broker_port, tls=args.tls)
        except ValueError as e:
            print("jackpot: %s" % e, file=sys.stderr)
            return 1
        what = "nats-server x3 (MQTT over JetStream) on %s" % broker.addresses()
    else:
        broker = Broker(folder / "broker", config["tables"], port=args.broker_port, tls=args.tls)
        what = "mosquitto on 127.0.0.1:%d" % broker.port
    try:
        broker.start()
    except BrokerError as e:
        print("jackpot: %s" % e, file=sys.stderr)
        return 1
    try:
        srv, httpd = start_server(config, folder / "ledger.db", protocol.brokers(broker.addresses()),
                                  broker.password(SERVER_USER), args.web_port, broker.ca_file,
                                  qos=0 if args.cluster else 1)
    except (LedgerError, OSError) as e:
        broker.stop()
        print("jackpot: %s (a ledger from another configuration? remove %s)" % (e, folder), file=sys.stderr)
        return 1
    url = "http://127.0.0.1:%d" % httpd.server_address[1]
    for line in ("broker   %s%s (accounts, ACL, log in %s)" % (what, " with TLS" if args.tls else "", broker.folder),
                 "server   ledger %s; status %s/  JSON %s/status" % (folder / "ledger.db", url, url),
                 "sign     %s/sign?link=%s" % (url, DEMO_LINK),
                 "tables   %s, a round every %g s each (CPython, the firmware's protocol)" % (", ".join(tables), args.every),
                 "yours    %s on the link, played by no simulated table: `mqtt%s://%s:PASSWORD@%s/%s`, "
                 "PASSWORD its entry in %s (docs/link.md)" % (", ".join(own) or "none", "s" if args.tls else "",
                                                               own[0] if own else "ID", broker.addresses(), DEMO_LINK,
                                                               broker.credentials_path),
                 "watch    mosquitto_sub -h 127.0.0.1 -p %d%s -u sign -P $(python3 -c \"import json;print(json.load(open('%s'))['sign'])\") -t 'tablectl/#' -v"
                 % (broker.port, " --cafile %s" % broker.ca_file if args.tls else "", broker.credentials_path),
                 "Ctrl-C stops everything; the state in %s is resumed by the next `make link`" % folder):
        print("link: " + line, flush=True)
    stop = _stop_event()
    # on a cluster each table starts on another node (as a pit's tables spread over them)
    sims = [SimTable(t, DEMO_LINK, protocol.brokers(broker.addresses(i)), broker.password(t),
                     folder / ("%s.json" % t), ca_file=broker.ca_file, pay_after_s=3.0, qos=0 if args.cluster else 1)
            for i, t in enumerate(tables)]
    rng = random.Random()
    jobs = [srv.run(stop)] + [s.run(stop) for s in sims] + [s.play(stop, args.every, random.Random(rng.random()), hit_every=20)
                                                          for s in sims]
    try:
        await asyncio.gather(*jobs)
    finally:
        web.stop(httpd)
        broker.stop()
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m jackpot", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("serve", help="the jackpot server and its web side")
    s.add_argument("--config", required=True, help='JSON: {"links": {id: {game, seed_cents, ...}}, "tables": {id: link}}')
    s.add_argument("--db", required=True, help="the ledger: a SQLite file (created if missing), or a PostgreSQL URI "
                   "postgresql://USER@HOST:PORT[,HOST:PORT]/DB?target_session_attrs=read-write (docs/link.md)")
    s.add_argument("--web-port", type=int, default=8080)
    s.add_argument("--user", default=SERVER_USER, help="the server's broker account (one an instance; default %s)"
                   % SERVER_USER)
    s.add_argument("--qos", type=int, choices=(0, 1), default=1, help="the tables' messages and the answers: 1 on "
                   "mosquitto (the default), 0 on a nats cluster (docs/link.md, the broker as a cluster)")
    t = sub.add_parser("table", help="one simulated table (CPython)")
    t.add_argument("--id", required=True)
    t.add_argument("--link", required=True)
    t.add_argument("--state", required=True, help="the table's record (JSON)")
    t.add_argument("--every", type=float, default=10.0, help="seconds between rounds")
    t.add_argument("--hit-every", type=int, default=50, help="one round in N has a hit")
    t.add_argument("--pay-after", type=float, default=1.0, help="seconds from a confirmed hit to its payment")
    t.add_argument("--seed", type=int, default=None)
    t.add_argument("--until", default=None, help="play stops when this file exists (the link goes on)")
    for p in (s, t):
        p.add_argument("--broker", type=_brokers, required=True,
                       help="HOST:PORT, or a cluster's nodes HOST:PORT,HOST:PORT,... (tried in turn)")
        p.add_argument("--credentials", default=None, help="the broker's credentials.json")
        p.add_argument("--ca", default=None, help="CA certificate: speak TLS to the broker")
    d = sub.add_parser("demo", help="broker, server, sign and simulated tables on one link (make link)")
    d.add_argument("--tables", type=int, default=6, help="simulated tables t01..tN")
    d.add_argument("--own", type=int, default=1, help="table ids after them no simulated table plays (yours)")
    d.add_argument("--every", type=float, default=5.0, help="seconds between a table's rounds")
    d.add_argument("--folder", default=str(ROOT / "build" / "link"))
    d.add_argument("--web-port", type=int, default=8080)
    d.add_argument("--broker-port", type=int, default=1883)
    d.add_argument("--tls", action="store_true", help="MQTT over TLS with a certificate made by openssl")
    d.add_argument("--cluster", action="store_true", help="three nats-server nodes in place of mosquitto (make link HA=1)")
    args = ap.parse_args(argv)
    run = {"serve": _serve, "table": _table, "demo": _demo}[args.cmd]
    try:
        return asyncio.run(run(args))
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
