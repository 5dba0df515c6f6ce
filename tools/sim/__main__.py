"""`python -m sim --game GAME [--port 8000] [--pty-link PATH]`: run the table simulator until Ctrl-C (what `make sim` runs)."""
import argparse
import os
import signal
import sys
import time

from sim.board_process import HEAP, PORTS, BoardError
from sim.locks import InUse
from sim.simulator import GAMES, ROOT, PortBusy, Simulator


def _stop_on_signal(signum, frame):
    raise KeyboardInterrupt  # SIGTERM/SIGHUP end the simulator as Ctrl-C does: the firmware is stopped too


def running(board, kind):
    """How the firmware runs, for the start-up line."""
    if kind == "qemu":
        return "image on qemu's mps2-an385"
    if board.port == "rom32":
        return "from build/sim in the 32-bit port's ROMFS partition, %s heap" % board.heap
    return "from build/sim on the 64-bit unix port, %s heap" % board.heap


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m sim", description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="sicbo", choices=GAMES,
                    help="the game of a new folder (one that has run keeps the game its configuration holds)")
    ap.add_argument("--port", type=int, default=8000, help="web page port on 127.0.0.1 (0: any free one)")
    ap.add_argument("--pty-link", default=None,
                    help="stable symlink to the board's terminal (default build/sim-GAME.pty)")
    ap.add_argument("--state", default=None, help="the board's folder (default build/simroot/GAME)")
    ap.add_argument("--heap", default=None, help="MicroPython heap, e.g. 192K (default %s)" % (
        HEAP or ", ".join("%s on %s" % (PORTS[p], p) for p in PORTS)))
    ap.add_argument("--mp-port", default=None, choices=tuple(PORTS),
                    help="the sim board's MicroPython: rom32, the 32-bit unix port with the code in a ROMFS partition "
                         "(make rom32; the default when it is built), or fs64, PyPI's 64-bit port with the code in the heap")
    ap.add_argument("--board", default="sim", choices=("sim", "qemu"),
                    help="sim: the unix port; qemu: the firmware image on qemu's emulated Cortex-M3 (make firmware BOARD=qemu)")
    ap.add_argument("--oled", action="store_true",
                    help="the dealer's display is the graphic SSD1306 (English and Chinese), not the 16x2 HD44780")
    args = ap.parse_args(argv)
    if args.oled:
        if args.board == "qemu":
            print("sim: --oled is the sim board's (the qemu board has the 16x2 display only)", file=sys.stderr)
            return 2
        from building import mplib
        try:
            mplib.folder()  # micropython-lib's ssd1306, the driver the firmware draws through
        except mplib.FetchError as e:
            print("sim: --oled: %s" % e, file=sys.stderr)
            return 1
        os.environ["TABLECTL_DISPLAY"] = "SSD1306"  # the board process inherits it (boards/sim/board.py)
    if args.mp_port and args.board == "qemu":
        print("sim: --mp-port is the sim board's (the qemu board runs its own image)", file=sys.stderr)
        return 2
    pty_link = args.pty_link or str(ROOT / "build" / ("sim-%s.pty" % args.game))
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _stop_on_signal)
    kw = {}
    if args.board == "qemu":
        from sim.mcu import STATE_ROOT, McuProcess
        kw = {"board": McuProcess, "state_dir": args.state or STATE_ROOT / args.game}
        pty_link = args.pty_link or str(ROOT / "build" / ("mcu-%s.pty" % args.game))
    elif args.mp_port:
        kw = {"mp_port": args.mp_port}
    sim = Simulator(args.game, args.port, kw.pop("state_dir", args.state), pty_link, heap=args.heap, **kw)
    try:
        sim.start()
    except (InUse, PortBusy) as e:
        print("sim: %s" % e, file=sys.stderr)  # refused before anything was touched: a usage error
        return 2
    except (BoardError, OSError) as e:
        print("sim: %s" % e, file=sys.stderr)
        if "MemoryError" in str(e):
            print("sim: the firmware ran out of heap: try a larger --heap than %s" % (
                  getattr(sim.board, "heap", None) or args.heap or HEAP), file=sys.stderr)
        return 1
    try:
        for line in sim.notes:
            print("sim: %s" % line)
        print("sim: %s table running the firmware %s (state in %s)" % (
            sim.game or "tilted", running(sim.board, args.board), sim.state_dir))
        print("sim: open %s" % sim.url)
        print("sim: board terminal %s (also %s)" % (sim.pty, pty_link))
        print('sim:   mpremote connect %s resume exec "import service; print(service.status())"' % pty_link)
        print("sim: Ctrl-C stops the simulator", flush=True)
        while sim.board.alive():
            time.sleep(0.5)
        print("sim: the firmware stopped:\n%s" % sim.board.log_tail(), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        sim.stop()


if __name__ == "__main__":
    sys.exit(main())
