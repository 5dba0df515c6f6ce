"""Flash wear in steady state and erases inside dealer keys, every controller (CPython: the counts are the
firmware's own and repeat exactly on every run and machine).

    python tools/bench/wear.py [rounds]       (default 4000: the first 1,000 fill the hit history, then >= 3,000)

Each table plays mp/fwround.py's rounds on the sim board's flash geometry (256 blocks of 4 KB, 256-byte pages),
the app's idle hook called between keys as its button task does. Printed per controller: block erases a round
in steady state (after the first 1,000 rounds: hit history full; journal and hash chain included), the life of
a 1 MB region at 2,000 rounds a day and 100,000 cycles a block, erases inside dealer keys (goal 0), and how even
the wear is across the ring (the most and fewest erases of one block).
"""
import pathlib
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
for p in ("boards/sim", "tools/bench/mp", "tools/bench"):  # the board it plays on, and the bench's flat modules
    sys.path.insert(0, str(ROOT / p))

import fwround  # noqa: E402
from tablectl.hw.fileflash import FileFlash  # noqa: E402

WARM = 1000  # rounds before the hit history is full (a hit every 10th round, the last 25 kept)
BLOCKS = 256
CYCLES = 100000
ROUNDS_A_DAY = 2000


class Counted(FileFlash):
    """The sim board's flash file, its erases counted block by block."""

    def __init__(self, path):
        FileFlash.__init__(self, path, blocks=BLOCKS, block_size=4096, prog=256)
        self.per_block = [0] * BLOCKS

    def ioctl(self, op, arg):
        if op == 6:
            self.per_block[arg] += 1
        return FileFlash.ioctl(self, op, arg)


def session(game, rounds, folder):
    flash = Counted(folder + "/flash.bin")
    app = fwround.open_table(game, folder, flash=flash)
    c = app.controller
    inside = [0]
    handle = c.handle

    def key(event):  # a dealer's key, then the idle time before the next one
        before = app.log.erases
        ok = handle(event)
        inside[0] += app.log.erases - before
        while app.idle():
            pass
        return ok

    c.handle = key
    while app.idle():
        pass
    start = 0
    for r in range(rounds):
        if r == WARM:
            start = sum(flash.per_block)
        why = fwround.play(app, r)
        if why:
            raise SystemExit("%s: %s" % (game, why))
    steady = (sum(flash.per_block) - start) / (rounds - WARM)
    return steady, inside[0], max(flash.per_block), min(flash.per_block)


def main(rounds=4000):
    for game in fwround.GAMES:
        with tempfile.TemporaryDirectory(prefix="tablectl_wear_") as folder:
            per, inside, most, fewest = session(game, rounds, folder)
        life = BLOCKS * CYCLES / (per * ROUNDS_A_DAY) / 365.25 if per else float("inf")
        print("wear %-15s %.3f block erases a round in steady state (rounds %d-%d), a 1 MB log lasts %.0f years at "
              "%d rounds a day; %d erases inside dealer keys; one block erased %d-%d times"
              % (game, per, WARM, rounds, life, ROUNDS_A_DAY, inside, fewest, most))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 4000)
