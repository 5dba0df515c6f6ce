"""Every controller runs a long session (200 rounds, the bench's) booted by main.py as a board boots it, from the
.mpy files of build/sim, within a fixed heap, on two ports; and the flash it writes lasts.

The table boots through main.py exactly as on a board (board.make(), App(board), its tasks), with nothing
imported or collected for it first; the sim board's session task (tools/bench/mp/fwsession.py) plays the
rounds beside the controller's own tasks (sic bo/fish-prawn-crab: shake, bell, three dice, result, confirm;
fan-tan: count, result, confirm; progressive: seat sensors, lock, a hit every 10th round paid in order; a
void every 7th round), checks every round ends back at the idle state with the pool balanced (pool +
reserve + paid == seeded + contributed), and prints the figures.

On a board: the 32-bit unix port with a ROMFS partition (tools/building/romfs_port), the .mpy files in a ROMFS
image run in place, as a board with ROMFS runs them from flash: a 64 KB heap, or the heap ROMFS_K names
where this tree needs more (a board's 64 KB is not met there: docs/figures.md). Fan-tan completed in 62 KB
on an idle machine; since issue 20's step bound and boot check (config.py's larger code: its names are interned
in the heap on this port; with the check itself off it still failed) it fails about one run in two at 64 (out of
memory in a round's journal chain): held to 66.
On the 64-bit unix port from PyPI, the .mpy files loaded from the filesystem into the heap: HEAP_K is the smallest heap each session completed in there (`make bench`,
4 KB steps) plus 12 KB, so the footprint reached cannot grow back unnoticed; no less, because the controller's
own tasks run on real time and a loaded machine's session allocates more between rounds (sic bo failed in
its smallest heap under load).
Flash wear: at most one block erase a round on average for every controller, journal included.
"""
import importlib.util
import pathlib

import pytest

from harness import mpy

_spec = importlib.util.spec_from_file_location("bench_firmware", mpy.ROOT / "tools" / "bench" / "firmware.py")
fwbench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fwbench)

# measured after the cycle's merges (the stamped entries, the hit entry, the idle collection): 176, 176, 164,
# 204, 204, 208 KB, each plus 12
HEAP_K = {"sicbo": 188, "fish_prawn_crab": 188, "fantan": 176, "caribbean_stud": 216, "fortune3": 216,
          "baccarat_a": 220}
ROUNDS = 200


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    mpy.ensure_build()
    folder = tmp_path_factory.mktemp("long_session")
    fwbench.prepare(folder)
    return folder


@pytest.fixture(scope="module")
def board_work(work):
    """`work` with the ROMFS image of build/sim, and the 32-bit ROMFS port built (make rom32)."""
    mpy.rom32()
    fwbench.prepare_rom(pathlib.Path(work))
    return work


# The progressives complete in 64 KB on this port in most runs, not in all: 62 KB fails, and asyncio's clock is
# the host's, so the order of the tasks' allocations (and the heap's fragments) differs from run to run. They
# are held to 66 KB here; the frozen image holds them to 64 KB with room to spare (test_qemu_board). Since a hit
# is its cards (issue 21: the hit entry, its checks, every locked baccarat seat winning the coup, so five awards
# and five meter entries a hit round where the session paid one) they are held to 70 KB, baccarat to 72 KB.
# Sic bo and fish-prawn-crab, after the merges of the same cycle (interrupt-latched keys, corrections, the
# flash log's refusals and idle erase), complete in 66 and 64 KB: held to 68 and 66. Counted over 30 fresh
# tables (tools/bench/firmware.py --heap-runs), all 30 complete from 70 KB for Caribbean Stud, 72 for Fortune 3
# and 74 for baccarat A (at 72 baccarat fails about one run in five, the tree before issue 24's key changes
# too): held 2 KB above, as the dice tables.
# Issue 26 (each entry stamped with its time and epoch, the board's clock): fish-prawn-crab and the progressives
# 2 KB more. Counted again over 30 fresh tables after it (2026-12-02, a loaded machine): all 30 from 68 KB for
# sic bo, 74 for Caribbean Stud and Fortune 3, 76 for baccarat A. Issue 20's storage package (six modules where
# log.py was one: about 1.5 KB more of module objects on this port once boot's replay is dropped; sic bo then
# failed at 68 and passed at 72): each 2 KB above those 30-run figures plus the package's 2 KB. Fan-tan: 66 (above).
ROMFS_K = {"sicbo": 72, "fish_prawn_crab": 72, "fantan": 66, "caribbean_stud": 78, "fortune3": 78, "baccarat_a": 80}


@pytest.mark.rom32
@pytest.mark.parametrize("game,heap_k", [(g, ROMFS_K.get(g, 64)) for g in fwbench.GAMES])
def test_long_session_on_a_32bit_romfs_board_within_its_heap(game, heap_k, board_work):
    fig = fwbench.run_session(game, heap_k, pathlib.Path(board_work), ROUNDS, port="rom32")
    assert fig is not None, "%s: %d rounds did not complete in a %d KB heap on the 32-bit ROMFS port" % (
        game, ROUNDS, heap_k)
    assert fig["rom"] == 1  # the firmware ran from the ROMFS image, not from a folder of this machine
    assert fig["rounds"] == ROUNDS
    # every round saved its record with its journal entries (SB-3, FT-4, CSP-10: nothing is lost)
    assert fig["frames"] >= 2 * ROUNDS and fig["journal"] >= 2 * ROUNDS
    assert fig["heap_used"] < heap_k * 1024
    # flash wear: at most one erase a round, 4 KB blocks programmed in 256-byte pages, as a Pico's flash
    assert fig["erases"] <= ROUNDS, fig


def test_every_controller_of_the_bench_has_a_heap_budget():
    assert set(HEAP_K) == set(fwbench.GAMES)


@pytest.mark.parametrize("game", sorted(HEAP_K))
def test_long_session_within_its_heap(game, work):
    fig = fwbench.run_session(game, HEAP_K[game], pathlib.Path(work), ROUNDS)
    assert fig is not None, "%s: %d rounds did not complete in a %d KB heap" % (game, ROUNDS, HEAP_K[game])
    assert fig["rounds"] == ROUNDS
    assert fig["frames"] >= 2 * ROUNDS and fig["journal"] >= 2 * ROUNDS
    assert fig["heap_used"] < HEAP_K[game] * 1024
