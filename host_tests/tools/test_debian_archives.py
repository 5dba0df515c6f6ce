"""Where tools/building/romfs_port fetches MicroPython's Debian source tarball: from the archives this machine's apt
already uses (the project names no host of its own), the live ones before those named only in comments
(a dated snapshot an image was installed from), TABLECTL_DEBIAN_ARCHIVE before all."""
import pytest

from building.romfs_port import build as romfs_build


@pytest.fixture
def apt(tmp_path, monkeypatch):
    monkeypatch.delenv("TABLECTL_DEBIAN_ARCHIVE", raising=False)
    (tmp_path / "sources.list.d").mkdir()
    (tmp_path / "sources.list").write_text("# deb http://old.example/debian bookworm main\n"
                                           "deb [arch=amd64] http://mirror.example/debian/ bookworm main\n")
    (tmp_path / "sources.list.d" / "debian.sources").write_text(
        "Types: deb\n# http://snap.example/archive/debian/20250520T000000Z\n"
        "URIs: http://mirror.example/debian\nSuites: bookworm\n\n"
        "Types: deb\nURIs: http://mirror.example/debian-security\nSuites: bookworm-security\n")
    (tmp_path / "sources.list.d" / "vendor.list").write_text("deb https://vendor.example/apt stable main\n")
    return tmp_path


def test_the_archives_are_apts_own_the_live_ones_first_each_once(apt):
    assert romfs_build.debian_archives(apt) == [
        "http://mirror.example/debian", "http://old.example/debian",
        "http://snap.example/archive/debian/20250520T000000Z"]


def test_an_archive_given_in_the_environment_comes_first(apt, monkeypatch):
    monkeypatch.setenv("TABLECTL_DEBIAN_ARCHIVE", "https://local.example/debian/")
    assert romfs_build.debian_archives(apt)[:2] == ["https://local.example/debian", "http://mirror.example/debian"]


def test_a_machine_without_apt_sources_names_none(tmp_path, monkeypatch):
    monkeypatch.delenv("TABLECTL_DEBIAN_ARCHIVE", raising=False)
    assert romfs_build.debian_archives(tmp_path) == []
