"""Run the built firmware (build/sim) on the unix port as a board: stdin/stdout on a pseudo-terminal, state in a folder.

    with BoardProcess(game_dir, link=('127.0.0.1', port)) as board:
        board.pty          # '/dev/pts/N': `mpremote connect <pty> resume exec ...` talks to it
        board.alive()

The micropython process gets the pty's master side as stdin and stdout (non-blocking, so a full
terminal with nobody connected drops REPL output instead of stopping the controller); the host keeps
the board side open in raw mode (tty.setraw: no echo, no newline translation) so the terminal stays up
between mpremote sessions. stderr goes to <state dir>/sim.log. The controller's records live in
<state dir>/simstate/flash.bin (the sim board's flash in TABLECTL_ROOT), so they survive a restart
as a board's flash does.

The port (PORTS): "rom32", the 32-bit unix port with a ROMFS partition (make rom32), boots as a board
with ROMFS does: the build's code in an image in the partition <state dir>/simstate/romfs.bin (written
from the build at every start, as flashing the board), main.py and the manifest on its filesystem (the
state dir). "fs64", PyPI's 64-bit port, runs build/main.py with the code loaded into the heap. The
default is rom32 when it is built, else fs64 (default_port() says why in its note).
"""
import json
import os
import pathlib
import pty
import shutil
import subprocess
import sys
import tempfile
import time
import tty

from building import mplib
from building.build_mpy import FWMANIFEST, deployed_romfs_image, venv_tool
from child import Child
from tablectl.certify import ON_FILESYSTEM  # firmware/: what a ROMFS board keeps on its filesystem

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
BUILD = ROOT / "build" / "sim"
# The heap each port's board gets by default; TABLECTL_SIM_HEAP or --heap overrides. rom32: a board's
# objects (32-bit) with its code outside the heap, as a Pico's is in flash; a linked table's session,
# its journal report and the technician's REPL hold at 256K (tools/bench/simheap.py prints each game's
# smallest heap). fs64: the 64-bit port holds a linked table's 209K of code in the heap, 243K in all once
# linked: test_link_walkthrough's 30 rounds and journal report failed at 256K, one run in two at 272K,
# and passed at 288K (two runs of two); 320K keeps a margin under load.
PORTS = {"rom32": "256K", "fs64": "320K"}
HEAP = os.getenv("TABLECTL_SIM_HEAP") or None
PARTITION = 256 * 1024  # the sim board's ROMFS partition, at least: a Pico's with MICROPY_HW_ROMFS_BYTES
ROM = "/rom"  # where MicroPython mounts the partition's image


def rom32():
    """The 32-bit unix port with a ROMFS partition (tools/building/romfs_port, make rom32), or None if not built."""
    return venv_tool("micropython-rom32")


def default_port():
    """(port, note): rom32 when it is built, else fs64 with the line that says why."""
    if rom32():
        return "rom32", None
    return "fs64", ("micropython-rom32 is not built (make rom32): the firmware runs on the 64-bit unix port "
                    "with its code in the heap (%s)" % (HEAP or PORTS["fs64"]))


def micropython():
    exe = pathlib.Path(sys.executable).parent / "micropython"
    return str(exe) if exe.exists() else "micropython"


FIRST_BOOT = """
import board
from tablectl.config import Config
from tablectl.journal import Journal
from tablectl.storage import Log
from tablectl.store import Store, Tilt
log = Log(%(flash)s)
store = Store(log)
if log.head < 0 and not log.problem:
    from tablectl.migrate import migrate
    migrate(log, board.ROOT)
halt = store.peek('halt') or {}
try:
    if log.vital_lost or halt.get('config_lost'):
        raise Tilt(log.problem or halt.get('why'))
    if store.names():
        print('game', Config(store)['game'])
    else:
        cfg = Config(store, Journal(log))
        cfg.change(0, game=%(game)r)
        print('new', cfg['game'])
except Tilt as e:
    print('tilt', e)
"""


def first_boot_code(game, flash="board.sim_flash()"):
    """FIRST_BOOT for `game`, its log on the device the expression `flash` makes (the sim board's by default)."""
    return FIRST_BOOT % {"game": game, "flash": flash}


