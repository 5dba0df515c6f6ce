"""The host end of the sim board's host link (boards/sim/hostlink.py): accepts the board, keeps the table's picture, relays inputs.

The picture is only what the board reported (hello, out, status messages merged into one dict); the
host never works out a result itself. Each change bumps `version` and wakes everyone in wait().
The table's physical inputs (a chip on a seat sensor, the shaker cover) are the table's, not the
board's: the last one sent of each is kept (in `inputs_path` if given, so a restarted simulator has
them too) and sent again to a board that connects, as a board rebooted under the chips reads them.
"""
import json
import pathlib
import socket
import threading

_KEPT = ("seat", "cover", "key")  # the link commands that set a physical input (the key switch too)


class HostLinkServer:
    def __init__(self, host="127.0.0.1", inputs_path=None):
        self.inputs_path = pathlib.Path(inputs_path) if inputs_path else None
        self.inputs = self._load_inputs()  # {'seat 2': '1', 'cover': '0'}: the last of each input
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
            self._greet(conn)
            try:
                for line in conn.makefile("rb"):
                    if self._message(line) == "boot":  # the board reset under a connection that stayed
                        self._greet(conn)
            except (OSError, ValueError):
                pass
            finally:
                self.conn = None
                conn.close()
                self._update(connected=False)

    def _greet(self, conn):
        """What a board that has just come up needs: "sync" (a board on a serial line, the qemu board's UART1,
        cannot see the host arrive, nor the host its reset), then the table's inputs as they are."""
        try:
            with self._send_lock:
                conn.sendall(b"sync\n")
                for what in sorted(self.inputs):  # the chips, the cover and the key are still where they were
                    conn.sendall(("%s %s\n" % (what, self.inputs[what])).encode())
        except OSError:
            pass

    def _message(self, line):
        """Take one line from the board into the picture; returns its kind."""
        try:
            msg = json.loads(line)
        except ValueError:
            return ""  # half a line at shutdown
        kind = msg.pop("t", "")
        if kind == "boot":
            return kind
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
                return kind
            self.version += 1
            self.cond.notify_all()
        return kind

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
        parts = command.split()
        if parts and parts[0] in _KEPT and len(parts) >= 2:
            self.inputs[" ".join(parts[:-1])] = parts[-1]
            self._save_inputs()

    def _load_inputs(self):
        try:
            kept = json.loads(self.inputs_path.read_text()) if self.inputs_path else {}
        except (OSError, ValueError):
            return {}  # none yet, or a file damaged: the inputs start as a fresh table's
        return dict((k, v) for k, v in kept.items() if isinstance(v, str) and k.split(" ")[0] in _KEPT) \
            if isinstance(kept, dict) else {}

    def _save_inputs(self):
        if self.inputs_path is not None:
            tmp = self.inputs_path.with_name(self.inputs_path.name + ".tmp")
            tmp.write_text(json.dumps(self.inputs, sort_keys=True))
            tmp.replace(self.inputs_path)

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
