"""Fixtures for the link tests (jackpot.rig holds the rig): links and firmware tables that are always stopped;
ledgers on both engines."""
import pytest

from jackpot import postgres
from jackpot.rig import FirmwareTable, Link


@pytest.fixture
def make_link(tmp_path):
    made = []

    def make(tables=("t01", "t02"), tls=False, game=None, start=True, servers=None, db=None, cluster=False):
        link = Link(tmp_path / ("link%d" % len(made)), tables, tls, game, servers, db, cluster)
        made.append(link)
        return link.start() if start else link

    yield make
    for link in made:
        link.stop()


@pytest.fixture(scope="session")
def pg_node():
    """One throwaway PostgreSQL server for the session's ledger tests, with the database `ledger` they take
turns on (new_ledger_at empties it)."""
    if not postgres.installed():
        pytest.skip("PostgreSQL 15 is not installed (%s): `make postgres` installs it, as make test does"
                    % postgres.BIN)
    node = postgres.Node.primary(fsync=False)
    node.create_database("ledger")
    yield node
    node.remove()


@pytest.fixture
def pg_pair():
    """A primary and its synchronous standby, [primary, standby], for a test to kill and promote."""
    if not postgres.installed():
        pytest.skip("PostgreSQL 15 is not installed (%s): `make postgres` installs it" % postgres.BIN)
    nodes = [postgres.Node.primary(fsync=False)]  # kill -9 is the fault here, not the machine's power
    try:
        nodes.append(nodes[0].standby())
        yield nodes
    finally:
        for n in nodes:
            n.remove()


@pytest.fixture(params=["sqlite", "postgresql"])
def new_ledger_at(request, tmp_path_factory):
    """A function that gives a new, empty ledger's place each call: a SQLite file, or the session's
    PostgreSQL database emptied (its tables dropped: a CREATE DATABASE a test, or a hypothesis example,
    costs seconds on a loaded machine, and their removal more)."""
    if request.param == "sqlite":
        return lambda: tmp_path_factory.mktemp("ledger") / "ledger.db"
    node = request.getfixturevalue("pg_node")

    def new():
        node.sql("DROP TABLE IF EXISTS link, message, tablemeter", "ledger")
        return node.uri("ledger")
    return new


@pytest.fixture
def ledger_at(new_ledger_at):
    """The test's ledger (a path or a URI): a Ledger made on it twice is the same ledger, as a restart."""
    return new_ledger_at()


@pytest.fixture
def fw_table(firmware_build, tmp_path):
    made = []

    def make(link, tid="fw1", **kw):
        t = FirmwareTable(firmware_build, tmp_path / tid, link, tid, **kw).configure().start()
        made.append(t)
        return t

    yield make
    for t in made:
        t.stop()
