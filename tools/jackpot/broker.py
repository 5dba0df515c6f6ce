"""Debian's mosquitto as the link's broker: its configuration, one account per table and per server, the ACL, TLS, the process.

    b = Broker(folder, tables={'t01': 'pit1', 't02': 'pit1'}, port=0, tls=False)  # table -> its link
    b.start()            # writes mosquitto.conf, passwd (hashed by mosquitto_passwd), acl, credentials.json
    b.port, b.password('t01'), b.ca_file (tls)
    b.kill()             # SIGKILL, as a power cut; start() again keeps the port, accounts and persistence

Accounts: `jackpot` (the server: every topic under tablectl/), `sign` (reads pools, hits and the server's
state), and one per table, whose user name is its table id. The ACL lets a table publish only its own
topics (tablectl/+/table/<its id>/...) and read only its acks, the pools and the server's state: only the
server can publish a pool or an ack. Passwords are random, kept in credentials.json (mode 600) for the
server and the simulated tables, and given to mosquitto hashed. Persistence is on, saved every second;
the link's exactly-once does not rest on it (docs/link.md): a table keeps what the server has not
acknowledged and sends it again.

TLS (off by default): make_certificates(folder) makes a CA (ca.crt, and ca.der for a board) and a server
certificate for 127.0.0.1 and localhost with openssl; the listener then speaks MQTT over TLS only.

mosquitto comes from Debian (`apt-get install --no-install-recommends mosquitto`): ensure_installed()
installs it when missing (root, or sudo), as `make broker` does.
"""
import json
import os
import pathlib
import pwd
import secrets
import signal
import socket
import subprocess
import time

from child import Child
from jackpot.debian import apt_install

MOSQUITTO = "/usr/sbin/mosquitto"
PASSWD_TOOL = "/usr/bin/mosquitto_passwd"
SERVER_USER = "jackpot"
SIGN_USER = "sign"
RESERVED = (SERVER_USER, SIGN_USER)

ACL_HEAD = """# tablectl link ACL (written by tools/jackpot/broker.py); see docs/link.md
"""
# a jackpot server (one account an instance: the broker ties a client id to its account): every topic
ACL_SERVER = """user %(server)s
topic readwrite tablectl/#

"""
ACL_SIGN = """# a pit sign or a casino system: reads only
user %(sign)s
topic read tablectl/+/pool
topic read tablectl/+/hits
topic read tablectl/server
"""
# one block a table (user name = table id): it publishes its own topics on its own link only, and reads
# its acks, its link's pool and heartbeat and the server's state; only the server publishes those
ACL_TABLE = """
user %(table)s
topic write tablectl/%(link)s/table/%(table)s/contrib
topic write tablectl/%(link)s/table/%(table)s/hit
topic write tablectl/%(link)s/table/%(table)s/paid
topic write tablectl/%(link)s/table/%(table)s/refund
topic write tablectl/%(link)s/table/%(table)s/beat
topic read tablectl/%(link)s/table/%(table)s/ack
topic read tablectl/%(link)s/pool
topic read tablectl/%(link)s/beat
topic read tablectl/server
"""


class BrokerError(RuntimeError):
    pass


def ensure_installed(package="mosquitto", programs=(MOSQUITTO, PASSWD_TOOL)):
    """Install Debian's `package` (no recommended packages) when one of its `programs` is missing;
    BrokerError if it cannot be."""
    if all(os.path.exists(p) for p in programs):
        return
    try:
        apt_install(package)
    except (OSError, subprocess.CalledProcessError) as e:
        raise BrokerError("%s is not installed and apt-get could not install it: %s" % (package, e))


def ephemeral_ports():
    """The kernel's range for ports it picks itself (outgoing connections, a bind to port 0)."""
    try:
        low, high = map(int, pathlib.Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split())
    except (OSError, ValueError):
        low, high = 32768, 60999
    return low, high


