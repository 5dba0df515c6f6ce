"""The lab's field check through the real mpremote: `make verify` (tools/boardops/verify.py) against a release (tools/boardops/release.py)
on the simulator and the qemu board, MATCH for the certified program and MISMATCH naming the part for a tampered
file or a tampered byte of the image as it runs; two builds of one tree give the same release."""
import shutil
import subprocess
import sys

import pytest

from building import build_mpy
from boardops import release
from boardops import verify as fieldcheck
from sim.board_process import HEAP
from sim.simulator import Simulator

ROOT = build_mpy.ROOT
SEED = "a5c3e1f00d15ea5e"


def make_verify(port, seed, rel):
    """`make verify PORT=... SEED=... RELEASE=...` as a lab types it: (make's exit status, output)."""
    proc = subprocess.run(["make", "-s", "verify", "PORT=%s" % port, "SEED=%s" % seed, "RELEASE=%s" % rel,
                           "PYTHON=" + sys.executable], cwd=str(ROOT), capture_output=True, text=True, timeout=300)
    return proc.returncode, proc.stdout + proc.stderr


@pytest.fixture
def own_build(tmp_path):
    """A private copy of the sim firmware, which a test may tamper with under its running simulator."""
    out = tmp_path / "simbuild"
    build_mpy.build("sim", out)
    return out


