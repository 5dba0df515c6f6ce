"""Run the qemu board: the firmware image (build.py) on qemu-system-arm's mps2-an385, its flash in a host file,
its REPL on a pty. `make mcu GAME=sicbo` runs it; tools/sim runs it for `make sim BOARD=qemu`.

    python tools/sim/mcu.py --game sicbo [--state build/mcu/sicbo] [--heap 64K]

    with McuProcess(state_dir) as mcu:    # the same interface as tools/sim's BoardProcess
        mcu.first_boot("fantan")         # a new flash: LittleFS, main.py and the game's configuration
        mcu.start(); mcu.wait_ready()
        mcu.pty                          # '/dev/pts/N': `mpremote connect <pty> resume exec ...`
        mcu.kill()                       # the power cut: SIGKILL; start() again resumes the table

The flash is the machine's 16 MB PSRAM, which qemu maps from <state>/flash.bin (memory-backend-file,
share=on): what the firmware writes is in the host file at once, so even a SIGKILL loses nothing the
firmware had written, and the next start resumes from it. A new flash file is erased (0xff) and gets, on
the MicroPython unix port through hostflash.py, what a factory would put on the board: LittleFS with
main.py and the firmware manifest (tools/building/build_mpy.py's files for BOARD=qemu), and the first
configuration (tools/sim's first boot) in the table's log on the records region, which the firmware's
App then opens as board.flash.
UART0 is qemu's `-serial pty`: qemu drops what the board writes while no one has the pty open, so an
unread terminal never stops the firmware. UART1 is the simulator's host link (`-serial tcp:HOST:PORT`,
qemu connecting to tools/sim's link server), or nothing. `heap=` on qemu's command line sets the heap
(board.c). icount=True runs the machine on instruction counting (`-icount shift=0,sleep=off`): one
instruction is 1 ns of the machine's time and it never waits for the host's clock, so a run without
input is the same, instruction for instruction, every time (tools/bench/qemu.py).
"""
import argparse
import os
import pathlib
import re
import signal
import subprocess
import sys
import time
import tty

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
from building import build_mpy
from child import Child
from building import qemu_image as fwbuild
from sim.board_process import (BUILD, BoardError, first_boot_code, first_boot_result, link_pty, micropython,
                               unlink_pty)

FLASH_BYTES = 16 * 1024 * 1024  # the mps2-an385's PSRAM
HEAP = os.getenv("TABLECTL_MCU_HEAP") or "64K"
STATE_ROOT = ROOT / "build" / "mcu"
_PTY = re.compile(r"char device redirected to (/dev/pts/\d+) \(label serial0\)")


def flashmap():
    """boards/qemu/flashmap.py's partitions: {name: (offset, length)}."""
    names = {}
    exec((ROOT / "boards" / "qemu" / "flashmap.py").read_text(), names)
    return {k: v for k, v in names.items() if k.isupper()}


def qemu_args(elf, flash, heap, link=None, icount=False, repl="pty"):
    """repl: UART0's qemu character device ("pty"; "stdio" for a run whose output the host reads)."""
    args = ["qemu-system-arm", "-machine", "mps2-an385,memory-backend=flash",
            "-object", "memory-backend-file,id=flash,size=%d,mem-path=%s,share=on" % (FLASH_BYTES, flash),
            "-nographic", "-monitor", "null", "-semihosting",
            "-serial", repl, "-serial", "tcp:%s:%d" % link if link else "null",
            "-kernel", str(elf), "-append", "heap=%s" % heap]
    if icount:
        args += ["-icount", "shift=0,sleep=off"]
    return args


def erased(path):
    """A new flash file: every byte 0xff, as erased NOR flash reads."""
    tmp = pathlib.Path(str(path) + ".new")
    with open(tmp, "wb") as f:
        f.write(b"\xff" * FLASH_BYTES)
    os.replace(tmp, path)