def free_port():
    """A TCP port free on 127.0.0.1 now, for a process that binds it a moment later. Taken below the kernel's
    ephemeral range: a port the kernel hands out is one it hands the next outgoing connection too, and under
    load (parallel tests) the server then met EADDRINUSE on it."""
    low, _ = ephemeral_ports()
    first = 10000 if low > 11000 else 1024
    for _ in range(500):
        port = first + secrets.randbelow(max(1, low - first))
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise BrokerError("no free TCP port on 127.0.0.1 between %d and %d" % (first, low - 1))


def check_id(kind, name):
    """A table or link id: 1..32 of a-z 0-9 _ - (it is a topic level and a user name); ValueError otherwise."""
    if not isinstance(name, str) or not 1 <= len(name) <= 32 or any(
            not (c.isascii() and (c.islower() or c.isdigit()) or c in "_-") for c in name):
        raise ValueError("%s id %r: 1-32 characters of a-z, 0-9, _ and -" % (kind, name))
    if kind == "table" and name in RESERVED:
        raise ValueError("table id %r is the %s account's" % (name, name))
    if kind == "link" and name == "server":
        raise ValueError("link id 'server' is the server's state topic")
    return name


def make_certificates(folder, days=30):
    """A CA and a server certificate for 127.0.0.1/localhost, made with openssl in `folder`; returns
    (ca.crt, server.crt, server.key) paths."""
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    ca_key, ca, key, csr, crt = (folder / n for n in ("ca.key", "ca.crt", "server.key", "server.csr", "server.crt"))
    ext = folder / "san.ext"
    ext.write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n")

    def openssl(*args):
        proc = subprocess.run(["openssl"] + list(args), capture_output=True, text=True)
        if proc.returncode != 0:
            raise BrokerError("openssl %s: %s" % (args[0], proc.stderr.strip()[-300:]))

    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(ca_key), "-out", str(ca),
            "-days", str(days), "-subj", "/CN=tablectl link CA")
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(csr), "-subj", "/CN=localhost")
    openssl("x509", "-req", "-in", str(csr), "-CA", str(ca), "-CAkey", str(ca_key), "-CAcreateserial",
            "-out", str(crt), "-days", str(days), "-extfile", str(ext))
    # the same CA as DER, the form a board's MicroPython loads (link_ca.der beside its records)
    openssl("x509", "-in", str(ca), "-outform", "DER", "-out", str(folder / "ca.der"))
    return ca, crt, key