def test_a_sim_table_matches_its_release_and_a_tampered_file_does_not(own_build, mpremote, tmp_path):
    rel = release.release("sim", tmp_path / "rel")
    sim = Simulator("fantan", port=0, build=own_build, heap=HEAP, state_dir=tmp_path / "fantan",
                    mp_port="fs64")  # its manifest the release's (the 32-bit port's names /rom)
    try:
        sim.start()
        code, out = make_verify(sim.pty, SEED, rel)
        assert code == 0 and out.startswith("MATCH: ") and "firmware 0.1.0, board sim" in out, out
        # the table's answer is the release's HMAC with this seed, as an independent hmac computes it
        want = fieldcheck.expected(rel, bytes.fromhex(SEED))
        assert "HMAC-SHA256 table %s release %s" % (want[1], want[1]) in out, out
        # a byte of one file where the table runs from, as a person with the cable might change it
        target = own_build / "tablectl" / "rules" / "hands.mpy"
        data = bytearray(target.read_bytes())
        data[len(data) // 2] ^= 0x01
        target.write_bytes(data)
        code, out = make_verify(sim.pty, SEED, rel)
        assert code != 0 and out.startswith("MISMATCH: "), out  # make fails with it (tools/boardops/verify.py exits 1)
        assert fieldcheck.main(["--port", sim.pty, "--seed", SEED, "--release", str(rel)]) == 1
        assert out.count("differs") == 1 and "tablectl/rules/hands.mpy: differs" in out, out
        # a file gone is named too
        (own_build / "tablectl" / "rules" / "pool.mpy").unlink()
        ok, lines = fieldcheck.verify(sim.pty, SEED, rel)
        assert not ok and "tablectl/rules/pool.mpy: missing on the table" in lines, lines
        # the key was never turned: a lab verifies a table as it stands
        code, out = mpremote(sim.pty, "resume", "exec", "import service; print(service.status())")
        assert "service key off" in out, out
    finally:
        sim.stop()


def test_the_check_refuses_in_one_line_what_it_cannot_compare(start_sim, tmp_path):
    sim = start_sim("fantan", mp_port="fs64")  # as above (test_sim_rom32: verify on the 32-bit port)
    assert fieldcheck.main(["--port", sim.pty, "--seed", "xyz"]) == 2
    code, out = make_verify(sim.pty, "xyz", tmp_path / "nowhere")
    assert code != 0 and out.startswith("verify: SEED must be hex digits") and out.count("verify:") == 1, out
    code, out = make_verify(sim.pty, SEED, tmp_path / "nowhere")
    assert code != 0 and "verify: no release " in out and "make release BOARD=sim" in out, out
    code, out = make_verify(sim.pty, "abc", tmp_path / "nowhere")  # odd: refused on the host before the table
    assert code != 0 and "SEED must be hex digits" in out, out


def test_two_builds_of_one_tree_give_the_same_release(tmp_path):
    first = release.release("sim", tmp_path / "a")
    second = release.release("sim", tmp_path / "b")
    assert (first / "SHA256SUMS").read_text() == (second / "SHA256SUMS").read_text()
    assert (first / "RELEASE.md").read_text() == (second / "RELEASE.md").read_text()
    sums = (first / "SHA256SUMS").read_text()
    assert "files/fwmanifest.json" in sums and "files/tablectl/service/medium.mpy" in sums, sums
    # the sheet's whole is the medium's SHA-256 in verify()'s framing
    import hashlib
    whole = hashlib.sha256(b"".join(release.framed(release.medium_parts(first)))).hexdigest()
    assert whole in (first / "RELEASE.md").read_text()
    # and a change to the tree is a new release
    assert release.release("pico", tmp_path / "p").joinpath("SHA256SUMS").read_text() != sums


@pytest.mark.qemu
def test_a_qemu_table_matches_its_release_and_a_tampered_image_byte_does_not(mpremote, tmp_path):
    import functools
    run_mpremote = functools.partial(mpremote, timeout=60)  # the emulated Cortex-M3 answers more slowly
    from sim.mcu import McuProcess
    rel = release.release("qemu", tmp_path / "rel")
    sums = (rel / "SHA256SUMS").read_text()
    again = release.release("qemu", tmp_path / "rel2")  # the same image and files: the same digests
    assert (again / "SHA256SUMS").read_text() == sums and "image.bin" in sums
    sim = Simulator("fantan", port=0, board=McuProcess, state_dir=tmp_path / "qemu-fantan")
    try:
        sim.start(timeout=60)
        ok, lines = fieldcheck.verify(sim.pty, SEED, rel)
        assert ok and lines[0].startswith("MATCH: ") and "board qemu" in lines[0], lines
        # one byte of the image in the machine's memory, inside a message the table never shows
        image = (rel / "image.bin").read_bytes()
        at = image.index(b": whole pages") + 2  # flash.c's refusal of a partial page program
        code, out = run_mpremote(sim.pty, "resume", "exec",
                                 "import uctypes\nm = uctypes.bytearray_at(%d, 1)\nm[0] ^= 0x20\nprint(m[0])" % at)
        assert code == 0 and int(out.split()[-1]) == image[at] ^ 0x20, out
        ok, lines = fieldcheck.verify(sim.pty, SEED, rel)
        assert not ok and lines[0].startswith("MISMATCH: "), lines
        assert [line.split(":")[0] for line in lines[3:]] == ["image"], lines
        # and the boot check's rule (selftest) against the release's digest of the image says so too
        code, out = run_mpremote(sim.pty, "resume", "exec", "import service; print(service.selftest())")
        assert code == 0 and "FAILED" in out and "image SHA-256 mismatch" in out, out
        run_mpremote(sim.pty, "resume", "exec", "import uctypes\nuctypes.bytearray_at(%d, 1)[0] ^= 0x20" % at)
        assert fieldcheck.verify(sim.pty, SEED, rel)[0]  # put back: MATCH again
        # a file of the board's filesystem changed
        changed = tmp_path / "main.py"
        changed.write_text((ROOT / "firmware" / "main.py").read_text() + "# changed\n")
        code, out = run_mpremote(sim.pty, "resume", "fs", "cp", str(changed), ":main.py")
        assert code == 0, out
        ok, lines = fieldcheck.verify(sim.pty, SEED, rel)
        assert not ok and [line.split(":")[0] for line in lines[3:]] == ["main.py"], lines
    finally:
        sim.stop()


@pytest.mark.qemu
def test_two_builds_of_the_qemu_image_in_two_folders_are_identical(tmp_path):
    from building import qemu_image as fwbuild
    first = fwbuild.build(quiet=True)
    second = fwbuild.build(quiet=True, out=tmp_path / "again")  # from nothing: another folder, no objects
    # what the machine runs and verify() hashes is the same; the ELF's debug sections name the build folder
    assert fwbuild.image_region(second) == fwbuild.image_region(first)
