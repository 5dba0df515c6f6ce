"""A fake Pico for the partition step's tests: the unix port with rp2.Flash over a file (rp2.py here), booted
by a frozen _boot.py (this project's, or the pinned rp2 port's stock one), its REPL on a pseudo-terminal that
mpremote reaches, restarted on the same terminal whenever it resets (machine.reset) or loses its power (cut())."""
import contextlib
import os
import pathlib
import pty
import subprocess
import threading
import tty

from harness import mpy

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent.parent
RESET = 3  # start.py's exit status for machine.reset()


class FakePico:
    def __init__(self, flash, boot, extra_path=(), storage=1408 * 1024):
        self.flash = pathlib.Path(flash)
        if not self.flash.exists():
            self.flash.write_bytes(b"\xff" * storage)  # a new chip: erased
        # the firmware and the sim board's hardware (build/sim) before boards/pico, whose board.py needs a real
        # machine module: from boards/pico, flashparts.py
        path = [str(HERE)] + [str(p) for p in extra_path] + [str(mpy.BUILD), str(ROOT / "boards" / "pico")]
        self.env = dict(os.environ, FAKEPICO_FLASH=str(self.flash), FAKEPICO_BOOT=str(boot),
                        FAKEPICO_STORAGE=str(storage), FAKEPICO_PATH=":".join(path), MICROPYPATH=str(HERE))
        self.boots = 0
        self.proc = None
        self._stop = False
        self._lock = threading.Lock()

    def run(self, code):
        """Power on, run `code` after the start-up (no REPL), power off: what it printed."""
        proc = subprocess.run([mpy.MICROPYTHON, "-X", "heapsize=256K", str(HERE / "start.py")], capture_output=True,
                              text=True, timeout=60, env=dict(self.env, FAKEPICO_RUN=code), cwd=str(HERE),
                              stdin=subprocess.DEVNULL)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        return proc.stdout

    def _start(self):
        self.proc = subprocess.Popen([mpy.MICROPYTHON, "-X", "heapsize=256K", str(HERE / "start.py")],
                                     stdin=self.master, stdout=self.master, stderr=subprocess.DEVNULL,
                                     env=self.env, cwd=str(HERE), start_new_session=True)
        self.boots += 1

    def _run(self):
        while True:
            proc = self.proc
            proc.wait()
            with self._lock:
                if self._stop:
                    return
                self._start()  # a reset or a power cut: the board boots again

    def cut(self):
        """A power cut: the process killed wherever it is; the board boots again."""
        self.proc.kill()

    @contextlib.contextmanager
    def running(self):
        self.master, board_side = pty.openpty()
        tty.setraw(board_side)
        os.set_blocking(board_side, False)  # simrepl polls its stdin
        os.set_blocking(self.master, False)
        self._start()
        watcher = threading.Thread(target=self._run, daemon=True)
        watcher.start()
        try:
            yield os.ttyname(board_side)
        finally:
            with self._lock:
                self._stop = True
                self.proc.kill()
            watcher.join()
            os.close(self.master)
            os.close(board_side)
