"""The Pico's factory step: the flash partitioned into a smaller filesystem and the log's raw region, the table's
records carried over (make deploy BOARD=pico PORT=... PARTITION=1; docs/technicians.md, "Partitioning a Pico").

Only a board running the project's Pico build can keep a partition (its frozen _boot.py, boards/pico/flashparts.py);
a stock build mounts the whole storage area and formats it when that fails, so it is refused. Steps: the
controller stopped (the file `deploying`, a reset); every file saved on the host (SAVE, checked by SHA-256);
the filesystem made again over the partition (the one destructive act: flashparts.repartition); the file-fallback
log /tablelog.bin written into the raw region block by block in its ring order, every other block erased, and
the region's log checked to boot the same records and journal as the file did; the other files copied back;
`deploying` removed; a reset. A cut anywhere after the save leaves a board that starts no controller (no main.py,
or `deploying`): run the step again and it resumes from SAVE.
"""
import binascii
import hashlib
import json
import pathlib
import struct

HERE = pathlib.Path(__file__).resolve().parent


def _board_module(path):
    """boards/pico/flashparts.py, the board's own layout, canon() and summary(), by its path: boards/pico on
    sys.path would put the Pico's board.py before the sim board's."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("flashparts", str(path))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


flashparts = _board_module(HERE.parents[1] / "boards" / "pico" / "flashparts.py")

from boardops.deploy import DEPLOYING, DeployError, last_line, run_mpremote, wait_for_board  # noqa: E402

LOGFILE = "tablelog.bin"  # tablectl.hw.wiring.table_flash's file fallback
BLOCK = 4096
STATE = "partition.json"  # in SAVE: the saved files' SHA-256 and the step's progress
PROBE = ("import sys, os, vfs\nfp = sys.modules.get('flashparts')\nprint('layout', fp.layout if fp else None)\n"
         "print('storage', fp.storage_bytes() if fp else 0)\n"
         "import machine, binascii\nprint('uid', binascii.hexlify(machine.unique_id()).decode())\n")
# every file under / but other mounts (/rom), with its SHA-256: 'file path size sha'
WALK = ("import os, hashlib, binascii, vfs\nskip = [p for f, p in vfs.mount() if p != '/']\n"
        "def walk(d):\n for e in os.ilistdir(d):\n  p = d + e[0]\n  if p in skip:\n   continue\n"
        "  if e[1] & 0x4000:\n   walk(p + '/')\n  else:\n   h = hashlib.sha256()\n   with open(p, 'rb') as f:\n"
        "    while True:\n     b = f.read(1024)\n     if not b:\n      break\n     h.update(b)\n"
        "   print('file', p[1:], os.stat(p)[6], binascii.hexlify(h.digest()).decode())\nwalk('/')\n")


def call(port, args, timeout, what):
    proc = run_mpremote(port, args, timeout)
    if proc.returncode != 0:
        raise DeployError("%s on %s failed: %s" % (what, port, last_line(proc)))
    return proc.stdout


def probe(port, timeout):
    out = call(port, ["resume", "exec", PROBE], timeout, "asking for the flash layout")
    lines = dict(line.split(" ", 1) for line in out.splitlines() if " " in line)
    layout = lines.get("layout")
    return None if layout == "None" else layout, int(lines.get("storage", "0")), lines.get("uid", "board")


def board_files(port, timeout):
    out = call(port, ["resume", "exec", WALK], timeout * 4, "listing the files")
    return {f[1]: (int(f[2]), f[3]) for f in (line.split() for line in out.splitlines()) if f[:1] == ["file"]}


def ring_blocks(image, region_blocks):
    """{region block: 4 KB} for the file log's image: its blocks in the ring's order, the newest (the block
    header with the highest sequence number: TLOG, version 1, bseq, CRC-32, docs/storage.md) where a region
    of region_blocks would hold it, so tablectl.storage finds every block where its sequence number says."""
    from tablectl.crc import crc32
    n = len(image) // BLOCK
    head, top = 0, 0
    for b in range(n):
        h = image[b * BLOCK:b * BLOCK + 16]
        bseq, crc = struct.unpack_from("<II", h, 8)
        if h[:4] == b"TLOG" and h[4] == 1 and crc32(h[:12]) == crc and bseq > top:
            head, top = b, bseq
    if not top:
        return {}  # a log never written: the region stays erased
    return {(top - 1 - (head - b) % n) % region_blocks: image[b * BLOCK:(b + 1) * BLOCK] for b in range(n)}


def expected(image):
    """flashparts.summary of the file log as the host reads it (the firmware's Log on CPython)."""
    from tablectl.hw.fileflash import FileFlash
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        path = pathlib.Path(d) / LOGFILE
        path.write_bytes(image)
        dev = FileFlash(str(path), blocks=len(image) // BLOCK, prog=flashparts.PROG)
        try:
            return flashparts.summary(dev)
        finally:
            dev.close()


def partition(port, saves, timeout=15, confirm=input):
    """Partition the board on `port`, its files saved in saves/<its unique id>; returns what was done, a line."""
    layout, storage, uid = probe(port, timeout)
    save = pathlib.Path(saves) / uid
    state = json.loads((save / STATE).read_text()) if (save / STATE).exists() else None
    if layout is None:
        raise DeployError("the MicroPython on %s is a stock build: its _boot.py mounts the whole flash and formats "
                          "it when that fails, so it cannot keep a partition; flash the project's Pico build "
                          "(boards/pico/manifest.py, docs/technicians.md) first" % port)
    if layout != "whole" and not (state and state["stage"] == "saved"):
        return "the flash on %s is partitioned already (filesystem and log region): nothing to do" % port
    if layout == "whole":
        if storage - flashparts.LOG_BYTES < flashparts.MIN_FS_BYTES:
            raise DeployError("the storage area on %s (%d bytes) is too small for a %d-byte log region"
                              % (port, storage, flashparts.LOG_BYTES))
        answer = confirm("partition the flash of the board on %s (its files kept, the table's log moved into "
                         "the log region)? type yes: " % port)
        if answer.strip() != "yes":
            raise DeployError("not confirmed: nothing changed")
        state = save_files(port, save, storage, timeout)
        call(port, ["resume", "exec", "import flashparts\nflashparts.repartition(%r)" % DEPLOYING], timeout,
             "making the filesystem over the partition")
    restore(port, save, state, timeout)
    state["stage"] = "done"
    (save / STATE).write_text(json.dumps(state))
    run_mpremote(port, ["reset"], timeout)
    kept = len([f for f in state["files"] if f != LOGFILE])
    return "the flash on %s is partitioned: %d file%s kept, the log moved into the log region (saved in %s)" % (
        port, kept, "" if kept == 1 else "s", save)


def save_files(port, save, storage, timeout):
    """Stop the controller, copy every file to `save` and check each copy; refuse what the new filesystem cannot
    hold (the board then as it was). Nothing on the board changes but the file `deploying`."""
    call(port, ["resume", "fs", "touch", ":" + DEPLOYING, "+", "reset"], timeout, "stopping the controller")
    wait_for_board(port, timeout)
    files = board_files(port, timeout)
    files.pop(DEPLOYING, None)
    keep = {f: v for f, v in files.items() if f != LOGFILE}
    need = sum((size + BLOCK - 1) // BLOCK + 1 for size, _ in keep.values()) + 8  # a block of metadata each, the root's
    room = (storage - flashparts.LOG_BYTES) // BLOCK
    if need > room:  # refused before anything is lost: the controller started again
        call(port, ["resume", "fs", "rm", ":" + DEPLOYING, "+", "reset"], timeout, "starting the controller again")
        raise DeployError("the files on %s need about %d blocks, the partitioned filesystem has %d: remove some "
                          "(the table's log goes into the region)" % (port, need, room))
    save.mkdir(parents=True, exist_ok=True)
    args = ["resume"]
    for f in sorted(files):
        (save / "files" / f).parent.mkdir(parents=True, exist_ok=True)
        args += ["fs", "cp", ":" + f, str(save / "files" / f), "+"]
    call(port, args[:-1], timeout + sum(s for s, _ in files.values()) // 2000, "saving the files")
    for f, (size, sha) in files.items():
        if hashlib.sha256((save / "files" / f).read_bytes()).hexdigest() != sha:
            raise DeployError("the copy of %s from %s differs from the board's: nothing changed, run it again" % (f, port))
    state = {"stage": "saved", "files": {f: v[1] for f, v in files.items()}}
    (save / STATE).write_text(json.dumps(state))
    return state


def restore(port, save, state, timeout):
    """The log into the region (checked against the saved file), then the other files back; idempotent, so a
    cut step runs again from the top."""
    region = flashparts.LOG_BYTES // BLOCK
    log = save / "files" / LOGFILE
    image = log.read_bytes() if log.exists() else b""
    blocks = ring_blocks(image, region)
    calls = ["resume", "exec", "import flashparts\nflashparts.erase(%r)" % [b for b in range(region) if b not in blocks]]
    for b in sorted(blocks):
        used = blocks[b].rstrip(b"\xff")  # the erased rest is not sent
        used = blocks[b][:(len(used) + flashparts.PROG - 1) // flashparts.PROG * flashparts.PROG]
        calls += ["+", "exec", "import flashparts, binascii\nflashparts.put(%d, binascii.a2b_base64(%r))"
                  % (b, binascii.b2a_base64(used, newline=False).decode())]
    # a 4 KB erase takes a W25Q16JV 45 ms, 400 ms at most: the region's 256 within their worst
    call(port, calls, timeout * 2 + len(blocks) * 2 + region * 2 // 5, "writing the log region")
    want = expected(image or b"\xff" * (64 * BLOCK))  # no file: the region reads as a new log
    code = ("import flashparts\nfrom tablectl.hw.wiring import Region\n"
            "print('summary', flashparts.summary(Region(flashparts.log_device(), flashparts.PROG)))")
    got = [line[8:] for line in call(port, ["resume", "exec", code], timeout * 2, "checking the log region")
           .splitlines() if line.startswith("summary ")]
    # compared as values: CPython's json escapes a non-ASCII text that MicroPython's writes as it is
    if len(got) != 1 or json.loads(got[0]) != json.loads(want):
        raise DeployError("the log region on %s does not read back as %s did: the board starts nothing; run the "
                          "step again (the files are in %s)" % (port, LOGFILE, save))
    dirs = sorted({str(p) for f in state["files"] for p in pathlib.PurePosixPath(f).parents} - {"."}, key=len)
    args = ["resume", "exec", "import os\nfor d in %r:\n try:\n  os.mkdir(d)\n except OSError:\n  pass" % dirs, "+"]
    for f in sorted(state["files"]):
        if f not in (LOGFILE, DEPLOYING):
            args += ["fs", "cp", str(save / "files" / f), ":" + f, "+"]
    args += ["fs", "rm", ":" + DEPLOYING]
    call(port, args, timeout + sum((save / "files" / f).stat().st_size for f in state["files"]) // 2000,
         "copying the files back")
