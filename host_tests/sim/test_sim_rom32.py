"""The simulator's board on the 32-bit ROMFS port (make rom32), as a board with ROMFS boots: the code in the
partition, main.py and the manifest on its filesystem, in the 256 KB heap of `make sim`. A linked table's
reports through the real REPL path (mpremote on the board's pty): on the 64-bit port at 256K,
service.journal(35) failed with MemoryError five times in six (issue 22, item 7)."""
import hashlib
import hmac
import json
import re
import time

import pytest

from boardops import release
from boardops import verify as fieldcheck
from jackpot.rig import LINK, Link
from sim import board_process
from sim.board_process import BoardError, BoardProcess

pytestmark = pytest.mark.rom32


@pytest.fixture
def rom32():
    from harness import mpy
    return mpy.rom32()  # built as make rom32 builds it


def heard(link, tid, timeout=60):
    """Until the server has heard table `tid` on the link."""
    deadline = time.monotonic() + timeout
    while not link.status()["links"].get(LINK, {}).get("tables", {}).get(tid, {}).get("last_at"):
        assert time.monotonic() < deadline, "%s not heard on the link" % tid
        time.sleep(0.2)


REPORTS = ("status()", "journal(35)", "meters()", "history()", "config()")


def test_a_linked_table_answers_every_report_six_times_in_the_256K_heap_of_make_sim(
        rom32, start_sim, tmp_path, mpremote, service_call, dealer):
    link = Link(tmp_path / "link", ["t07"]).start()
    try:
        sim = start_sim("caribbean_stud")
        assert (sim.board.port, sim.board.heap, sim.notes) == ("rom32", "256K", [])  # make sim's own board
        dealer.key(sim, True)
        url = "mqtt://t07:%s@%s/%s" % (link.password("t07"), link.broker.addresses(0), LINK)
        out = service_call(sim, "configure(link=%r)" % url)
        code = re.search(r"confirm='(\d{6})'", out)  # a new table's seed is set aside, with a confirmation
        assert code, out
        out = service_call(sim, "configure(link=%r, confirm=%r)" % (url, code.group(1)))
        assert "(now)" in out and "REFUSED" not in out, out
        dealer.key(sim, False)
        heard(link, "t07")
        for s in range(1, 8):
            sim.link.send("seat %d 1" % s)
        for _ in range(15):  # rounds on the link (two journal lines each): more than 35 lines
            dealer.wait_state(sim, "betting", 30)
            dealer.press(sim, "LOCK")
            dealer.wait_state(sim, "locked", 30)
            dealer.press(sim, "CONFIRM")
        dealer.wait_state(sim, "betting", 30)
        for _ in range(6):
            for expr in REPORTS:
                out = service_call(sim, expr)
                assert "MemoryError" not in out and "Traceback" not in out, (expr, out[-600:])
            assert "journal (last 35 of" in service_call(sim, "journal(35)")
    finally:
        link.stop()


