"""The simulator's web side on 127.0.0.1 (standard library only): the page, its state as an event stream, its inputs.

    GET  /            the table page (static/index.html, table.js, table.css)
    GET  /board       the players' results board (static/board.html, board.js): the controller's own history
    GET  /state       the picture as JSON (what the board last reported)
    GET  /events      the same picture as a server-sent event stream, one event per change
    POST /input       {"cmd": "press"|"release", "role": R} | {"cmd": "seat", "seat": N, "on": bool}
                      | {"cmd": "cover", "on": bool} | {"cmd": "key", "on": bool}; 400 with the reason for anything else (the roles
                      and the seat sensors are the board's, from its hello)
"""
import json
import pathlib
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

STATIC = pathlib.Path(__file__).resolve().parent / "static"
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".png": "image/png"}


def command_for(req, roles, seats):
    """The link command line for a page request; ValueError naming what is wrong."""
    if not isinstance(req, dict):
        raise ValueError("the body must be a JSON object")
    cmd = req.get("cmd")
    if cmd in ("press", "release"):
        role = req.get("role")
        if role not in roles:
            raise ValueError("no button %r (buttons: %s)" % (role, " ".join(roles)))
        return "%s %s" % (cmd, role)
    if cmd == "seat":
        seat = req.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= seats:
            raise ValueError("seat must be 1..%d, got %r" % (seats, seat))
        return "seat %d %d" % (seat, 1 if req.get("on") else 0)
    if cmd == "cover":
        return "cover %d" % (1 if req.get("on") else 0)
    if cmd == "key":
        return "key %d" % (1 if req.get("on") else 0)
    raise ValueError("unknown cmd %r (press, release, seat, cover, key)" % (cmd,))


UNCHANGED = object()  # what an event source yields when there is nothing new to send


class JsonHandler(BaseHTTPRequestHandler):
    """What the simulator's and the jackpot server's web sides share: quiet, JSON answers that are never
    cached, server-sent event streams."""

    def log_message(self, fmt, *args):  # quiet: the terminal shows the addresses, not every request
        pass

    def _send(self, code, body, ctype="application/json"):
        data = body if isinstance(body, bytes) else body.encode()
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(data)

    def _stream(self, events):
        """Send what `events` yields as a server-sent event stream, until it ends or the page goes away.
        UNCHANGED sends a comment line: the connection stays open, and a page that has gone is noticed."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        try:
            for event in events:
                if event is UNCHANGED:
                    self.wfile.write(b": still here\n\n")
                else:
                    self.wfile.write(("data: %s\n\n" % json.dumps(event)).encode())
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass


class Handler(JsonHandler):
    server_version = "tablectl-sim"
    link = None  # set by serve()

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path == "/state":
            return self._send(200, json.dumps(self.link.snapshot()[1]))
        if path == "/events":
            return self._stream(self._states())
        name = {"/": "index.html", "/board": "board.html"}.get(path) or path.lstrip("/")
        if not re.fullmatch(r"[a-z0-9_]+\.(html|js|css|png)", name) or not (STATIC / name).is_file():
            return self._send(404, json.dumps({"error": "no page %s" % path}))
        self._send(200, (STATIC / name).read_bytes(), TYPES[(STATIC / name).suffix])

    def _states(self):
        version = -1
        while not self.server.closing:
            now, state = self.link.snapshot()
            if now != version:
                version = now
                yield state
            else:
                yield UNCHANGED
            self.link.wait(version, 10)

    def do_POST(self):
        if self.path != "/input":
            return self._send(404, json.dumps({"error": "POST /input only"}))
        try:
            n = int(self.headers.get("Content-Length", "0"))
            if not 0 < n <= 1024:
                raise ValueError("body of %d bytes (1..1024)" % n)
            req = json.loads(self.rfile.read(n))
            hello = self.link.snapshot()[1]["hello"]
            line = command_for(req, hello.get("roles", []), hello.get("sensors", 0))
        except ValueError as e:
            return self._send(400, json.dumps({"error": str(e)}))
        try:
            self.link.send(line)
        except (ConnectionError, OSError) as e:
            return self._send(503, json.dumps({"error": str(e)}))
        self._send(200, json.dumps({"sent": line}))


class Server(ThreadingHTTPServer):
    daemon_threads = True
    closing = False


def serve(link, port=8000, host="127.0.0.1"):
    """Start the web server in a thread; returns the server (server.server_address, shutdown())."""
    handler = type("BoundHandler", (Handler,), {"link": link})
    server = Server((host, port), handler)
    threading.Thread(target=server.serve_forever, name="sim-web", daemon=True).start()
    return server


def stop(server):
    server.closing = True
    server.shutdown()
    server.server_close()
