"""The smallest heap a simulator's session passes in, for each game, on the sim board's 32-bit ROMFS port (make sim's
default, 256K): the simulator started (first boot, the page's link, the REPL), then the technician's reports
through the real REPL path (mpremote on the board's pty), twice: status(), journal(35), meters(), history(),
config(). Also each game with the graphic display (OLED=1), and a caribbean_stud table on a linked progressive
(mosquitto and the jackpot server, as `make link` runs them) playing 15 rounds before its reports.

    python tools/bench/simheap.py          (or `make bench`; needs build/sim and make rom32)

Bisection in 8 KB steps between 64K and 256K, one session each: the heap fragments, so the figure is where one
run passed, not a bound every run keeps (make sim's 256K leaves the margin).
"""
import os
import pathlib
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
BUILD = ROOT / "build" / "sim"
MPREMOTE = str(pathlib.Path(sys.executable).parent / "mpremote")
REPORTS = ("status()", "journal(35)", "meters()", "history()", "config()")
LO, HI, STEP = 64, 256, 8
ROUNDS = 15  # the linked table's: its journal then holds more than the 35 lines journal(35) shows


def reports(sim):
    """None, or why the session failed: a report that did not come back whole."""
    for _ in range(2):
        for expr in REPORTS:
            try:
                proc = subprocess.run([MPREMOTE, "connect", sim.pty, "resume", "exec", "import service\nprint(service.%s)" % expr],
                                      capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
            except subprocess.TimeoutExpired:
                return "%s: no answer" % expr
            out = proc.stdout + proc.stderr
            if proc.returncode != 0 or "MemoryError" in out or "Traceback" in out:
                return "%s: %s" % (expr, out.strip().splitlines()[-1:] or proc.returncode)
    return None


def press(sim, role):
    sim.link.send("press " + role)
    time.sleep(0.15)  # past the firmware's debounce
    sim.link.send("release " + role)


def wait_state(sim, state, timeout=30, what="status"):
    deadline = time.monotonic() + timeout
    while sim.link.snapshot()[1][what].get("state" if what == "status" else "service_key") != state:
        if time.monotonic() > deadline or not sim.board.alive():
            return False
        time.sleep(0.05)
    return True


def linked_rounds(sim, link):
    """Put the table on `link` (service.configure, the key on, its confirmation), then ROUNDS rounds."""
    import re
    from jackpot.rig import LINK
    sim.link.send("key 1")
    wait_state(sim, 1, what="out")  # the board has read the key switch
    url = "mqtt://t07:%s@%s/%s" % (link.password("t07"), link.broker.addresses(0), LINK)
    call = "import service\nprint(service.configure(link=%r%s))"
    out = subprocess.run([MPREMOTE, "connect", sim.pty, "resume", "exec", call % (url, "")], capture_output=True,
                         text=True, timeout=60).stdout
    code = re.search(r"confirm='(\d{6})'", out)
    if not code:
        return "configure: %s" % out.strip()[-200:]
    out = subprocess.run([MPREMOTE, "connect", sim.pty, "resume", "exec", call % (url, ", confirm=%r" % code.group(1))],
                         capture_output=True, text=True, timeout=60).stdout
    if "(now)" not in out:
        return "configure: %s" % out.strip()[-200:]
    sim.link.send("key 0")
    wait_state(sim, 0, what="out")
    for s in range(1, 8):
        sim.link.send("seat %d 1" % s)
    for _ in range(ROUNDS):
        if not wait_state(sim, "betting", 60):
            return "a round: not betting (%s)" % sim.link.snapshot()[1]["status"].get("link_state")
        press(sim, "LOCK")
        if not wait_state(sim, "locked"):
            return "a round: not locked (%s)" % sim.link.snapshot()[1]["status"].get("link_state")
        press(sim, "CONFIRM")
    return None if wait_state(sim, "betting") else "the last round did not end"


def session(game, heap_k, folder, linked=False):
    """None if the session passed in -X heapsize=HEAP_K K, else why not. linked: on a progressive link of its
    own (a new table each session)."""
    from jackpot.rig import Link
    from sim.board_process import BoardError
    from sim.simulator import Simulator
    name = "%s-%d%s" % (game, heap_k, "-linked" if linked else "")
    link = Link(folder / (name + "-link"), ["t07"]).start() if linked else None
    sim = Simulator(game, port=0, state_dir=folder / name, heap="%dK" % heap_k, mp_port="rom32")
    try:
        sim.start(timeout=30)
        why = linked_rounds(sim, link) if link else None
        return why or reports(sim)
    except BoardError as e:
        return str(e).splitlines()[0]
    finally:
        sim.stop()
        if link:
            link.stop()


def smallest(game, folder, linked=False):
    """(smallest passing heap in KB or None, why HI failed)."""
    why = session(game, HI, folder, linked)
    if why:
        return None, why
    lo, hi = LO, HI
    while hi - lo > STEP:
        mid = (lo + hi) // 2 // STEP * STEP
        if session(game, mid, folder, linked):
            lo = mid
        else:
            hi = mid
    return hi, None


def main():
    import mplib
    from sim.board_process import rom32
    from sim.simulator import GAMES
    if rom32() is None:
        print("simheap: micropython-rom32 is not built (make rom32): no figures")
        return
    if not (BUILD / "main.py").exists():
        print("simheap: no build/sim (make mpy): no figures")
        return
    with tempfile.TemporaryDirectory(prefix="simheap_") as tmp:
        folder = pathlib.Path(tmp)
        rows = [(game, False) for game in GAMES]
        try:
            mplib.folder()  # micropython-lib's ssd1306, the graphic display's driver
            rows += [(game, True) for game in GAMES]
        except mplib.FetchError as e:
            print("simheap: no OLED figures: %s" % e)
        for game, oled in rows:
            if oled:
                os.environ["TABLECTL_DISPLAY"] = "SSD1306"
            try:
                k, why = smallest(game, folder)
            finally:
                os.environ.pop("TABLECTL_DISPLAY", None)
            print("simheap %-15s %-6s sim session (boot, link, REPL, 2x5 reports), 32-bit ROMFS port: %s" % (
                game, "oled" if oled else "16x2", "passes from %d KB (%d KB steps)" % (k, STEP) if k else "FAILS at %d KB: %s" % (HI, why)),
                flush=True)
        k, why = smallest("caribbean_stud", folder, linked=True)
        print("simheap caribbean_stud linked sim session (+ linked, %d rounds), 32-bit ROMFS port: %s" % (
            ROUNDS, "passes from %d KB (%d KB steps)" % (k, STEP) if k else "FAILS at %d KB: %s" % (HI, why)), flush=True)


if __name__ == "__main__":
    main()
