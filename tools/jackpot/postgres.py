"""Throwaway PostgreSQL clusters for the ledger (Debian's postgresql 15): a primary, a synchronous standby, the promote.

    pg = Node.primary()                 # a new temporary folder (a copy of one initdb a process), a free port, socket there
    sb = pg.standby()                   # pg_basebackup -R, started, synchronous (synchronous_standby_names '*')
    uri = pair_uri(pg, sb, 'ledger')    # both hosts, libpq picks the read-write one
    pg.kill(); sb.promote()             # kill -9 of the primary's processes; pg_ctl promote, then the trap cleared
    pg.remove(); sb.remove()

PostgreSQL refuses to run as root: as root, every program here runs as Debian's `postgres` account
(subprocess's user=, so the pid a test holds is the postmaster's, not a runuser's), in a folder of
/tmp it owns (a pytest tmp_path is root's, mode 700). Authentication is `trust` on 127.0.0.1 and the
socket only: a test cluster; a casino's is set up by its own administrators (docs/link.md).
"""
import atexit
import os
import pathlib
import pwd
import shutil
import signal
import subprocess
import tempfile
import time

from child import Child
from jackpot.broker import free_port
from jackpot.debian import apt_install

BIN = pathlib.Path("/usr/lib/postgresql/15/bin")
SUPERUSER = "postgres"


class PostgresError(RuntimeError):
    pass


def installed():
    return (BIN / "postgres").exists() and (BIN / "initdb").exists()


def ensure_installed():
    """Debian's postgresql (no recommended packages) when it is missing, as `make postgres` does."""
    if installed():
        return
    try:
        apt_install("postgresql")
    except (OSError, subprocess.CalledProcessError) as e:
        raise PostgresError("postgresql is not installed and apt-get could not install it: %s" % e)


def _account():
    """The user the programs run as: `postgres` when we are root (initdb and postgres refuse root), else us."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam("postgres")
    except KeyError:
        raise PostgresError("running as root and there is no `postgres` account to run PostgreSQL as "
                            "(Debian's postgresql package makes it)")


def _as_account():
    """subprocess's arguments that run a program as _account()."""
    acct = _account()
    return {"user": acct.pw_uid, "group": acct.pw_gid, "extra_groups": []} if acct else {}


def _run(args, timeout=60):
    proc = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=timeout, **_as_account())
    if proc.returncode != 0:
        raise PostgresError("%s: %s" % (pathlib.Path(str(args[0])).name, (proc.stdout + proc.stderr).strip()[-400:]))
    return proc.stdout