def link_pty(pty, link):
    """Point the symlink `link` at the board's `pty` (a stable name for mpremote), replacing it atomically."""
    link.parent.mkdir(parents=True, exist_ok=True)
    tmp = link.with_name(link.name + ".tmp")
    if tmp.is_symlink() or tmp.exists():
        tmp.unlink()
    os.symlink(pty, tmp)
    os.replace(tmp, link)


def unlink_pty(pty, link):
    """Remove the symlink `link` if it still points at `pty` (either may be None: nothing to remove)."""
    if pty is None or link is None:
        return
    # only our own link: one that points elsewhere now belongs to another board
    try:
        if os.readlink(link) == pty:
            os.unlink(link)
    except OSError:
        pass


class BoardError(RuntimeError):
    pass


def write_file(path, data):
    """`path` holds `data`, replaced whole (a board process that maps the old file keeps its copy)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def first_boot_result(proc):
    """(how, text) from the last line FIRST_BOOT printed (the finished subprocess `proc`, text output);
    BoardError with its output when it failed or printed no result."""
    lines = proc.stdout.strip().splitlines()
    how, _, text = (lines[-1] if lines else "").partition(" ")
    if proc.returncode != 0 or how not in ("new", "game", "tilt"):
        raise BoardError("first boot configuration failed:\n%s" % (proc.stdout + proc.stderr)[-2000:])
    return how, text


class BoardProcess(Child):
    def __init__(self, state_dir, link=None, build=BUILD, heap=None, pty_link=None, repl=True, port=None):
        self.state_dir = pathlib.Path(state_dir)
        self.link = link
        self.build = pathlib.Path(build)
        self.port, self.note = (port, None) if port else default_port()
        if self.port not in PORTS:
            raise BoardError("no port %r (ports: %s)" % (self.port, ", ".join(PORTS)))
        self.exe = rom32() if self.port == "rom32" else micropython()
        if self.exe is None:
            raise BoardError("micropython-rom32 is not built: make rom32 (or run on the 64-bit port: --mp-port fs64)")
        self.heap = heap or HEAP or PORTS[self.port]
        self.pty_link = pathlib.Path(pty_link) if pty_link else None
        self.repl = repl
        self.installed = False
        self.proc = None
        self.pty = None
        self._board_fd = self._master_fd = None
        self.log_path = self.state_dir / "sim.log"

    def env(self):
        env = dict(os.environ)
        # .frozen: the port's asyncio; .venv/cache/mplib: micropython-lib's umqtt.simple when fetched
        # (tools/building/mplib.py, as mip puts it in a board's /lib), for a table configured with a link
        if self.port == "rom32":
            env["MICROPYPATH"] = ".frozen:%s:%s" % (ROM, mplib.FOLDER)
            env["MICROPY_ROMFS"] = str(self.partition.resolve())
        else:
            env["MICROPYPATH"] = "%s:%s:.frozen" % (self.build.resolve(), mplib.FOLDER)
        env["TABLECTL_ROOT"] = "simstate"
        env.pop("TABLECTL_HOSTLINK", None)
        env.pop("TABLECTL_REPL", None)
        return env

    @property
    def partition(self):
        return self.state_dir / "simstate" / "romfs.bin"

    def install(self):
        """On rom32, flash the build as a ROMFS deploy does: its code in an image in the partition, main.py
        and the manifest (saying the code is in /rom) on the board's filesystem; nothing on fs64. Once
        for first_boot() and start()."""
        if not (self.build / "main.py").exists():
            raise BoardError("no firmware in %s: run tools/building/build_mpy.py --board sim --out %s first"
                             % (self.build, self.build))
        if self.port != "rom32" or self.installed:
            return
        self.installed = True
        manifest = json.loads((self.build / FWMANIFEST).read_text())
        with tempfile.TemporaryDirectory(prefix="simrom_") as stage:
            image = deployed_romfs_image(self.build, manifest["files"], stage)
        self.partition.parent.mkdir(parents=True, exist_ok=True)
        size = max(PARTITION, -(-len(image) // 4096) * 4096)
        write_file(self.partition, image + b"\xff" * (size - len(image)))
        manifest["romfs"] = ROM
        # a copy of the code on the filesystem would be imported before /rom's (a deploy without ROMFS into
        # this simulator puts one there): it goes, as a ROMFS deploy removes it from a board
        for name in sorted(set(f.split("/")[0] for f in manifest["files"]) - set(ON_FILESYSTEM)):
            old = self.state_dir / name
            if old.is_dir() and not old.is_symlink():
                shutil.rmtree(old)
            elif old.exists() or old.is_symlink():
                old.unlink()
        write_file(self.state_dir / "main.py", (self.build / "main.py").read_bytes())
        write_file(self.state_dir / FWMANIFEST, json.dumps(manifest, sort_keys=True).encode())

    def first_boot(self, game):
        """A board straight from deploy (a folder without records): set `game` in its configuration
        record before the first boot, with the firmware's own Config (validated, journalled), so the
        controller that boots is that game's and not the default's. A folder that holds records is
        left alone: its game is what its configuration says (the technician may have changed it with
        service.configure), and only the service port changes it.
        Returns (how, text): ('new', game) set now, ('game', game) the folder's own, ('tilt', why)
        its configuration record is damaged (the firmware boots into its tilt and says so)."""
        self.state_dir.mkdir(parents=True, exist_ok=True)
        self.install()
        proc = subprocess.run([self.exe, "-X", "heapsize=" + self.heap, "-c", first_boot_code(game)],
                              cwd=str(self.state_dir), env=self.env(), capture_output=True, text=True,
                              timeout=30)
        return first_boot_result(proc)

    def start(self):
        self.state_dir.mkdir(parents=True, exist_ok=True)
        self.install()
        master, board_side = pty.openpty()
        tty.setraw(board_side)
        os.set_blocking(board_side, False)  # only wait_ready() reads it, and must not hang
        os.set_blocking(master, False)
        env = self.env()
        if self.link:
            env["TABLECTL_HOSTLINK"] = "%s:%d" % self.link
        if self.repl:
            env["TABLECTL_REPL"] = "1"
        log = open(self.log_path, "ab")
        try:
            self.proc = subprocess.Popen(
                [self.exe, "-X", "heapsize=" + self.heap, self.main()],
                stdin=master, stdout=master, stderr=log, cwd=str(self.state_dir), env=env,
                close_fds=True, start_new_session=True)
        except BaseException:
            os.close(master)
            os.close(board_side)
            raise
        finally:
            log.close()
        # the host holds the master too (never reading it) so what the firmware wrote before dying,
        # a MicroPython traceback goes to stdout, can still be read from the board side
        self._master_fd = master
        self._board_fd = board_side
        self.pty = os.ttyname(board_side)
        if self.pty_link is not None:
            link_pty(self.pty, self.pty_link)
        return self

    def main(self):
        # rom32: main.py from the board's filesystem (the working folder), whose folder then leads sys.path
        # as a board's root does, before /rom
        return "main.py" if self.port == "rom32" else str((self.build / "main.py").resolve())

    def log_tail(self, n=20):
        """The last lines the firmware wrote to stderr, and to the terminal if nobody has read it (a
        MicroPython traceback goes to stdout)."""
        text = ""
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            pass
        if self._board_fd is not None:
            try:
                text += os.read(self._board_fd, 65536).decode(errors="replace")
            except OSError:
                pass
        return "\n".join(text.replace("\r\n", "\n").splitlines()[-n:])

    def wait_ready(self, timeout=10):
        """Wait for the REPL's banner on the terminal (the firmware booted and its tasks run)."""
        deadline = time.monotonic() + timeout
        seen = b""
        while time.monotonic() < deadline:
            if not self.alive():
                raise BoardError("the firmware exited (%s):\n%s" % (self.proc.returncode, self.log_tail()))
            try:
                seen += os.read(self._board_fd, 4096)
            except BlockingIOError:
                pass
            if b">>> " in seen:
                return seen
            time.sleep(0.05)
        raise BoardError("no REPL prompt from the firmware within %d s:\n%s" % (timeout, self.log_tail()))

    def stop(self):
        Child.stop(self, 3)
        for fd in (self._board_fd, self._master_fd):
            if fd is not None:
                os.close(fd)
        self._board_fd = self._master_fd = None
        unlink_pty(self.pty, self.pty_link)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
