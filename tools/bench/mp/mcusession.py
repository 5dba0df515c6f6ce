"""The bench's session on the qemu board, frozen into its image with fwround (boards/qemu/manifest.py) so that
only the table's data takes heap, as the firmware's own code does not: tools/bench/qemu.py boots the board
with a main.py that calls run(game, rounds, counts).

run() plays fwround's ROUNDS rounds of `game`, then prints the technician's reports (status, meters,
history, journal, config), and says `BENCH game ... heap_used N` (or dies of MemoryError, which the
host sees as no BENCH line). counts=True also measures, in SYSCLK periods of time.ticks_cpu() (under
qemu's -icount shift=0 one period is 40 instructions), every dealer's key from its press to the
controller's return, with the pages it programmed, the blocks it erased and the flash's busy time by the
datasheet (`KEY label periods pages erases typ_us max_us`), whole rounds, then the rules core's hot
paths: `COUNT name periods calls`. The dealer pauses before every key but one that follows a digit (a
number and its ENTER are typed in a run), and the App's idle hook runs there as the button task runs it
after a quiet second (the log's erase ahead and checkpoint, a collection): counted apart, `idle_a_round`.
"""
import array
import gc
import os
import time

from fwround import open_table, play

REPORTS = ("status()", "meters()", "history(20)", "journal(20)", "config()")


def _fresh(root):
    try:
        names = os.listdir(root)
    except OSError:
        os.mkdir(root)
        return
    for n in names:
        os.remove(root + "/" + n)


def _sort(a, n):
    for i in range(1, n):  # in place: sorted() would want a list as long as the session
        v, j = a[i], i - 1
        while j >= 0 and a[j] > v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v


LABELS = ("SHAKE", "BELL", "digit", "ENTER", "CONFIRM", "LOCK", "HIT_entry", "VOID", "other", "VOID_ENTER")


def label(c, event):
    """The figure a key counts under: the hit entry's keys apart from the round's (progressive.py's step), and
    a progressive's ENTER that takes the void kind picked (the void round settled, as CONFIRM settles one)."""
    if event == "HIT" or getattr(c, "step", ""):
        return 6
    if event == "ENTER" and getattr(c, "voiding", 0):
        return 9
    if event.isdigit():
        return 2
    if event == "VOID_LONG":
        return 7
    return LABELS.index(event) if event in LABELS else 8


def run(game, rounds, counts=False, root="/bench"):
    _fresh(root)
    gc.collect()
    whole = array.array("I", bytes(4 * rounds))
    import mps2
    from flashmap import RECORDS
    flash = mps2.Flash(*RECORDS)  # the board's records region: erased on a new flash
    app = open_table(game, root, flash)
    c = app.controller
    handle = c.handle
    spent = [0]  # periods the measuring itself took, this round: not the round's
    idle = [0, False]  # periods of the idle hook's work, all rounds; the last key was a digit

    def measured(ev):
        m = time.ticks_cpu()
        if not idle[1]:  # a pause before the key, the idle hook's (erase ahead, checkpoint, collection)
            while app.idle():
                pass
            idle[0] += time.ticks_diff(time.ticks_cpu(), m)
        idle[1] = ev.isdigit()  # a number is typed in a run, its ENTER too: no pause after a digit
        name = LABELS[label(c, ev)]
        p0, e0, (t0, m0) = flash.pages(), flash.erases(), flash.busy_us()
        k0 = time.ticks_cpu()
        taken = handle(ev)
        k1 = time.ticks_cpu()
        t1, m1 = flash.busy_us()
        # printed at once (no table of keys in the heap): the host sorts them (tools/bench/qemu.py)
        print("KEY", name, time.ticks_diff(k1, k0), flash.pages() - p0, flash.erases() - e0, t1 - t0, m1 - m0)
        spent[0] += time.ticks_diff(time.ticks_cpu(), m) - time.ticks_diff(k1, k0)
        return taken

    if counts:
        c.handle = measured  # every key of the session, fwround's and the hit entry's alike
    for r in range(rounds):
        spent[0] = 0
        t0 = time.ticks_cpu()
        failed = play(app, r)
        whole[r] = time.ticks_diff(time.ticks_cpu(), t0) - spent[0]
        if failed:
            print("BENCH-FAIL", failed)
            return
    import service
    import sys
    for expr in REPORTS:  # a line at a time, as the board's REPL (simrepl) shows a report
        eval("service." + expr, {"service": service}).emit(sys.stdout.write)
    gc.collect()
    print("BENCH", game, "rounds", rounds, "heap_used", gc.mem_alloc(), "heap_free", gc.mem_free())
    if counts:
        _sort(whole, rounds)
        print("COUNT round_median", whole[rounds // 2], 1)
        print("COUNT round_worst", whole[rounds - 1], 1)
        print("COUNT idle_a_round", idle[0], rounds)
        app = c = handle = whole = None
        gc.collect()
        core_counts()


def _count(name, fn, calls):
    gc.collect()
    t0 = time.ticks_cpu()
    fn()
    print("COUNT", name, time.ticks_diff(time.ticks_cpu(), t0), calls)


def core_counts():
    """The rules core's hot paths, as tools/bench/core.py times them on the unix port."""
    from tablectl.rules import awards, dice, fantan, hands, pool
    table = dice.DiceTable("sicbo")

    def dice_loop():
        r = table.resolve
        for d1 in range(1, 7):
            for d2 in range(1, 7):
                for d3 in range(1, 7):
                    r(d1, d2, d3)
    _count("dice_resolution", dice_loop, 216)

    def fantan_loop():
        res, win = fantan.resolve, fantan.win_cents
        for _ in range(25):
            for r in (1, 2, 3, 4):
                w, p = res(r)
                win(w[0], 10000)
    _count("fantan_resolution", fantan_loop, 100)

    five = ((12, 25, 38, 51, 3), (0, 1, 2, 3, 4), (8, 9, 10, 11, 12), (5, 18, 31, 44, 7), (2, 15, 28, 40, 51))

    def classify_loop():
        c = hands.classify5
        for _ in range(20):
            for h in five:
                c(h)
    _count("hand_class_5_card", classify_loop, 100)

    p = pool.Pool(**awards.config_for("caribbean_stud", 500000, 1750, 10 ** 9,
                                       {"flush": 5000, "full_house": 7500, "four_of_a_kind": 10000}))

    def contribute_loop():
        c = p.contribute
        for bet in range(100, 200):
            c(bet)
    _count("pool_contribution", contribute_loop, 100)

    def empty_loop():
        for _ in range(100):
            pass
    _count("empty_loop_100", empty_loop, 100)