class Node(Child):
    """One PostgreSQL server: its data folder, port and socket in `folder` (removed by remove())."""

    def __init__(self, folder, port=None, fsync=True):
        self.folder = pathlib.Path(folder)
        self.fsync = fsync
        self.data = self.folder / "data"
        self.port = port or free_port()
        self.proc = None

    @classmethod
    def primary(cls, fsync=True):
        """A new cluster in a new temporary folder, started. fsync=False: a cluster only tests use (a crash
        of the machine is not among their faults; a kill -9 loses nothing the kernel holds, and a commit
        still waits for its synchronous standby)."""
        node = cls(_own_folder("tablectl-pg-"), fsync=fsync)
        _run(["cp", "-a", _template(), node.data])  # initdb's output, made once a process (seconds each)
        with open(node.data / "postgresql.conf", "a") as conf:
            conf.write("\n# tablectl ledger (tools/jackpot/postgres.py)\nlisten_addresses = '127.0.0.1'\n"
                       "unix_socket_directories = '%s'\nmax_connections = 50\nshared_buffers = 32MB\n"
                       "wal_level = replica\nmax_wal_senders = 4\nmin_wal_size = 4MB\n%s"
                       % (node.folder, "" if fsync else "fsync = off\nfull_page_writes = off\n"))
        return node.start()

    def start(self, timeout=30):
        err = open(self.folder / ("postgres-%d.log" % self.port), "ab")
        try:
            self.proc = subprocess.Popen([str(BIN / "postgres"), "-D", str(self.data), "-p", str(self.port)],
                                         stdout=err, stderr=err, stdin=subprocess.DEVNULL, start_new_session=True,
                                         **_as_account())
        finally:
            err.close()
        deadline = time.monotonic() + timeout
        while subprocess.run([str(BIN / "pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(self.port)]).returncode != 0:
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.kill()
                raise PostgresError("postgres on port %d did not start: %s" % (self.port, self.log_tail()))
            time.sleep(0.05)
        return self

    def log_tail(self, n=10):
        text = "".join(p.read_text(errors="replace") for p in sorted(self.folder.glob("postgres-*.log")))
        return "\n".join(text.splitlines()[-n:])

    def uri(self, dbname="postgres"):
        return "postgresql://%s@127.0.0.1:%d/%s" % (SUPERUSER, self.port, dbname)

    def sql(self, statement, dbname="postgres"):
        """One statement through psycopg (autocommit): its rows, or [] for a statement without any."""
        import psycopg
        with psycopg.connect(self.uri(dbname), autocommit=True, connect_timeout=5) as conn:
            cur = conn.execute(statement)
            return cur.fetchall() if cur.description else []

    def create_database(self, name):
        self.sql('CREATE DATABASE "%s"' % name)
        return self.uri(name)

    def kill(self):
        """kill -9 of the postmaster and every backend (its process group): the machine's power cut."""
        if self.alive():
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(5)

    def stop(self, wait=10):
        """A fast shutdown (SIGINT: active transactions rolled back), SIGKILL past `wait` seconds."""
        if self.alive():
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(wait)
            except subprocess.TimeoutExpired:
                self.kill()

    def remove(self):
        self.kill()  # a throwaway cluster: no shutdown checkpoint to wait for
        shutil.rmtree(self.folder, ignore_errors=True)

    # -- replication -------------------------------------------------------------------------
    def standby(self, timeout=30, port=None, live=False):
        """A streaming standby of this primary (pg_basebackup -R), started, and made the synchronous one:
        from then on a commit here returns only once the standby has it on disk. port: the standby's (a
        dead node's, so the servers' URI names it still). live: the primary is taking payments, so it
        goes synchronous only once the standby has caught up and streams (set before, every commit would
        wait for the backup; set while it catches up, for its catching up: seconds of a link's answers)."""
        def synchronous():
            self.sql("ALTER SYSTEM SET synchronous_standby_names = '*'")
            self.sql("SELECT pg_reload_conf()")
        if not live:  # set before the backup, as a casino's primary has it: the standby inherits it (the promote's trap)
            synchronous()
        node = Node(_own_folder("tablectl-pg-"), port=port, fsync=self.fsync)
        _run([BIN / "pg_basebackup", "-h", "127.0.0.1", "-p", self.port, "-U", SUPERUSER, "-D", node.data, "-R",
              "-X", "stream", "-c", "fast"] + ([] if self.fsync else ["--no-sync"]), timeout=120)
        with open(node.data / "postgresql.conf", "a") as conf:
            conf.write("unix_socket_directories = '%s'\n" % node.folder)
        node.start()
        deadline = time.monotonic() + timeout
        if live:
            while self.sql("SELECT state FROM pg_stat_replication") != [("streaming",)]:
                if time.monotonic() > deadline:
                    raise PostgresError("the standby on port %d did not catch up: %s" % (node.port, node.log_tail()))
                time.sleep(0.05)
            synchronous()
        while self.sql("SELECT sync_state FROM pg_stat_replication") != [("sync",)]:
            if time.monotonic() > deadline:
                raise PostgresError("the standby on port %d did not become synchronous: %s"
                                    % (node.port, node.log_tail()))
            time.sleep(0.05)
        return node

    def promote(self):
        """The standby becomes the primary: pg_ctl promote (waits until it accepts writes), then its
        synchronous_standby_names (the primary's, copied by the base backup) cleared; left set, every commit
        would wait for a standby that is not there, past statement_timeout, for ever."""
        _run([BIN / "pg_ctl", "promote", "-w", "-D", self.data])
        self.sql("ALTER SYSTEM SET synchronous_standby_names = ''")  # SET, not RESET: above postgresql.conf too
        self.sql("SELECT pg_reload_conf()")
        return self


def pair_uri(primary, standby, dbname):
    """The ledger's URI naming both hosts: libpq connects to the one that accepts writes."""
    return "postgresql://%s@127.0.0.1:%d,127.0.0.1:%d/%s?target_session_attrs=read-write" % (
        SUPERUSER, primary.port, standby.port, dbname)


_made = {}


def _template():
    """initdb's data folder, made once a process (removed at its exit) and copied for every cluster."""
    if "data" not in _made:
        ensure_installed()
        folder = _own_folder("tablectl-pginit-")
        atexit.register(shutil.rmtree, folder, True)
        _run([BIN / "initdb", "-D", folder / "data", "-U", SUPERUSER, "--auth=trust", "-E", "UTF8",
              "--locale=C.UTF-8", "--no-instructions", "--wal-segsize=1", "--no-sync"])
        _made["data"] = folder / "data"
    return _made["data"]


def _own_folder(prefix):
    folder = pathlib.Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))
    acct = _account()
    if acct:
        os.chown(folder, acct.pw_uid, acct.pw_gid)
    return folder
