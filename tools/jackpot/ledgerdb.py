"""The ledger's two engines behind one connection interface: SQLite (a file, the one-machine default) and PostgreSQL.

    db = connect('build/link/ledger.db')                                  # SQLite (WAL)
    db = connect('postgresql://127.0.0.1:5432,127.0.0.1:5433/ledger?target_session_attrs=read-write')
    db.execute(sql, params).fetchone(); db.begin(); db.commit(); db.rollback(); db.close()

The ledger's SQL is written once, with `?` placeholders and the types both engines share; an engine
adds its schema (PostgreSQL: 64-bit integers and float8 where SQLite's types are wider than their
names), its write lock (`FOR UPDATE` on the link rows; SQLite's BEGIN IMMEDIATE locks the file) and
reconnection: a PostgreSQL connection lost (a primary killed) is replaced at the next transaction, or
the next read outside one, by one to whichever listed host is the primary then (libpq's
target_session_attrs=read-write); within a transaction the loss is the transaction's error.
"""
import re
import sqlite3

_TABLES = """
CREATE TABLE IF NOT EXISTS link (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    params TEXT NOT NULL,            -- the validated link configuration (JSON)
    state TEXT NOT NULL,             -- tablectl.rules.pool.Pool.state() (JSON)
    ver INTEGER NOT NULL,            -- grows with every change of the pool
    pending TEXT NOT NULL,           -- JSON list of top awards confirmed and not yet paid
    closed_contributed INTEGER NOT NULL DEFAULT 0,
    closed_paid INTEGER NOT NULL DEFAULT 0,
    closed_seeded INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS message (
    %(order)s
    tbl TEXT NOT NULL, ep INTEGER NOT NULL, seq INTEGER NOT NULL,
    link TEXT NOT NULL, kind TEXT NOT NULL, round INTEGER,
    body TEXT NOT NULL, answer TEXT NOT NULL, ok INTEGER NOT NULL,
    cents INTEGER NOT NULL DEFAULT 0, -- contributed (contrib), awarded (hit) or taken back, negative (refund)
    at REAL NOT NULL,
    PRIMARY KEY (tbl, ep, seq)
);
CREATE INDEX IF NOT EXISTS message_round ON message (tbl, ep, round, kind);
CREATE INDEX IF NOT EXISTS message_hits ON message (link, kind, ok);
CREATE TABLE IF NOT EXISTS tablemeter (
    tbl TEXT PRIMARY KEY, link TEXT NOT NULL,
    contributed INTEGER NOT NULL DEFAULT 0, bets INTEGER NOT NULL DEFAULT 0,
    hits INTEGER NOT NULL DEFAULT 0, awarded INTEGER NOT NULL DEFAULT 0,
    messages INTEGER NOT NULL DEFAULT 0, duplicates INTEGER NOT NULL DEFAULT 0,
    refused INTEGER NOT NULL DEFAULT 0, last_at REAL
);
"""


class ConnectError(ValueError):
    """The ledger cannot be opened: one line saying where and why."""


def is_postgres(target):
    return str(target).startswith(("postgresql://", "postgres://"))


def shown(target):
    """The ledger's place to print: a URI's password masked."""
    return re.sub(r"(//[^:/@]*:)[^@/]*@", r"\1***@", str(target))


def connect(target, readonly=False):
    """A connection to the ledger at `target`: a PostgreSQL URI, or else a SQLite file's path."""
    return Postgres(str(target), readonly) if is_postgres(target) else Sqlite(target, readonly)


class Sqlite:
    Error = sqlite3.Error
    LOCK = ""            # BEGIN IMMEDIATE holds the whole file's write lock
    ORDER = "rowid"      # insertion order
    SCHEMA = _TABLES % {"order": ""}

    def __init__(self, path, readonly=False):
        try:
            self.conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=30)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=FULL")  # money: a commit is on disk before its ack goes out
            if not readonly:
                self.conn.executescript(self.SCHEMA)
        except sqlite3.Error as e:
            raise ConnectError("ledger %s: %s" % (path, e))

    def execute(self, sql, params=()):
        return self.conn.execute(sql, params)

    def executemany(self, sql, rows):
        self.conn.executemany(sql, rows)

    def begin(self):
        self.conn.execute("BEGIN IMMEDIATE")

    def commit(self):
        self.conn.execute("COMMIT")

    def rollback(self):
        self.conn.execute("ROLLBACK")

    def close(self):
        self.conn.close()


class Postgres:
    LOCK = " FOR UPDATE"  # a batch locks its links' rows first: two servers' batches take turns
    ORDER = "id"
    # SQLite's INTEGER is 64 bits and its REAL a double; PostgreSQL's are 32 bits and a float4
    SCHEMA = (_TABLES % {"order": "id BIGSERIAL,"}).replace("INTEGER", "BIGINT").replace(
        "REAL", "DOUBLE PRECISION")

    def __init__(self, uri, readonly=False):
        import psycopg
        self.psycopg = psycopg
        self.Error = psycopg.Error
        self.uri = uri
        self._sql = {}
        self.conn = None
        self._in_transaction = False
        try:
            self._connect()
            if not readonly:
                # two servers starting at once must not both create the tables: one at a time (an advisory lock)
                with self.conn.transaction():
                    self.conn.execute("SELECT pg_advisory_xact_lock(7231)")
                    self.conn.execute(self.SCHEMA)
        except psycopg.Error as e:
            raise ConnectError("ledger %s: %s" % (shown(uri), " ".join(str(e).split())[:300]))

    def _connect(self):
        self.conn = self.psycopg.connect(self.uri, autocommit=True, connect_timeout=5)

    def _text(self, sql):
        text = self._sql.get(sql)
        if text is None:
            text = self._sql[sql] = sql.replace("?", "%s")  # no `?` in the ledger's SQL but placeholders
        return text

    def execute(self, sql, params=()):
        if not self._in_transaction and (self.conn.broken or self.conn.closed):
            self._connect()  # a read between batches (the server's last hits) on a connection lost meanwhile
        return self.conn.execute(self._text(sql), params)

    def executemany(self, sql, rows):
        with self.conn.cursor() as cur:  # psycopg sends them in one pipeline: one round trip, not one a row
            cur.executemany(self._text(sql), rows)

    def begin(self):
        try:
            if self.conn.broken or self.conn.closed:
                raise self.psycopg.OperationalError("closed")
            self.conn.execute("BEGIN")
        except self.psycopg.OperationalError:  # the server went away since the last transaction (nothing
            self._connect()  # was done in this one yet): libpq tries the URI's hosts for the read-write one
            self.conn.execute("BEGIN")
        self._in_transaction = True

    def commit(self):
        self._in_transaction = False
        self.conn.execute("COMMIT")

    def rollback(self):
        self._in_transaction = False
        if not (self.conn.broken or self.conn.closed):
            self.conn.execute("ROLLBACK")

    def close(self):
        self.conn.close()