class Broker(Child):
    def __init__(self, folder, tables=None, port=0, tls=False, servers=(SERVER_USER,)):
        self.folder = pathlib.Path(folder)
        self.tables = dict((check_id("table", t), check_id("link", link)) for t, link in (tables or {}).items())
        self.servers = tuple(check_id("server", s) for s in servers)  # an account for each server instance
        taken = set(self.servers) & (set(self.tables) | {SIGN_USER})
        if taken or SERVER_USER not in self.servers:
            raise ValueError("server accounts %s: %s among them, none a table's or the sign's"
                             % (", ".join(self.servers), SERVER_USER))
        self.port = port or free_port()
        self.tls = tls
        self.proc = None
        self.ca_file = self.folder / "tls" / "ca.crt" if tls else None
        self._creds = None

    # -- files ------------------------------------------------------------------------------
    @property
    def credentials_path(self):
        return self.folder / "credentials.json"

    def _credentials(self):
        """{user: password}: kept across restarts (credentials.json), a new random one for a new user."""
        # once: nothing else writes the file while this Broker lives, and password() is asked for every table
        if self._creds is None:
            path = self.credentials_path
            creds = json.loads(path.read_text()) if path.exists() else {}
            for user in self.servers + (SIGN_USER,) + tuple(sorted(self.tables)):
                creds.setdefault(user, secrets.token_urlsafe(12))
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(creds, indent=1, sort_keys=True))
            os.chmod(tmp, 0o600)
            os.replace(tmp, path)
            self._creds = creds
        return self._creds

    def password(self, user):
        return self._credentials()[user]

    def addresses(self, first=0):
        """The broker's address as a link or the server names it (a cluster names every node's)."""
        return "127.0.0.1:%d" % self.port

    def write_files(self):
        ensure_installed()
        self.folder.mkdir(parents=True, exist_ok=True)
        creds = self._credentials()
        passwd = self.folder / "passwd"
        passwd.write_text("".join("%s:%s\n" % (u, creds[u]) for u in sorted(creds)))
        os.chmod(passwd, 0o600)
        proc = subprocess.run([PASSWD_TOOL, "-U", str(passwd)], capture_output=True, text=True)  # hash in place
        if proc.returncode != 0:
            raise BrokerError("mosquitto_passwd -U: %s" % (proc.stdout + proc.stderr).strip())
        acl = ACL_HEAD + "".join(ACL_SERVER % {"server": s} for s in self.servers) + ACL_SIGN % {"sign": SIGN_USER}
        for table in sorted(self.tables):
            acl += ACL_TABLE % {"table": table, "link": self.tables[table]}
        (self.folder / "acl").write_text(acl)
        lines = [
            "# tablectl link broker (written by tools/jackpot/broker.py)",
            "user %s" % pwd.getpwuid(os.getuid()).pw_name,  # as root, stay root: the files are ours
            "per_listener_settings false",
            "allow_anonymous false",
            "password_file %s" % passwd,
            "acl_file %s" % (self.folder / "acl"),
            "persistence true",
            "persistence_location %s/" % self.folder,
            "autosave_interval 1",
            "max_queued_messages 100000",
            "max_inflight_messages 100",
            "set_tcp_nodelay true",  # small messages go at once: Nagle with delayed ACKs adds 40 ms to each
            "log_dest file %s" % (self.folder / "mosquitto.log"),
            "log_type error",
            "log_type warning",
            "log_type notice",
            "listener %d 127.0.0.1" % self.port,
            # a client's id is its account's user name, whatever it asks for: no account can take over
            # another's session (the sign as the server, one table as another) by connecting with its id
            # (after `listener`: mosquitto 2.0 reads it as the listener's)
            "use_username_as_clientid true",
        ]
        if self.tls:
            ca, crt, key = make_certificates(self.folder / "tls") if not (self.folder / "tls" / "server.crt").exists() \
                else (self.folder / "tls" / n for n in ("ca.crt", "server.crt", "server.key"))
            lines += ["cafile %s" % ca, "certfile %s" % crt, "keyfile %s" % key, "tls_version tlsv1.2"]
        conf = self.folder / "mosquitto.conf"
        conf.write_text("\n".join(lines) + "\n")
        return conf

    # -- process ----------------------------------------------------------------------------
    def start(self, timeout=10):
        conf = self.write_files()
        err = open(self.folder / "mosquitto.stderr", "ab")
        try:
            self.proc = subprocess.Popen([MOSQUITTO, "-c", str(conf)], stdout=err, stderr=err,
                                         stdin=subprocess.DEVNULL, start_new_session=True)
        finally:
            err.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise BrokerError("mosquitto exited (%s): %s" % (self.proc.returncode, self.log_tail()))
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return self
            except OSError:
                time.sleep(0.05)
        self.kill()
        raise BrokerError("mosquitto did not listen on 127.0.0.1:%d within %d s: %s" % (self.port, timeout, self.log_tail()))

    def log_tail(self, n=10):
        text = ""
        for name in ("mosquitto.stderr", "mosquitto.log"):
            p = self.folder / name
            if p.exists():
                text += p.read_text(errors="replace")
        return "\n".join(text.splitlines()[-n:])

    def pause(self, paused=True):
        """SIGSTOP / SIGCONT: a broker that stops answering without closing its connections (a network stall)."""
        if self.alive():
            self.proc.send_signal(signal.SIGSTOP if paused else signal.SIGCONT)

    def stop(self):
        if self.alive():
            self.proc.send_signal(signal.SIGCONT)  # a paused broker would not see the SIGTERM
        Child.stop(self)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
