"""The ledger's two engines (jackpot.ledgerdb) below the Ledger: what each connection is and keeps between
batches, PostgreSQL's reconnection where a session was dropped (a restart, an administrator, a failover), and
the one line a ledger that cannot be opened gives. The survivors of `make mutate` over ledgerdb.py (issue 23):
each test names the mutants it kills, seen failing with them applied by hand."""
import threading

import psycopg
import pytest
from psycopg import pq

from jackpot.ledgerdb import ConnectError, connect


@pytest.fixture
def pg_at(pg_node):
    """An empty ledger on the session's PostgreSQL and a function that drops a connection's session there,
    as a server restart or pg_terminate_backend does (the client learns it at its next statement)."""
    pg_node.sql("DROP TABLE IF EXISTS link, message, tablemeter", "ledger")

    def drop(db):
        pid = db.execute("SELECT pg_backend_pid()").fetchone()[0]
        assert pg_node.sql("SELECT pg_terminate_backend(%d)" % pid) == [(True,)]
        return pid
    return pg_node.uri("ledger"), drop


def pid_of(db):
    return db.execute("SELECT pg_backend_pid()").fetchone()[0]


def test_a_ledger_opened_in_one_thread_takes_a_batch_from_another(new_ledger_at):
    # cosmic-ray: Sqlite's check_same_thread=False made True: a batch run in a thread of its own (as
    # test_ledger_failover's bounded() runs one) raised ProgrammingError on SQLite
    db = connect(new_ledger_at())
    out = []

    def batch():
        try:
            db.begin()
            db.execute("INSERT INTO tablemeter (tbl, link) VALUES (?, ?)", ("t09", "L1"))
            db.commit()
            out.append(db.execute("SELECT COUNT(*) FROM tablemeter").fetchone()[0])
        except Exception as e:  # noqa: BLE001  (what the thread met, for the assert below)
            out.append(e)
    th = threading.Thread(target=batch)
    th.start()
    th.join()
    assert out == [1], out
    assert db.execute("SELECT tbl, link FROM tablemeter").fetchall() == [("t09", "L1")]
    db.close()


def test_sqlite_waits_30_s_for_another_writers_lock(tmp_path):
    # cosmic-ray: timeout=30 made 29 or 31: two servers (or a server and a report) on one file take turns at
    # its write lock; a batch waits up to 30 s for it before it is an error (sqlite's busy timeout, in ms)
    db = connect(tmp_path / "ledger.db")
    assert db.execute("PRAGMA busy_timeout").fetchone() == (30000,)
    db.close()


def test_a_postgres_ledger_holds_no_transaction_between_batches_and_gives_up_a_host_after_5_s(pg_at):
    # cosmic-ray: autocommit=True made False: the schema's advisory lock and every read between batches held
    # a transaction open (a second server opening the ledger waited for ever); connect_timeout=5 made 4 or 6
    uri, drop = pg_at
    db = connect(uri)
    idle = pq.TransactionStatus.IDLE
    assert db.conn.info.transaction_status == idle
    db.execute("SELECT COUNT(*) FROM link").fetchone()
    assert db.conn.info.transaction_status == idle
    db.begin()
    assert db.conn.info.transaction_status == pq.TransactionStatus.INTRANS
    db.commit()
    assert db.conn.info.transaction_status == idle
    assert db.conn.info.get_parameters()["connect_timeout"] == "5"
    second = connect(uri)  # its schema's advisory lock is free: the first holds none
    second.close()
    db.close()


def test_a_transaction_on_a_sound_postgres_connection_keeps_its_session(pg_at):
    # cosmic-ray: begin()'s `if self.conn.broken or self.conn.closed` negated: every batch opened a new
    # connection and left the old one open on the server
    uri, drop = pg_at
    db = connect(uri)
    conn, pid = db.conn, pid_of(db)
    pids = []
    for i in range(3):
        db.begin()
        pids.append(pid_of(db))
        db.execute("INSERT INTO tablemeter (tbl, link) VALUES (?, ?)", ("t%02d" % i, "L1"))
        db.commit()
    assert pids == [pid] * 3 and db.conn is conn and not conn.closed
    db.close()


def test_a_batch_after_the_server_dropped_the_session_reconnects_and_commits(pg_at):
    # cosmic-ray: begin()'s `except OperationalError` replaced: a session the server dropped since the last
    # batch (psycopg has not seen it yet: the BEGIN is the first to fail) was the batch's error, not a
    # reconnection to the primary
    uri, drop = pg_at
    db = connect(uri)
    old = drop(db)
    db.begin()
    db.execute("INSERT INTO tablemeter (tbl, link) VALUES (?, ?)", ("t01", "L1"))
    db.commit()
    assert pid_of(db) != old
    assert db.execute("SELECT tbl FROM tablemeter").fetchall() == [("t01",)]
    db.close()


