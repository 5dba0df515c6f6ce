"""Firmware figures on the qemu board (boards/qemu: the firmware frozen into an ARMv6-M image, run by
qemu-system-arm): the heap a long session and the technician's reports need, instruction counts, image size.

    python tools/bench/qemu.py            (or `make bench`, which runs every tools/bench module)
    python tools/bench/qemu.py --keys-only [--cpu m3]   the dealer's keys alone (on the Cortex-M3 image)

- Heap: fwround's ROUNDS rounds of each controller, then service's status, meters, history, journal and
  config printed (tools/bench/mp/mcusession.py, frozen into the image too), in heap=64K (the GC gets
  64 KB, as an image built with MICROPY_HEAP_SIZE=64K would give it); then the smallest heap, in 2 KB
  steps by bisection between 32 and 64 KB, it completes in; the heap in use after it.
- Instructions: the same session under qemu's -icount shift=0,sleep=off, where an instruction is 1 ns of
  the machine's time and time.ticks_cpu() counts the 25 MHz SYSCLK, 40 instructions a period (so a
  single event is counted to 40 instructions; the core's paths are averaged over their calls). Nothing
  comes from the host during the run: the counts are the same on every run and every machine. The
  image is ARMv6-M code (the RP2040's instruction set), so these are the Pico's instruction counts.
- Each dealer's key apart (sic bo and Caribbean Stud, for LOCK and the hit entry): median, p90 and worst
  instructions, pages programmed and blocks erased, and its estimated time on a Pico: instructions at
  125 MHz, one a cycle (a floor: a Cortex-M0+ takes more for loads and branches), plus the flash's busy
  time by the W25Q16JV datasheet (boards/qemu/flash.c), typical and at most, the CPU stalled for it. The
  App's idle hook runs in the dealer's pauses (tools/bench/mp/mcusession.py), counted apart.
- Image size: text/data/bss of the image with the firmware frozen and without it (the board's own
  _boot.py, flash map and asyncio only; built once into build/firmware-qemu-bare).
"""
import concurrent.futures
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "mp"))  # fwround: a flat file the board processes load by name, not a package
from bench.__main__ import load  # noqa: E402  (a bench module by its path, as `make bench` loads it)
from fwround import GAMES, ROUNDS  # noqa: E402
from building import qemu_image as fwbuild  # noqa: E402
from sim.mcu import run_main  # noqa: E402

bisect_heap = load(HERE / "firmware.py").bisect_heap

TARGET_K = 64
INSNS_PER_PERIOD = 40  # -icount shift=0: 1 ns an instruction; SYSCLK 25 MHz: 40 ns a period
MHZ = 125
MAIN = "import mcusession\nmcusession.run(%r, %d, %s)\n"
KEY_GAMES = ("sicbo", "caribbean_stud")  # every dealer's key between them: SHAKE..VOID, LOCK, the hit entry
# the goals at a 64 KB heap: ENTER 5 ms, CONFIRM 10 ms at 125 MHz (medians), worst at most twice; a
# progressive's void is settled by the ENTER that takes its kind: CONFIRM's goal
GOALS = {"ENTER": 625000, "CONFIRM": 1250000, "VOID ENTER": 1250000}


def session(game, heap_k, counts=False, rounds=ROUNDS, cpu=fwbuild.CPUS[0]):
    """{'heap_used': .., 'counts': {name: (periods, calls)}} of one boot, or None if it failed (out of
    heap, or a round that went wrong)."""
    out = run_main(MAIN % (game, rounds, counts), "%dK" % heap_k, icount=True, cpu=cpu)
    fig = {"counts": {}, "keys": {}}
    for line in out.splitlines():
        f = line.split()
        if f[:1] == ["BENCH"]:
            fig["heap_used"] = int(f[f.index("heap_used") + 1])
        elif f[:1] == ["COUNT"]:
            fig["counts"][f[1]] = (int(f[2]), int(f[3]))
        elif f[:1] == ["KEY"] and len(f) == 7:
            fig["keys"].setdefault(f[1].replace("_", " "), []).append(tuple(int(v) for v in f[2:]))
    return fig if "heap_used" in fig else None


def pick(values, q):
    """The q-quantile of values by rank (q=0.5 the median, 1 the worst): a value the session had."""
    v = sorted(values)
    return v[min(len(v) - 1, int(q * len(v)))]


