"""The host end of the sim board's link (boards/sim/link.py): accepts the board, keeps the table's picture, relays inputs.

The picture is only what the board reported (hello, out, status messages merged into one dict); the
host never works out a result itself. Each change bumps `version` and wakes everyone in wait().
"""
import json
import socket
import threading


class LinkServer:
    def __init__(self, host="127.0.0.1"):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, 0))
        self.sock.listen(1)
        self.address = self.sock.getsockname()
        self.cond = threading.Condition()
        self.version = 0
        self.state = {"connected": False, "hello": {}, "out": {}, "status": {}, "errors": []}
        self.conn = None
        self._send_lock = threading.Lock()
        self._closed = False
        self._thread = threading.Thread(target=self._serve, name="sim-link", daemon=True)
        self._thread.start()

    # -- board -> host ----------------------------------------------------------------------
    def _serve(self):
        while not self._closed:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.conn = conn
            self._update(connected=True)
            try:  # a board on a serial line (the qemu board's UART1) cannot see the host arrive: ask
                conn.sendall(b"sync\n")
            except OSError:
                pass
            try:
                for line in conn.makefile("rb"):
                    self._message(line)
            except (OSError, ValueError):
                pass
            finally:
                self.conn = None
                conn.close()
                self._update(connected=False)

    def _message(self, line):
        try:
            msg = json.loads(line)
        except ValueError:
            return  # half a line at shutdown
        kind = msg.pop("t", "")
        with self.cond:
            if kind == "hello":
                self.state["hello"] = msg
            elif kind == "out":
                self.state["out"].update(msg)
            elif kind == "status":
                self.state["status"] = msg
            elif kind == "error":
                self.state["errors"] = (self.state["errors"] + [msg.get("text", "")])[-5:]
            else:
                return
            self.version += 1
            self.cond.notify_all()

    def _update(self, **kw):
        with self.cond:
            self.state.update(kw)
            self.version += 1
            self.cond.notify_all()

    def snapshot(self):
        with self.cond:
            return self.version, json.loads(json.dumps(self.state))

    def wait(self, version, timeout):
        """Block until the picture is newer than `version` (or timeout); returns the current version."""
        with self.cond:
            self.cond.wait_for(lambda: self.version != version or self._closed, timeout)
            return self.version

    # -- host -> board ----------------------------------------------------------------------
    def send(self, command):
        conn = self.conn
        if conn is None:
            raise ConnectionError("the board is not connected")
        with self._send_lock:
            conn.sendall((command + "\n").encode())

    def close(self):
        self._closed = True
        with self.cond:
            self.cond.notify_all()
        try:
            self.sock.close()
        except OSError:
            pass
        conn = self.conn
        if conn is not None:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
