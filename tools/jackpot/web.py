"""The jackpot server's web side on 127.0.0.1 (standard library, as the simulator's): status page, /status, the pit sign.

    GET /                   the status page: every link's pool, reserve, meters, balance, tables
    GET /status             the same as JSON: {"server": {...}, "links": {id: {pool, reserve, contributed,
                            paid, seeded, balance_off, pending, ver, last_hits, tables: {id: {contributed,
                            bets, hits, awarded, messages, duplicates, refused, last_at}}}}}
    GET /sign?link=L        the pit sign: the pool counting up, JACKPOT PENDING, the last hits
    GET /feed?link=L        the sign's figures as JSON (pool, reserve, ver, pending, last_hits)
    GET /events?link=L      the same as a server-sent event stream, one event per change of the pool

Every request reads the ledger through its own SQLite connection (WAL lets readers run beside the
server's writer), so the page shows what is on disk, never a figure held only in memory.
"""
import json
import pathlib
import re
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from jackpot import ledger

STATIC = pathlib.Path(__file__).resolve().parent / "static"
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8"}
PAGES = {"/": "status.html", "/sign": "sign.html"}


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


def feed(db, lid):
    view = ledger.link_view(db, lid)
    if view is not None:
        view["last_hits"] = ledger.last_hits(db, lid)
    return view


class Handler(BaseHTTPRequestHandler):
    server_version = "tablectl-jackpot"

    def log_message(self, fmt, *args):
        pass

    def _send(self, code, body, ctype="application/json"):
        data = body if isinstance(body, bytes) else body.encode()
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(data)

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
            f = STATIC / name
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
                return self._send(200, json.dumps(out))
            lid = self._link(db, query)
            view = feed(db, lid) if lid else None
            if view is None:
                return self._send(404, json.dumps({"error": "no link %r" % lid}))
            if path == "/feed":
                return self._send(200, json.dumps(view))
            self._events(db, lid, view)
        finally:
            db.close()

    def _events(self, db, lid, view):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        changes = self.server.changes
        seen = changes.version
        last = None
        try:
            while not self.server.closing:
                if view != last:
                    self.wfile.write(("data: %s\n\n" % json.dumps(view)).encode())
                    last = view
                else:
                    self.wfile.write(b": still here\n\n")
                self.wfile.flush()
                seen = changes.wait(seen, 10)
                view = feed(db, lid)
        except (BrokenPipeError, ConnectionResetError):
            pass


class Server(ThreadingHTTPServer):
    daemon_threads = True
    closing = False


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
    server.changes.bump()
    server.shutdown()
    server.server_close()
