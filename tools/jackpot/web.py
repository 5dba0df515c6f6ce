"""The jackpot server's web side on 127.0.0.1 (standard library, as the simulator's): status page, /status, the pit sign.

    GET /                   the status page: every link's pool, reserve, meters, balance, tables
    GET /status             the same as JSON: {"server": {...}, "links": {id: {pool, reserve, contributed,
                            paid, seeded, balance_off, pending, ver, last_hits, tables: {id: {contributed,
                            bets, hits, awarded, messages, duplicates, refused, last_at}}}}}
    GET /sign?link=L        the pit sign: the pool counting up, JACKPOT PENDING, the last hits
    GET /feed?link=L        the sign's figures as JSON (pool, reserve, ver, pending, last_hits)
    GET /events?link=L      the same as a server-sent event stream, one event per change of the pool

Every request reads the ledger through its own connection (SQLite's WAL, PostgreSQL's snapshots let
readers run beside the server's writer), so the page shows what is on disk, never a figure held only in
memory.
"""
import json
import pathlib
import re
import threading
import urllib.parse

from jackpot import ledger
from sim import web as simweb
from sim.web import TYPES, UNCHANGED, JsonHandler, Server

STATIC = pathlib.Path(__file__).resolve().parent / "static"
PAGES = {"/": "status.html", "/sign": "sign.html"}
SHARED = "words.js"  # the pages' Chinese words, the simulator's: one list for every page


class Changes:
    """A version number the server bumps after every batch that changed a pool; the event streams wait on it."""

    def __init__(self):
        self.version = 0
        self.cond = threading.Condition()

    def bump(self):
        with self.cond:
            self.version += 1
            self.cond.notify_all()

    def wait(self, seen, timeout):
        with self.cond:
            self.cond.wait_for(lambda: self.version != seen, timeout)
            return self.version


class Handler(JsonHandler):
    server_version = "tablectl-jackpot"

    def _link(self, db, query):
        lid = query.get("link", [None])[0]
        if lid is None:
            row = db.execute("SELECT id FROM link ORDER BY id LIMIT 1").fetchone()
            lid = row[0] if row else None
        return lid

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        path = url.path
        if path in PAGES or re.fullmatch(r"/[a-z]+\.(js|css)", path):
            name = PAGES.get(path, path.lstrip("/"))
            f = (simweb.STATIC if name == SHARED else STATIC) / name
            if not f.is_file():
                return self._send(404, json.dumps({"error": "no page %s" % path}))
            return self._send(200, f.read_bytes(), TYPES[f.suffix])
        if path not in ("/status", "/feed", "/events"):
            return self._send(404, json.dumps({"error": "no page %s (/, /status, /sign, /feed, /events)" % path}))
        db = ledger.connect(self.server.db_path, readonly=True)
        try:
            if path == "/status":
                out = ledger.status(db)
                out["server"] = dict(self.server.stats)
                out["server"]["sessions"] = dict(out["server"].get("sessions", {}))  # the server's thread adds to it
                return self._send(200, json.dumps(out))
            lid = self._link(db, query)
            view = ledger.feed(db, lid) if lid else None
            if view is None:
                return self._send(404, json.dumps({"error": "no link %r" % lid}))
            if path == "/feed":
                return self._send(200, json.dumps(view))
            self._stream(self._views(db, lid, view))
        finally:
            db.close()

    def _views(self, db, lid, view):
        changes = self.server.changes
        seen = changes.version
        last = None
        while not self.server.closing:
            if view != last:
                last = view
                yield view
            else:
                yield UNCHANGED
            seen = changes.wait(seen, 10)
            view = ledger.feed(db, lid)


def serve(db_path, stats, changes, port=8080, host="127.0.0.1"):
    """Start the web server in a thread; returns it (server.server_address, stop(server))."""
    server = Server((host, port), Handler)
    server.db_path = db_path
    server.stats = stats
    server.changes = changes
    threading.Thread(target=server.serve_forever, name="jackpot-web", daemon=True).start()
    return server


def stop(server):
    server.closing = True
    server.changes.bump()  # the event streams wait on it: woken, they see the server closing
    simweb.stop(server)
