"""tools/building/romfs_port's install when two processes find the 32-bit port stale at once (two pytest
workers, each test module's rom32 fixture): one builds, the other waits for it and takes its binary; a
process running the old binary keeps it while the new one is put in its place. The compile is a stand-in
here (the real one is make rom32's minute)."""
import shutil
import subprocess
import threading

import pytest

from building.romfs_port import build as romfs_build


@pytest.fixture
def stale(tmp_path, monkeypatch):
    """A bin folder whose binary's stamp is not the variant's; what the stand-in compile was asked."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / romfs_build.PROG).write_bytes(b"old")
    (bin_dir / (romfs_build.PROG + ".stamp")).write_text("an older variant")
    said = []
    monkeypatch.setattr(romfs_build, "_say", said.append)
    return bin_dir, said


def built_in(work, data):
    out = work / "micropython"
    out.write_bytes(data)
    return out


def test_a_second_build_waits_for_the_first_and_takes_its_binary(stale, monkeypatch):
    bin_dir, said = stale
    compiles = []
    second_started = threading.Event()  # the second build waits on the lock, or (no lock) compiles too
    results = {}
    monkeypatch.setattr(romfs_build, "_say", lambda msg: (said.append(msg), "waiting" in msg and second_started.set()))

    def second():
        results["second"] = romfs_build.build(bin_dir)

    thread = threading.Thread(target=second)

    def compile_(work):
        compiles.append(work)
        if len(compiles) > 1:
            second_started.set()
            return built_in(work, b"second")
        thread.start()
        assert second_started.wait(60), "the second build neither waited nor compiled"
        return built_in(work, b"first")

    monkeypatch.setattr(romfs_build, "_compile", compile_)
    first = romfs_build.build(bin_dir)
    thread.join(60)
    assert len(compiles) == 1, "two builds at once: %s" % said
    assert results["second"] == first == bin_dir / romfs_build.PROG
    assert first.read_bytes() == b"first"
    assert (bin_dir / (romfs_build.PROG + ".stamp")).read_text() == romfs_build._stamp()
    assert "waiting for the build another process is making" in said
    assert sorted(p.name for p in bin_dir.iterdir()) == [romfs_build.PROG + s for s in ("", ".lock", ".stamp")]


def test_a_running_binary_is_replaced_not_written_into(stale, monkeypatch):
    bin_dir, _ = stale
    target = bin_dir / romfs_build.PROG
    shutil.copyfile(shutil.which("cat"), target)  # the old port, running (reading its stdin until closed)
    target.chmod(0o755)
    running = subprocess.Popen([str(target)], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        monkeypatch.setattr(romfs_build, "_compile", lambda work: built_in(work, b"new port"))
        assert romfs_build.build(bin_dir).read_bytes() == b"new port"
        out, _ = running.communicate(b"the old binary still runs\n")
        assert (running.returncode, out) == (0, b"the old binary still runs\n")
    finally:
        if running.poll() is None:
            running.kill()
            running.wait()
    monkeypatch.setattr(romfs_build, "_compile", lambda work: pytest.fail("built again"))
    assert romfs_build.build(bin_dir).read_bytes() == b"new port"  # current now


def test_two_qemu_image_builds_at_once_are_one(tmp_path, monkeypatch):
    """The qemu board's image (tools/building/qemu_image.py) is made in the one source tree (mpy-cross
    inside it): under the same lock, the second finds the first's image."""
    from building import qemu_image
    monkeypatch.setattr(qemu_image, "CACHE", tmp_path / "cache")
    said, builds, results = [], [], {}
    second_started = threading.Event()
    monkeypatch.setattr(qemu_image, "_say", lambda msg: (said.append(msg), "waiting" in msg and second_started.set()))
    thread = threading.Thread(target=lambda: results.setdefault("second", qemu_image.build(out=tmp_path / "img")))

    def build_(bare, quiet, cpu, out, elf, stamp_file, want):
        builds.append(out)
        if len(builds) == 1:
            thread.start()
            assert second_started.wait(60), "the second build neither waited nor built"
        else:
            second_started.set()
        out.mkdir(parents=True, exist_ok=True)
        elf.write_bytes(b"image %d" % len(builds))
        stamp_file.write_text(want)
        return elf

    monkeypatch.setattr(qemu_image, "_build", build_)
    first = qemu_image.build(out=tmp_path / "img")
    thread.join(60)
    assert len(builds) == 1, "two builds at once: %s" % said
    assert results["second"] == first and first.read_bytes() == b"image 1"
