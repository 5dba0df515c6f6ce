"""The cost of service.verify(seed), the lab's field check, on the qemu board: instructions and heap for the whole medium.

    python -m bench verify          (`make bench` runs it with the rest)

A new qemu board under -icount shift=0,sleep=off (tools/bench/qemu.py says how periods become
instructions: the counts repeat exactly) writes the release's fwmanifest.json (the image's region and
main.py) and hashes the medium as verify() does: HMAC-SHA1, HMAC-SHA256 and each part's SHA-256, a
watchdog feed a KB. Shown as milliseconds at 125 MHz (an RP2040's clock, one instruction a cycle: a
floor), and the heap the call takes.
"""
import json
import pathlib

HERE = pathlib.Path(__file__).resolve().parent
from building import qemu_image as fwbuild
from sim.mcu import run_main

INSNS_PER_PERIOD = 40  # as tools/bench/qemu.py: SYSCLK 25 MHz under 1 ns an instruction
MHZ = 125
MAIN = """import gc, time
from tablectl.service import medium
with open('fwmanifest.json', 'w') as f:
    f.write(%r)
manifest = medium.read_manifest('')
feeds = [0]
def feed():
    feeds[0] += 1
gc.collect()
free = gc.mem_free()
t = time.ticks_cpu()
sha1, sha256, rows = medium.medium(b'\\xa5' * 8, manifest, '', feed)
periods = time.ticks_diff(time.ticks_cpu(), t)
print('VERIFY periods', periods, 'bytes', sum(r[1] for r in rows), 'heap', free - gc.mem_free(), 'feeds', feeds[0])
"""


def main():
    elf = fwbuild.build(quiet=True)
    at, image = fwbuild.image_region(elf)
    # the board's main.py is this bench's own, so the manifest lists only the image (a release's qemu
    # medium adds main.py, 1 KB)
    manifest = json.dumps({"board": "qemu", "files": {}, "image": {"at": at, "bytes": len(image)}}, sort_keys=True)
    out = run_main(MAIN % manifest, "64K", icount=True)
    lines = [line.split() for line in out.splitlines() if line.startswith("VERIFY ")]
    if not lines:
        print("qemu board verify: FAILED\n" + out[-1500:])
        return
    f = lines[0]
    periods, size, heap, feeds = int(f[2]), int(f[4]), int(f[6]), int(f[8])
    n = periods * INSNS_PER_PERIOD
    print("qemu board verify(seed) over %d bytes (image + manifest): %d instructions = %.1f ms at %d MHz "
          "(%d a byte), %d bytes of heap (garbage, the slices' views), %d watchdog feeds" % (size, n, n / (MHZ * 1000), MHZ, n // size, heap, feeds))


if __name__ == "__main__":
    main()