class McuProcess(Child):
    def __init__(self, state_dir, link=None, elf=None, heap=HEAP, pty_link=None, icount=False, build=BUILD):
        """build: the sim board's .mpy files (tools/building/build_mpy.py --board sim), which the unix port runs to
        write the first configuration."""
        self.state_dir = pathlib.Path(state_dir)
        self.build = pathlib.Path(build)
        self.flash = self.state_dir / "flash.bin"
        self.link = link
        self.elf = pathlib.Path(elf) if elf else None
        self.heap = heap
        self.pty_link = pathlib.Path(pty_link) if pty_link else None
        self.icount = icount
        self.proc = None
        self.pty = None
        self.log_path = self.state_dir / "qemu.log"

    # -- the flash ---------------------------------------------------------------------------------
    def _on_flash(self, code, files=()):
        """Run `code` on the unix port with the board's LittleFS mounted at /flash (TABLECTL_ROOT), after
        copying `files` ((source, name) pairs) onto it."""
        fs = flashmap()["FS"]
        pre = "import hostflash, os\nhostflash.mount(%r, %d, %d, '/flash')\n" % (str(self.flash), fs[0], fs[1])
        for src, name in files:
            pre += "with open(%r, 'rb') as s, open('/flash/%s', 'wb') as d:\n    d.write(s.read())\n" % (str(src), name)
        env = dict(os.environ, TABLECTL_ROOT="/flash",
                   MICROPYPATH=":".join([str(HERE), str(self.build), ".frozen"]))
        proc = subprocess.run([micropython(), "-X", "heapsize=256K", "-c", pre + code], env=env,
                              capture_output=True, text=True, timeout=60, cwd=str(self.state_dir))
        return proc

    def first_boot(self, game):
        """A new flash (no file yet): erased, then LittleFS with main.py, the firmware manifest and `game`
        configured. A flash that exists is only read: ('game', its game), or ('tilt', why) if its
        configuration record is damaged. Returns (how, text) as tools/sim's BoardProcess.first_boot."""
        self.state_dir.mkdir(parents=True, exist_ok=True)
        if not (self.build / build_mpy.FWMANIFEST).exists():
            build_mpy.build("sim", self.build)
        files = ()
        if not self.flash.exists():
            out, manifest = build_mpy.build("qemu", self.state_dir / "files")
            erased(self.flash)
            files = [(out / name, name) for name in sorted(manifest)] + [(out / build_mpy.FWMANIFEST, build_mpy.FWMANIFEST)]
        records = flashmap()["RECORDS"]
        proc = self._on_flash(first_boot_code(game, "hostflash.region(%r, %d, %d)" % ((str(self.flash),) + records)),
                              files)
        return first_boot_result(proc)

    # -- the machine -------------------------------------------------------------------------------
    def start(self, timeout=20):
        self.elf = self.elf or fwbuild.build(quiet=True)
        if not self.flash.exists():
            raise BoardError("no flash at %s: first_boot(game) makes one" % self.flash)
        log = open(self.log_path, "w")
        try:
            self.proc = subprocess.Popen(qemu_args(self.elf, self.flash, self.heap, self.link, self.icount),
                                         stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                         cwd=str(self.state_dir), start_new_session=True)
        finally:
            log.close()
        deadline = time.monotonic() + timeout
        while self.pty is None:
            m = _PTY.search(self.log_tail(50))
            if m:
                self.pty = m.group(1)
            elif not self.alive():
                raise BoardError("qemu exited (%s):\n%s" % (self.proc.returncode, self.log_tail()))
            elif time.monotonic() > deadline:
                raise BoardError("qemu named no pty within %d s:\n%s" % (timeout, self.log_tail()))
            else:
                time.sleep(0.05)
        if self.pty_link is not None:
            link_pty(self.pty, self.pty_link)
        return self

    def log_tail(self, n=20):
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-n:])

    def wait_ready(self, timeout=20):
        """Wait until the REPL answers an empty line with its prompt on the pty (the firmware is up)."""
        deadline = time.monotonic() + timeout
        fd = os.open(self.pty, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        try:
            tty.setraw(fd)
            seen = b""
            while time.monotonic() < deadline:
                if not self.alive():
                    raise BoardError("qemu exited (%s):\n%s" % (self.proc.returncode, self.log_tail()))
                os.write(fd, b"\r")
                time.sleep(0.25)
                try:
                    seen += os.read(fd, 4096)
                except BlockingIOError:
                    pass
                if b">>> " in seen:
                    return seen
            raise BoardError("no REPL prompt on %s within %d s" % (self.pty, timeout))
        finally:
            os.close(fd)

    def kill(self):
        """The power cut: qemu gets SIGKILL mid-whatever; the flash file keeps what was written."""
        Child.kill(self)
        self._forget()

    def stop(self):
        Child.stop(self)
        self._forget()

    def _forget(self):
        unlink_pty(self.pty, self.pty_link)
        self.pty = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def main(argv=None):
    from sim.locks import InUse, folder_lock, shown
    from sim.simulator import GAMES
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="sicbo", choices=GAMES, help="the game of a new flash")
    ap.add_argument("--state", default=None, help="the board's folder, holding flash.bin (default build/mcu/GAME)")
    ap.add_argument("--heap", default=HEAP, help="MicroPython heap, e.g. 64K (default %s)" % HEAP)
    ap.add_argument("--pty-link", default=None, help="stable symlink to the REPL's pty (default build/mcu-GAME.pty)")
    args = ap.parse_args(argv)
    state = pathlib.Path(args.state) if args.state else STATE_ROOT / args.game
    pty_link = args.pty_link or str(ROOT / "build" / ("mcu-%s.pty" % args.game))
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda *a: sys.exit(0))
    try:
        lock = folder_lock(state).acquire()
    except InUse as e:
        print("mcu: %s" % e, file=sys.stderr)
        return 2
    mcu = McuProcess(state, heap=args.heap, pty_link=pty_link)
    try:
        how, text = mcu.first_boot(args.game)
        if how == "game" and text != args.game:
            print("mcu: %s holds a %s table: running it (delete the folder for a new %s table)"
                  % (shown(state), text, args.game))
        elif how == "tilt":
            print("mcu: its configuration record is damaged (%s): the board boots into its tilt" % text)
        mcu.start()
        lock.describe(pty=shown(pty_link), state=shown(state))
        mcu.wait_ready()
        print("mcu: %s table on qemu's mps2-an385, flash in %s, heap %s" % (text or "tilted", shown(mcu.flash), args.heap))
        print("mcu: REPL %s (also %s)" % (mcu.pty, shown(pty_link)))
        print('mcu:   mpremote connect %s resume exec "import service; print(service.status())"' % shown(pty_link))
        print("mcu: Ctrl-C stops the board (kill -9 of qemu is a power cut; run again to resume)", flush=True)
        while mcu.alive():
            time.sleep(0.5)
        print("mcu: qemu stopped:\n%s" % mcu.log_tail(), file=sys.stderr)
        return 1
    except BoardError as e:
        print("mcu: %s" % e, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        mcu.stop()
        lock.release()


if __name__ == "__main__":
    sys.exit(main())


def run_main(source, heap, icount=False, timeout=300, work=None, cpu=fwbuild.CPUS[0]):
    """Boot a new board whose main.py is `source`, its REPL on qemu's stdio, and return what it printed
    until main.py ended (the REPL's first prompt). Nothing comes from the host meanwhile, so with
    icount=True every run is the same, instruction for instruction (tools/bench/qemu.py, the tests). `cpu` picks
    the image (tools/building/qemu_image.py's --cpu)."""
    import shutil
    import tempfile
    work = pathlib.Path(tempfile.mkdtemp(prefix="tablectl_mcu_", dir=work))
    try:
        board = McuProcess(work)
        erased(board.flash)
        (work / "main.py").write_text(source)
        prep = board._on_flash("", [(work / "main.py", "main.py")])
        if prep.returncode != 0:
            raise BoardError("cannot write main.py on the flash:\n" + prep.stderr[-2000:])
        proc = subprocess.Popen(qemu_args(fwbuild.build(quiet=True, cpu=cpu), board.flash, heap, icount=icount, repl="stdio"),
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                cwd=str(work))
        out = b""
        deadline = time.monotonic() + timeout
        try:
            while b"\n>>> " not in out and time.monotonic() < deadline:
                data = proc.stdout.read1(65536)
                if not data:
                    break
                out += data
        finally:
            proc.kill()
            proc.wait()
        return out.decode(errors="replace").replace("\r\n", "\n")
    finally:
        shutil.rmtree(work, ignore_errors=True)