def test_the_board_boots_from_its_partition_as_a_romfs_board_does(rom32, start_sim, firmware_build, mpremote,
                                                                    service_call, tmp_path):
    sim = start_sim("fantan")
    names = sorted(p.name for p in sim.state_dir.iterdir())
    assert "tablectl" not in names and {"main.py", "fwmanifest.json"} <= set(names), names
    manifest = json.loads((sim.state_dir / "fwmanifest.json").read_text())
    assert manifest["romfs"] == "/rom"
    assert manifest["files"] == json.loads((firmware_build / "fwmanifest.json").read_text())["files"]
    code, out = mpremote(sim.pty, "resume", "exec", "import board, sys, service\nprint(board.__file__, sys.path[0])\n"
                         "print(service.selftest())")
    assert code == 0 and "/rom/board.mpy %s\n" % sim.state_dir.resolve() in out, out  # main.py's folder first
    assert "(board sim, ROMFS at /rom): all OK" in out, out
    # the field check on this port (its SHA-1 the qemu board's sha1.c, Debian's source having none): the
    # table's HMACs are those CPython's hmac computes over the medium it runs, the code in the partition as
    # built, main.py and its own manifest on the filesystem
    seed = "1f2e3d4c5b6a7988"
    table = fieldcheck.answer(service_call(sim, "verify(%r)" % seed))
    medium = [(name, (firmware_build / name).read_bytes()) for name in sorted(manifest["files"])]
    medium.append(("fwmanifest.json", (sim.state_dir / "fwmanifest.json").read_bytes()))
    for digest in ("sha1", "sha256"):
        mac = hmac.new(bytes.fromhex(seed), digestmod=digest)
        for piece in release.framed(medium):
            mac.update(piece)
        assert table["hmac_" + digest] == mac.hexdigest(), (digest, table)
    assert table["parts"] == {name: (str(len(data)), hashlib.sha256(data).hexdigest()) for name, data in medium}
    assert "verify %s sha256 %s" % (seed[:8], table["hmac_sha256"][:16]) in service_call(sim, "journal(5)")
    # against the release (made for a board without ROMFS) only the manifest differs: this one says /rom
    ok, lines = fieldcheck.verify(sim.pty, seed, release.release("sim", tmp_path / "rel"))
    assert not ok and [line.split(":")[0] for line in lines[3:]] == ["fwmanifest.json"], lines


def test_each_start_flashes_the_build_again(rom32, start_sim, tmp_path, mpremote):
    """The partition holds the build the simulator starts (a damaged image is replaced, as a board is
    flashed); a copy of the code on its filesystem (a deploy without ROMFS) goes, since it would be
    imported before /rom's; the board's records and other files stay."""
    sim = start_sim("fantan", state_dir=tmp_path / "b")
    sim.stop()
    part = sim.board.partition
    size = part.stat().st_size
    assert size >= board_process.PARTITION and size % 4096 == 0
    part.write_bytes(b"\x00" * size)
    (sim.state_dir / "main.py").write_text("raise SystemExit('not the build')\n")
    (sim.state_dir / "tablectl" / "games").mkdir(parents=True)
    (sim.state_dir / "tablectl" / "games" / "base.mpy").write_bytes(b"M\x06 an old deploy")
    (sim.state_dir / "board.mpy").write_bytes(b"M\x06 an old deploy")
    (sim.state_dir / "notes.txt").write_text("the technician's")
    records = sorted((sim.state_dir / "simstate").iterdir())
    sim = start_sim("fantan", state_dir=tmp_path / "b")
    assert sim.game == "fantan" and part.read_bytes()[:2] == b"\xd2\xcd"  # ROMFS's magic
    assert sorted(p.name for p in sim.state_dir.iterdir()) == [
        "fwmanifest.json", "main.py", "notes.txt", "sim.lock", "sim.log", "simstate"]
    assert sorted((sim.state_dir / "simstate").iterdir()) == records
    code, out = mpremote(sim.pty, "resume", "exec", "import board\nfrom tablectl.games import base\n"
                         "print(board.__file__, base.__file__)")
    assert code == 0 and "/rom/board.mpy /rom/tablectl/games/base.mpy" in out, out


def test_no_port_by_that_name_and_a_missing_rom32_are_one_line_errors(tmp_path, monkeypatch):
    with pytest.raises(BoardError, match=r"^no port 'rom64' \(ports: rom32, fs64\)$"):
        BoardProcess(tmp_path, port="rom64")
    monkeypatch.setattr(board_process, "rom32", lambda: None)
    with pytest.raises(BoardError, match="micropython-rom32 is not built: make rom32"):
        BoardProcess(tmp_path, port="rom32")
    board = BoardProcess(tmp_path)  # the default falls back, and says so
    assert board.port == "fs64" and board.heap == (board_process.HEAP or "320K")
    assert board.note.startswith("micropython-rom32 is not built (make rom32): the firmware runs on the 64-bit")
    assert not list(tmp_path.iterdir())  # nothing written before the board starts