def test_a_read_between_batches_reconnects_once_the_session_is_seen_lost(pg_at):
    # cosmic-ray: the first `_in_transaction = False` made True, and commit()'s: a ledger that had run no
    # batch yet (a report's, the sign's reads), or whose last batch committed, never reconnected from a lost
    # session (test_ledger_failover's read comes after a batch that failed, whose rollback() clears it)
    uri, drop = pg_at
    db = connect(uri)
    for batches in (0, 1):
        if batches:
            db.begin()
            db.execute("INSERT INTO tablemeter (tbl, link) VALUES (?, ?)", ("t01", "L1"))
            db.commit()
        drop(db)
        with pytest.raises(psycopg.OperationalError):
            db.execute("SELECT 1")  # the statement that meets the dropped session: psycopg marks it broken
        assert db.execute("SELECT COUNT(*) FROM tablemeter").fetchone() == (batches,)
    db.close()


def test_within_a_batch_a_lost_session_is_the_batchs_error_never_a_reconnection(pg_at):
    # cosmic-ray: begin()'s `_in_transaction = True` made False: a statement after the loss, inside the
    # batch, reconnected and ran on its own in autocommit, a batch committed by halves
    uri, drop = pg_at
    db = connect(uri)
    db.begin()
    db.execute("INSERT INTO tablemeter (tbl, link) VALUES (?, ?)", ("t01", "L1"))
    drop(db)
    for tbl in ("t02", "t03"):
        with pytest.raises(psycopg.OperationalError):
            db.execute("INSERT INTO tablemeter (tbl, link) VALUES (?, ?)", (tbl, "L1"))
    db.rollback()
    assert db.execute("SELECT COUNT(*) FROM tablemeter").fetchone() == (0,)
    db.close()


def test_a_closed_postgres_engine_opens_again_for_a_read_as_for_a_batch(pg_at):
    # cosmic-ray: execute()'s `broken or closed` made `and`: a read on an engine close() had closed (closed,
    # not broken) failed where a batch (begin(): psycopg's OperationalError on a closed connection) reopens it
    uri, drop = pg_at
    db = connect(uri)
    db.close()
    assert db.execute("SELECT COUNT(*) FROM tablemeter").fetchone() == (0,)
    db.close()
    db.begin()
    db.execute("INSERT INTO tablemeter (tbl, link) VALUES (?, ?)", ("t01", "L1"))
    db.commit()
    assert db.execute("SELECT COUNT(*) FROM tablemeter").fetchone() == (1,)
    db.close()


def test_a_rollback_after_the_connection_is_closed_or_lost_has_nothing_to_undo(pg_at):
    # cosmic-ray: rollback()'s `not (broken or closed)` made `and`: a connection closed by close() (closed,
    # not broken) was sent a ROLLBACK, an OperationalError out of a batch's cleanup
    uri, drop = pg_at
    db = connect(uri)
    db.begin()
    drop(db)
    with pytest.raises(psycopg.OperationalError):
        db.execute("INSERT INTO tablemeter (tbl, link) VALUES (?, ?)", ("t01", "L1"))
    db.rollback()  # broken: nothing to send
    db = connect(uri)
    db.begin()
    db.close()
    db.rollback()  # closed: nothing to send either
    assert connect(uri).execute("SELECT COUNT(*) FROM tablemeter").fetchone() == (0,)


def test_a_ledger_whose_hosts_all_refuse_is_one_line_of_psycopgs_first_300_characters():
    # cosmic-ray: the message's [:300] made [:299] or [:301]; a multi-host URI's error lists every host's
    # failure, over 800 characters on several lines
    uri = "postgresql://ledger:secret@127.0.0.1:1,127.0.0.1:2,127.0.0.1:3/ledger"
    try:
        psycopg.connect(uri, autocommit=True, connect_timeout=5)
    except psycopg.Error as e:
        raw = " ".join(str(e).split())
    assert len(raw) > 301, raw
    with pytest.raises(ConnectError) as err:
        connect(uri)
    want = "ledger postgresql://ledger:***@127.0.0.1:1,127.0.0.1:2,127.0.0.1:3/ledger: " + raw[:300]
    assert str(err.value) == want and "\n" not in str(err.value)