def key_figures(keys):
    """{label: figures} of one counted session's keys (session()'s 'keys')."""
    figs = {}
    for name, rows in keys.items():
        ins = [p * INSNS_PER_PERIOD for p, *_ in rows]
        typ = [i / (MHZ * 1000) + t / 1000 for i, (_, _, _, t, _) in zip(ins, rows)]  # ms
        most = [i / (MHZ * 1000) + m / 1000 for i, (_, _, _, _, m) in zip(ins, rows)]
        figs[name] = {"n": len(rows), "median": pick(ins, 0.5), "p90": pick(ins, 0.9), "worst": max(ins),
                      "pages": pick([r[1] for r in rows], 0.5), "pages_worst": max(r[1] for r in rows),
                      "erases": sum(r[2] for r in rows), "erases_worst": max(r[2] for r in rows),
                      "pico_median": pick(typ, 0.5), "pico_p90": pick(typ, 0.9), "pico_worst": max(typ),
                      "pico_at_most": max(most)}
    return figs


def key_lines(game, figs):
    lines = []
    for name in ("SHAKE", "BELL", "digit", "ENTER", "CONFIRM", "LOCK", "HIT entry", "VOID", "VOID ENTER", "other"):
        f = figs.get(name)
        if f is None:
            continue
        lines.append("qemu board key %-14s %-10s x%-4d instructions median %9d p90 %9d worst %9d | pages %d (worst %d)"
                     " erases %d (worst %d) | Pico ms typical median %7.3f p90 %7.3f worst %7.3f, at most %7.3f"
                     % (game, name, f["n"], f["median"], f["p90"], f["worst"], f["pages"], f["pages_worst"],
                        f["erases"], f["erases_worst"], f["pico_median"], f["pico_p90"], f["pico_worst"],
                        f["pico_at_most"]))
        goal = GOALS.get(name)
        if goal:
            met = f["median"] <= goal and f["worst"] <= 2 * goal
            lines.append("qemu board key %-14s %-10s goal median <= %d, worst <= %d instructions: %s"
                         % (game, name, goal, 2 * goal, "met" if met else "NOT MET"))
    return lines


def smallest(game, lo=32, hi=TARGET_K, step=2):
    """Bisection in `step` KB: the smallest heap (KB) the session completed in (hi if it completes there)."""
    return bisect_heap(lambda heap_k: session(game, heap_k) is None, lo, hi, step)


def heap_line(game):
    fig = session(game, TARGET_K)
    if fig is None:
        return "qemu board %-15s %d rounds + reports in a %d KB heap: FAILS" % (game, ROUNDS, TARGET_K)
    return ("qemu board %-15s %d rounds + service reports, code frozen: complete in a %d KB heap (in use after: "
            "%d bytes); smallest heap they complete in: %d KB" % (game, ROUNDS, TARGET_K, fig["heap_used"],
                                                                 smallest(game)))


def insns(periods, calls):
    return periods * INSNS_PER_PERIOD / calls


def keys_only(cpu):
    fwbuild.build(cpu=cpu)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        counted = list(pool.map(lambda g: session(g, TARGET_K, True, cpu=cpu), KEY_GAMES))
    for game, fig in zip(KEY_GAMES, counted):
        print("\n".join(key_lines(game, key_figures(fig["keys"]))) if fig else "qemu board key %s: FAILED" % game)


def main():
    if "--keys-only" in sys.argv:
        return keys_only("m3" if sys.argv[-2:] == ["--cpu", "m3"] else fwbuild.CPUS[0])
    elf = fwbuild.build()
    bare = fwbuild.build(bare=True)
    for name, image in (("with the firmware frozen", elf), ("without it (board only)", bare)):
        text, data, bss = fwbuild.sizes(image)
        print("qemu image %-26s text %7d  data %4d  bss %7d bytes (bss: %d KB of it the heap array)"
              % (name, text, data, bss, fwbuild.heap_array() // 1024))
    with concurrent.futures.ThreadPoolExecutor(2) as pool:  # one qemu a core
        counted = [pool.submit(session, game, TARGET_K, True) for game in KEY_GAMES]
        for line in pool.map(heap_line, GAMES):
            print(line, flush=True)
        counted = [c.result() for c in counted]
    for game, fig in zip(KEY_GAMES, counted):
        if fig is None:
            print("qemu board key %s: the counted session FAILED" % game)
            continue
        for line in key_lines(game, key_figures(fig["keys"])):
            print(line)
    counts = counted[0]
    if counts is None:
        return
    labels = (("dice_resolution", "dice resolution (sicbo table, every throw)"),
              ("fantan_resolution", "fan-tan resolution + a win in cents"),
              ("hand_class_5_card", "jackpot hand classification (5 cards)"),
              ("pool_contribution", "pool contribution"),
              ("round_median", "whole round, median (sic bo)"),
              ("round_worst", "whole round, worst (sic bo)"),
              ("idle_a_round", "idle hook between keys, a round (sic bo)"))
    for key, label in labels:
        n = insns(*counts["counts"][key])
        print("qemu board instructions %-44s %10.0f  = %7.3f ms at %d MHz" % (label, n, n / (MHZ * 1000), MHZ))


if __name__ == "__main__":
    main()
