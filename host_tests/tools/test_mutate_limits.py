"""make mutate's stop for a mutant's loop (tools/mutate.py): a limit on the CPU its tests use, which a loaded
machine does not reach for a mutant whose tests merely wait for the CPU (a wall-clock timeout counted such a
survivor as killed)."""
import shlex
import subprocess
import sys

import mutate

BURN = "import time; t = time.process_time()\nwhile time.process_time() - t < 6: pass"


def run(code, cpu_s):
    cmd = mutate.limited("%s -c %s" % (shlex.quote(sys.executable), shlex.quote(code)), cpu_s)
    return subprocess.run(shlex.split(cmd), capture_output=True, timeout=600).returncode


def test_a_loop_is_stopped_by_its_cpu_limit_and_a_long_wait_is_not():
    assert run(BURN, 1) != 0  # 6 s of CPU under a limit of 1
    assert run("import time; time.sleep(2.5)", 1) == 0  # 2.5 s of wall clock, next to no CPU
    assert mutate.limited("x", None) == "x"


def test_every_module_runs_its_tests_under_the_cpu_limit():
    cfg, keep = mutate.load()
    assert cfg["cpu_s"] * 5 <= cfg["timeout_s"]  # the wall clock only for a test that waits for ever
    for module in cfg["module"]:
        cmd = mutate.command(module, cfg["cpu_s"])
        assert cmd.startswith("prlimit --cpu=%d " % cfg["cpu_s"]) and module["tests"][0] in cmd, cmd
