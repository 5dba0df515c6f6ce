"""Fixtures for the link tests (jackpot.rig holds the rig): links and firmware tables that are always stopped."""
import pytest

from jackpot.rig import FirmwareTable, Link


@pytest.fixture
def make_link(tmp_path):
    made = []

    def make(tables=("t01", "t02"), tls=False, game=None, start=True, servers=None, cluster=False):
        link = Link(tmp_path / ("link%d" % len(made)), tables, tls, game, servers, cluster)
        made.append(link)
        return link.start() if start else link

    yield make
    for link in made:
        link.stop()


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
