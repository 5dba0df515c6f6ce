"""A fake Pico's power-on on the unix port: the host's filesystem moved to /host, the rp2 port's start-up
(FAKEPICO_BOOT: a frozen _boot.py) mounting LittleFS at / from rp2.Flash, then the sim board's REPL for
mpremote until machine.reset() (or FAKEPICO_RUN's code, then off)."""
import os
import sys

import vfs

import fakemachine as machine
import rp2  # noqa: F401  (its flash file opened before / moves)

sys.modules["machine"] = machine  # before the builtin: mpremote's reset calls machine.reset()

boot = os.getenv("FAKEPICO_BOOT")
path = [p for p in os.getenv("FAKEPICO_PATH").split(":") if p]
vfs.umount("/")
vfs.mount(vfs.VfsPosix(), "/host")
sys.path[:] = ["", ".frozen"] + ["/host" + p for p in path]  # the board's /, then its "frozen" modules
with open("/host" + boot) as f:
    exec(f.read(), {"__name__": "_boot"})
os.chdir("/")
if os.getenv("FAKEPICO_RUN"):  # one script, then off (a test of the start-up alone)
    exec(os.getenv("FAKEPICO_RUN"), {})
    sys.exit(0)

import asyncio  # noqa: E402
import simrepl  # noqa: E402


async def run():
    asyncio.create_task(simrepl.task())
    while not machine.asked:  # the REPL task has written its answer before this task runs again
        await asyncio.sleep_ms(20)


asyncio.run(run())
sys.exit(3)  # the harness: a reset
