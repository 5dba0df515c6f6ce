"""Fixtures for the simulator tests, a plugin of host_tests/conftest.py: simulators that are always stopped (on its firmware_build)."""
import os
import pathlib
import shutil
import subprocess
import sys
import time

import pytest

from sim import board_process
from sim.simulator import Simulator

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
BIN = pathlib.Path(sys.executable).parent
MPREMOTE = str(BIN / "mpremote")
HEAP = board_process.HEAP  # TABLECTL_SIM_HEAP, else None: the port's own heap (board_process.PORTS), as make sim


@pytest.fixture
def start_sim(firmware_build, tmp_path):
    """start_sim(game) -> a running Simulator on free ports with its state in tmp_path/game; stopped after."""
    started = []

    def start(game, **kw):
        kw.setdefault("state_dir", tmp_path / game)
        sim = Simulator(game, port=0, build=firmware_build, heap=HEAP, **kw)
        started.append(sim)
        return sim.start()

    yield start
    for sim in started:
        sim.stop()


def run_mpremote(port, *args, env=None, timeout=30):
    """The real mpremote against a port: (exit status, stdout + stderr)."""
    proc = subprocess.run([MPREMOTE, "connect", str(port)] + list(args), capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL, env=env)
    return proc.returncode, proc.stdout + proc.stderr


@pytest.fixture
def mpremote():
    return run_mpremote


@pytest.fixture
def service_call():
    """service_call(sim, 'status()') -> what `print(service.status())` prints through the real mpremote."""
    def call(sim, expr):
        code, out = run_mpremote(sim.pty, "resume", "exec", "import service\nprint(service.%s)" % expr)
        assert code == 0, out
        return out
    return call


@pytest.fixture
def mpremote_env(tmp_path):
    """mpremote reading the project's macros (tools/boardops/mpremote/config.py), as a technician installs them:
    the environment to give run_mpremote."""
    (tmp_path / "xdg" / "mpremote").mkdir(parents=True)
    shutil.copyfile(ROOT / "tools" / "boardops" / "mpremote" / "config.py", tmp_path / "xdg" / "mpremote" / "config.py")
    return dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "xdg"))


class Dealer:
    """Presses the sim board's buttons through its link, as the page does, and waits for the controller."""

    def press(self, sim, role, hold=0.15):
        sim.link.send("press " + role)
        time.sleep(hold)  # past the firmware's 30 ms debounce (VOID needs its 1 s long press)
        sim.link.send("release " + role)
        time.sleep(0.05)

    def wait_state(self, sim, state, timeout=5):
        deadline = time.monotonic() + timeout
        while sim.link.snapshot()[1]["status"].get("state") != state:
            assert time.monotonic() < deadline, "not %s: %r" % (state, {k: v for k, v in sim.link.snapshot()[1]["status"].items() if k != "results"})
            time.sleep(0.05)

    def key(self, sim, on=True, timeout=5):
        """Turn the technician's key switch, as the page's switch does, and wait for the board to read it."""
        sim.link.send("key %d" % (1 if on else 0))
        self.wait_out(sim, lambda out: out.get("service_key") == (1 if on else 0), timeout)

    def fantan_round(self, sim, number):
        """A fan-tan round (FT-4..FT-6): cover, bell, the count's number, entered and confirmed."""
        for key in ("SHAKE", "BELL", str(number), "ENTER", "CONFIRM"):
            self.press(sim, key)
        self.wait_state(sim, "idle")

    def wait_out(self, sim, ok, timeout=5):
        """Wait until ok(outputs the board reported) holds."""
        deadline = time.monotonic() + timeout
        while not ok(sim.link.snapshot()[1]["out"]):
            assert time.monotonic() < deadline, sim.link.snapshot()[1]["out"]
            time.sleep(0.05)


@pytest.fixture
def dealer():
    return Dealer()
