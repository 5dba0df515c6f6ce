"""The smallest heap a simulator's session passes in, for each game, on the sim board's 32-bit ROMFS port (make sim's
default, 256K): the simulator started (first boot, the page's link, the REPL), then the technician's reports
through the real REPL path (mpremote on the board's pty), twice: status(), journal(35), meters(), history(),
config(). Also each game with the graphic display (OLED=1), and a caribbean_stud table on a linked progressive
(mosquitto and the jackpot server, as `make link` runs them) playing 15 rounds before its reports.

    python tools/bench/simheap.py          (or `make bench`; needs build/sim and make rom32)

Bisection in 8 KB steps between 64K and 256K, one session each: the heap fragments, so the figure is where one
run passed, not a bound every run keeps (make sim's 256K leaves the margin). 256K itself is run only when no
smaller heap passed (a figure then says 256K passes, or why not). The reports go through one mpremote
connection a session, each its own exec in the board's raw REPL as `mpremote resume exec` sends it; two
sessions run at once (tables of their own): 83 sessions in 5 minutes on 2 cores at a load of 14-19.

    python tools/bench/simheap.py [GAME ...]   only those games' rows (and the linked row if caribbean_stud)
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
DONE = {"sessions": [], "reports": []}  # what a run did, for its last line (list.append: two threads)
READ_S = 5  # a read of the board's pty waits this long at most (the REPL answers within it, however loaded)


def reports(sim):
    """None, or why the session failed: a report that did not come back whole. Through mpremote's own serial
    transport on the board's pty, the raw REPL entered without a reset (`mpremote resume`), one exec a report."""
    from mpremote.transport import TransportError
    from mpremote.transport_serial import SerialTransport
    DONE["reports"].append(sim)
    try:
        board = SerialTransport(sim.pty, timeout=READ_S)
    except TransportError as e:
        return "the REPL: %s" % e
    try:
        board.enter_raw_repl(soft_reset=False)
        for _ in range(2):
            for expr in REPORTS:
                out, err = answer(sim, board, "import service\nprint(service.%s)" % expr)
                text = (out + err).decode(errors="replace")
                if err or "MemoryError" in text or "Traceback" in text:
                    return "%s: %s" % (expr, text.strip().splitlines()[-1:])
        board.exit_raw_repl()
    except TransportError as e:
        return "the REPL: %s" % e
    finally:
        board.close()
    return None


def answer(sim, board, code, timeout=60):
    """(stdout, stderr) of `code` run in the raw REPL; TransportError when it does not end within `timeout`
    or the board's REPL task has died (out of heap, as the board's log says: no answer would come then)."""
    from mpremote.transport import TransportError
    board.exec_raw_no_follow(code)
    data, deadline = b"", time.monotonic() + timeout
    while data.count(b"\x04") < 2:  # the raw REPL ends stdout and then stderr with one each
        chunk = board.serial.read(1)  # no further: the prompt after them is the next exec's to read
        data += chunk
        if not chunk:
            if time.monotonic() > deadline:
                raise TransportError("no answer in %d s" % timeout)
            log = sim.board.log_path.read_text(errors="replace")  # not log_tail(): it reads the pty too
            if "Task exception" in log:
                raise TransportError("the REPL task died: %s" % log.strip().splitlines()[-1])
    out, err = data.split(b"\x04")[:2]
    return out, err


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
    DONE["sessions"].append(heap_k)
    name = "%s-%d%s%s" % (game, heap_k, "-oled" if os.environ.get("TABLECTL_DISPLAY") else "",
                          "-linked" if linked else "")
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


def smallest(run, lo=LO, hi=HI, step=STEP):
    """(smallest passing heap in KB or None, why hi failed) for run(heap_k) -> None (passed) or why not. A
    bisection of the steps between lo (taken to fail) and hi; hi is run only if nothing below it passed."""
    top = hi
    while hi - lo > step:
        mid = (lo + hi) // 2 // step * step
        if run(mid):
            lo = mid
        else:
            hi = mid
    if hi == top:
        why = run(top)
        if why:
            return None, why
    return hi, None


def row(game, folder, oled=False, linked=False):
    if oled:
        os.environ["TABLECTL_DISPLAY"] = "SSD1306"  # every row of a phase is oled or none is (main)
    k, why = smallest(lambda heap_k: session(game, heap_k, folder, linked))
    kind = "linked" if linked else "oled" if oled else "16x2"
    what = "+ linked, %d rounds" % ROUNDS if linked else "boot, link, REPL, 2x5 reports"
    return "simheap %-15s %-6s sim session (%s), 32-bit ROMFS port: %s" % (
        game, kind, what, "passes from %d KB (%d KB steps)" % (k, STEP) if k else "FAILS at %d KB: %s" % (HI, why))


def main(argv=None):
    import concurrent.futures
    from building import mplib
    from sim.board_process import rom32
    from sim.simulator import GAMES
    picked = [a for a in (sys.argv[1:] if argv is None else argv) if a in GAMES]  # python -m bench's too
    games = [g for g in GAMES if not picked or g in picked]
    if rom32() is None:
        print("simheap: micropython-rom32 is not built (make rom32): no figures")
        return
    if not (BUILD / "main.py").exists():
        print("simheap: no build/sim (make mpy): no figures")
        return
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="simheap_") as tmp:
        folder = pathlib.Path(tmp)
        phases = [[(game, False, False) for game in games]]
        try:
            mplib.folder()  # micropython-lib's ssd1306, the graphic display's driver
            phases.append([(game, True, False) for game in games])
        except mplib.FetchError as e:
            print("simheap: no OLED figures: %s" % e)
        if "caribbean_stud" in games:
            phases.append([("caribbean_stud", False, True)])
        # two sessions at once, one a core: the display is the board's environment, so a phase is all one kind
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            for phase in phases:
                try:
                    for line in pool.map(lambda r: row(r[0], folder, oled=r[1], linked=r[2]), phase):
                        print(line, flush=True)
                finally:
                    os.environ.pop("TABLECTL_DISPLAY", None)
    print("simheap: %d sessions, %d with their reports, %.0f s" % (len(DONE["sessions"]), len(DONE["reports"]),
                                                                   time.monotonic() - t0), flush=True)


if __name__ == "__main__":
    main()
