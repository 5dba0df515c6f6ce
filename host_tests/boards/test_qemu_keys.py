"""The qemu board as a Pico's stand-in: its image is ARMv6-M code (the RP2040's Cortex-M0+), its flash counts
pages and erases with the W25Q16JV's timing (the sim board's FileFlash has the same model), and the bench's
counted session gives every dealer's key its own figures, the same on two fresh flash images."""
import concurrent.futures
import re
import subprocess

import pytest

from building import qemu_image as fwbuild
from sim.mcu import run_main
from tablectl.hw import fileflash

pytestmark = pytest.mark.qemu
COUNTED = "import mcusession\nmcusession.run('sicbo', 40, True)\n"  # fwround's rounds, every key timed
THUMB2_ONLY = re.compile(r"\t(cbn?z|it[et]*|(ldr|str|add|sub|mov|b|bl|cmp|and|orr)[a-z]*\.w)\s")


@pytest.fixture(scope="module")
def image():
    return fwbuild.build()


def test_the_default_image_is_armv6m_code_with_thumb1_gc_helper(image):
    asm = subprocess.run(["arm-none-eabi-objdump", "-d", str(image)], capture_output=True, text=True,
                         check=True).stdout
    assert "<gc_helper_get_regs_and_sp>:" in asm and "mp_execute_bytecode" in asm
    found = THUMB2_ONLY.findall(asm)  # Thumb-2's wide and conditional forms: an M0+ faults on them
    assert not found, found[:5]
    attrs = subprocess.run(["arm-none-eabi-readelf", "-A", str(image)], capture_output=True, text=True).stdout
    assert "Tag_CPU_arch_profile: Microcontroller" in attrs and "v7" not in attrs, attrs


def test_an_unknown_cpu_is_refused_before_anything_is_built():
    with pytest.raises(SystemExit, match="m0plus, m3"):
        fwbuild.build(cpu="m4")
    assert fwbuild.out_dir(cpu="m3").name == "firmware-qemu-m3" and fwbuild.out_dir() == fwbuild.OUT


def test_the_board_flash_counts_pages_and_erases_with_the_sim_boards_timing(image):
    # the same operations on the qemu board's mps2.Flash and on the sim board's FileFlash
    ops = ("f.ioctl(6, 0)\nf.writeblocks(0, bytes(512), 256)\nf.writeblocks(1, bytes(256), 3840)\n"
           "f.writeblocks(1, bytes(4096))\n")  # the last without an offset: erase, then 16 pages
    out = run_main("import mps2\nf = mps2.Flash(1048576, 8192)\n" + ops +
                   "print('FLASH', f.pages(), f.erases(), f.busy_us())\n", "64K", icount=True)
    m = re.search(r"FLASH (\d+) (\d+) \((\d+), (\d+)\)", out)
    assert m, out[-800:]
    pages, erases, typ, most = (int(v) for v in m.groups())
    assert (pages, erases) == (2 + 1 + 16, 2)
    assert (typ, most) == (19 * 400 + 2 * 45000, 19 * 3000 + 2 * 400000)
    ff = fileflash.FileFlash.__new__(fileflash.FileFlash)
    ff.pages, ff.erases = pages, erases
    assert ff.busy_us() == (typ, most)  # one model on both boards


def keys(out):
    return [tuple(line.split()[1:]) for line in out.splitlines() if line.startswith("KEY ")]


def test_every_key_is_counted_apart_and_a_counted_session_repeats_on_fresh_images(image):
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        first, second = pool.map(lambda _: run_main(COUNTED, "64K", icount=True), range(2))
    assert "BENCH sicbo rounds 40 heap_used" in first, first[-1500:]
    k = keys(first)
    by = {}
    for name, periods, pages, erases, typ, most in k:
        by.setdefault(name, []).append((int(periods), int(pages), int(erases), int(typ), int(most)))
    # fwround's sic bo round: SHAKE, BELL, three dice, ENTER, then CONFIRM or (every 7th) VOID
    assert {n: len(v) for n, v in by.items()} == {"SHAKE": 40, "BELL": 40, "digit": 120, "ENTER": 40,
                                                  "CONFIRM": 35, "VOID": 5}
    assert all(p >= 1 for _, p, _, _, _ in by["CONFIRM"])  # a settlement is written
    assert all(p == e == 0 for _, p, e, _, _ in by["digit"])  # a digit only shows
    # the idle hook runs in the dealer's pauses (mcusession): the erases ahead are made there, never in a key
    assert sum(e for rows in by.values() for _, _, e, _, _ in rows) == 0
    assert re.search(r"COUNT idle_a_round [1-9]\d* 40\n", first), first[-800:]  # and it did work there
    for periods, pages, erases, typ, most in by["CONFIRM"] + by["ENTER"]:
        assert (typ, most) == (pages * 400 + erases * 45000, pages * 3000 + erases * 400000)
    # the same counts, key for key, and the same heap: nothing from the host's clock is in a new image
    assert k == keys(second)
    heap = [re.search(r"heap_used (\d+)", o).group(1) for o in (first, second)]
    assert heap[0] == heap[1]
    assert re.findall(r"COUNT .*", first) == re.findall(r"COUNT .*", second)
