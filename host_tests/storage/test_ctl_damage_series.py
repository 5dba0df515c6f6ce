"""Issue 20's adversaries at table level (App as main.py boots it, on a RAM flash): a damaged settlement of a
straight flush through hundreds of tilted boots on 12, 16 and 64 blocks, a checkpoint frame's length damaged,
every bit of the newest block's header under a settled royal or top award, and multi-cut brown-out series
on 5, 8, 16 and 64 blocks. A tilt from damage is cleared by RAM clear only; an award is paid once; journal
numbers are never reused. CPython only: the series are long (the unix port runs test_ctl_faults)."""
import gc

import board  # boards/sim
import pytest

from harness.bounded import Bounded
from harness.largest import COUP
from harness.progressive import balanced, hit, keys, seats
from harness.ramblockdev import PowerCut, RamBlockDev, log_frames
from harness.tables import drive, keyed
from tablectl import app as appmod
from tablectl import service
from tablectl.config import Config
from tablectl.storage import F_CKPT, F_END, Log
from tablectl.store import Store

BLOCK = 4096
RING = 12  # the fewest 4 KB blocks whose checkpoint room a progressive's records fit (tablectl.bound.checkpoint)


@pytest.fixture(autouse=True)
def quick_boots(monkeypatch):
    """Thousands of boots, each as a board's but faster on CPython: boot's replay module kept loaded (the App drops
    it, and CPython would compile it again at every boot) and the objects alive before the test left out of the
    collections the App makes at every boot."""
    monkeypatch.setattr(appmod, "unload_replay", lambda: False)
    gc.collect()
    gc.freeze()
    yield
    gc.unfreeze()


def boot(dev):
    app = appmod.App(board.make(virtual_clock=True, flash=dev))
    service.use(app)
    return app


def table(game, blocks):
    d = RamBlockDev(block_size=BLOCK, blocks=blocks, prog=256)
    if game != "sicbo":
        Config(Store(Log(d))).change(0, game=game)
    return d, boot(d)


def ram_clear(app):
    return keyed(app, lambda: service.ram_clear(service.ram_clear().data["code"]))


def award(app, game, n=5):
    """A round of seats 3 and 5 with seat 5's hit (Caribbean Stud: keypad class n, 5 a royal; baccarat: the
    coup of its longest class), settled and every award confirmed: the table betting again."""
    seats(app, 3, 5)
    assert drive(app, "LOCK") == [True], app.controller.message
    if game in COUP:
        assert all(keys(app, "H" + COUP[game] + "E")), app.controller.message
    else:
        assert hit(app, 5, n), app.controller.message
    for _ in range(4):
        if app.controller.state == "betting":
            break
        drive(app, "CONFIRM")
    assert app.controller.state == "betting", app.controller.state


def plain(app, rounds=1):
    """Rounds with no hit: LOCK then CONFIRM (the pool grows by the seats' contributions)."""
    for _ in range(rounds):
        seats(app, 3, 5)
        assert drive(app, "LOCK", "CONFIRM") == [True, True], app.controller.message


def pays(app):
    return [r for r in app.journal.records(2000) if r[2] == "pay"]


def seqs_sound(app, above=0):
    """The journal's numbers in the ring rise (none written twice; a gap where entries were lost), its tilts'
    past `above` (the last number written before the damage)."""
    got = app.journal.records(2000)
    assert all(a[0] < b[0] for a, b in zip(got, got[1:])), " ".join(str(r[0]) for r in got)
    tilts = [r[0] for r in got if r[2] == "tilt"]
    assert not tilts or tilts[0] > above, (tilts, above)


def refused_in_tilt(app, why=None):
    assert app.tilt and (why is None or app.tilt == why), (why, app.tilt)
    assert app.controller.state == "tilt"
    for key in ("LOCK", "CONFIRM", "SHAKE", "HIT"):
        assert app.dispatch(key) is False, key
    assert app.controller.pool is None  # no pool in play: never the paid award back in it


def resumes_after_ram_clear(d, app, game, awarded):
    """RAM clear clears the tilt; the pool is back to its seed and balances; a round plays; a reboot keeps it. A
    tilt that may have taken a configuration change (a hole in the log), or that left no configuration record (no
    whole checkpoint), resets it too: configured again."""
    lost = app.config_lost
    assert lost or app.store.peek("config") is not None  # never the defaults offered as the table's own
    told = " ".join(service.ram_clear().lines)
    assert ("keeps the configuration" in told) != lost, told
    assert ram_clear(app).data == {"cleared": True}
    assert app.tilt is None, app.tilt
    if lost:
        assert app.config["game"] == "sicbo" and app.controller.pool is None
        keyed(app, service.configure, game=game)
    pool = app.controller.pool
    assert pool.paid == 0 and pool.contributed == 0 and pool.pool + pool.reserve == pool.seeded
    plain(app)
    assert balanced(app.controller.pool)
    app = boot(d.reboot())
    assert app.tilt is None and app.controller.state == "betting", app.tilt
    assert balanced(app.controller.pool) and app.controller.pool.contributed > 0
    assert len(pays(app)) <= awarded  # the award before the damage paid once at most (the ring may have dropped it)
    seqs_sound(app)
    return app


def settlement(d):
    """(block, offset, length) of the newest frame holding a 'pay' entry: the settlement."""
    got = [f for f in log_frames(d) if f[5] and any(e[2] == "pay" for e in f[5].get("j", ()))]
    return got[-1][0], got[-1][1], got[-1][4]


def test_a_damaged_straight_flush_settlement_tilts_through_every_reboot_until_ram_clear_on_12_16_64_blocks():
    """The frame that settled a straight flush damaged under later frames (the issue: the table played again
    after about 90 reboots on 16 or 64 blocks, 13 on 6, the award back in the pool). Each tilted boot journals
    its tilt: the boots go on until checkpoints have come due in the tilt and the ring has gone round past the
    damaged block (on 64 over 800 boots), every one of them tilted with the same reason. 12 blocks: the fewest
    a progressive is accepted on (the issue's 6 are refused at configuration now). Seen failing with checkpoint()'s
    end frame not carrying the problem ('x'): the table plays at boot 13 (6 blocks, before that refusal) and 88
    (16 and 64), as the issue saw it."""
    for blocks in (RING, 16, 64):
        d, app = table("caribbean_stud", blocks)
        plain(app, 3)
        award(app, "caribbean_stud", 4)
        plain(app, 2)
        block, off, n = settlement(d)
        start = Log(d).bseq
        d.data[block * BLOCK + off + 12 + n // 2] ^= 0x08
        why, boots, ckpts = None, 0, set()
        while True:
            d = d.reboot()
            app = None
            app = boot(d)
            boots += 1
            if why is None:
                why = app.tilt
                assert why and "damaged" in why, why
            assert app.tilt == why, (blocks, boots, app.tilt)
            refused_in_tilt(app, why)
            ckpts.add(app.log.ckpt)
            if app.log.bseq - start > max(blocks + 2, 18):
                break
            assert boots < 60 * blocks, (blocks, boots, app.log.bseq)
        assert len(ckpts) >= 3 and boots > 150, (blocks, boots, sorted(ckpts))  # checkpoints came due in the tilt
        assert app.log._bseq(block) > start  # the damaged frame's block erased and used again in the tilt
        resumes_after_ram_clear(d, app, "caribbean_stud", 1)
    service.use(None)


def header_cases(every_bit):
    """Damage to a block's 16-byte header, as (offset, xor mask) lists: every bit (or a bit a byte), every byte
    zeroed, 0xFF, garbage."""
    cases = [[(i, 1 << b)] for i in range(16) for b in (range(8) if every_bit else (i % 8,))]
    return cases + [[(i, 0xFF) for i in range(16)], [(i, 0x5A ^ (i * 29 & 0xFF)) for i in range(16)], "zero", "ones"]


def newest_award(d, app, game, roomy):
    """Play until an award's settlement (sic bo: a round's) and the frames confirming it are the newest block's,
    with room (roomy) or none for a tilted boot's frame in the block before it; the head block."""
    for _ in range(60):
        if game == "sicbo":
            sic_bo(app)
        else:
            plain(app)
            award(app, game)
        log = Log(d)
        head, prev = log.head, (log.head - 1) % log.blocks
        if game != "sicbo" and settlement(d)[0] != head or game == "sicbo" and log.pos < 1024:
            continue
        last = [f for f in log_frames(d, payloads=False) if f[0] == prev]
        if last and (log.align(last[-1][1] + 16 + last[-1][4]) + 256 <= BLOCK) == roomy:
            return head
    raise AssertionError((game, roomy))


def test_every_bit_of_the_newest_blocks_header_under_a_settled_top_award_is_a_tilt_never_a_second_payment():
    """A Caribbean Stud royal (and baccarat A's top coup) settled in the newest block, a round after it; its header
    damaged (each bit, zeroed, all ones, garbage): the issue saw the round come back unpaid, CONFIRM pay it again,
    journal numbers reused. Now every boot is tilted (the tilted boots' entries taken by the block before it where
    it has room, refused where it has none), the award stays paid once, no tilt entry takes a number written
    before, and RAM clear resumes a consistent table; the first tilted boot is cut after its first flash operation.
    Seen failing before the fix in replay and writer: the first tilted boot's entry numbered 13 again (20
    written), and the second, the block before full, erased the damaged block (its header bad: taken as free
    space) so that the third boot played, the royal unpaid in the pool; with the log's numbers going on past the
    block's frames but the block not kept (Log._keep), the cut boot erased it and the next boot played."""
    for game, blocks, roomy, every_bit, boots in (("caribbean_stud", RING, False, True, 3),
                                                  ("caribbean_stud", RING, True, False, 24),
                                                  ("baccarat_a", RING, False, False, 3),
                                                  ("baccarat_a", RING, True, False, 24)):
        d, app = table(game, blocks)
        head = newest_award(d, app, game, roomy)
        before, paid = app.journal.seq, len(pays(app))
        pool = app.controller.pool
        assert paid >= 1 and pool.paid > 0 and balanced(pool)
        image = d.snapshot()
        for case in header_cases(every_bit):
            d.restore(image)
            if case == "zero":
                d.data[head * BLOCK:head * BLOCK + 16] = bytes(16)
            elif case == "ones":
                d.data[head * BLOCK:head * BLOCK + 16] = b"\xff" * 16
            else:
                for i, mask in case:
                    d.data[head * BLOCK + i] ^= mask
            d = d.reboot()  # a first tilted boot whose first flash operation is its last: the power fails after it
            d.cut_after(1, BLOCK)
            try:
                boot(d)
            except PowerCut:
                pass
            journalled = 0
            for k in range(boots):
                d = d.reboot()
                app = None
                app = boot(d)
                assert app.tilt, (game, roomy, case, k, app.controller.state, app.journal.seq)
                refused_in_tilt(app)
                seqs_sound(app, before)  # a tilted boot's entry, if the flash takes it, numbered past the rest
                assert len(pays(app)) <= paid
                journalled = app.journal.seq - before if app.journal.seq > before else journalled
            assert (journalled > 0) == roomy, (game, roomy, case, journalled)
            app = resumes_after_ram_clear(d, app, game, paid)
            assert app.journal.seq > before
    service.use(None)


def newest_checkpoint(d):
    """The frames of the newest whole checkpoint (its parts and its end) as log_frames gives them."""
    frames = log_frames(d, payloads=False)
    end = max(i for i, f in enumerate(frames) if f[2] is not None and f[2] & F_END)
    first = end
    while first and frames[first - 1][2] is not None and frames[first - 1][2] & F_CKPT:
        first -= 1
    return frames[first:end + 1], len(frames) - end - 1


def forge_length(d, block, off, n):
    """The frame's length set to n with its header's CRC made right again (as a writer that knew the format)."""
    import struct
    from tablectl.crc import crc32
    hdr = bytearray(12)
    d.readblocks(block, hdr, off)
    struct.pack_into("<H", hdr, 0, n)
    struct.pack_into("<I", hdr, 8, crc32(bytes(hdr[:8])))
    d.data[block * BLOCK + off:block * BLOCK + off + 12] = hdr


def test_a_checkpoint_frames_length_damaged_is_a_tilt_through_any_number_of_reboots_until_ram_clear():
    """The length field of each frame of the newest checkpoint (its parts and its end), later frames after it: each
    bit of its two bytes flipped, zeroed, 0xFF, or a length forged with the header's CRC right (one more, one less,
    a page more; not one that swallows the rest of the block: that is the newest frames removed, which only the
    exported journal reveals, docs/storage.md). The issue saw such a tilt gone after one reboot. Every boot after it is
    the same tilt: three in a row for every case, and for a byte's lowest bit and the forged lengths, tilted boots
    until the ring has gone round twice with checkpoints of its own; RAM clear then resumes play. Seen failing
    with checkpoint()'s end frame not carrying the problem ('x')."""
    for game, blocks in (("caribbean_stud", RING), ("sicbo", 8)):
        d, app = table(game, blocks)
        for _ in range(200):  # until the ring's own checkpoint (not the first one) lies under a round of frames
            (plain if game != "sicbo" else sic_bo)(app)
            ckpt, after = newest_checkpoint(d)
            if Log(d).bseq > 2 and after >= 3:
                break
        image = d.snapshot()
        start = Log(d).bseq
        for f in ckpt:
            block, off, flags, seq, n = f[:5]
            cases = [("bit", i, 1 << b) for i in (0, 1) for b in range(8)]
            cases += [("set", i, v) for i in (0, 1) for v in (0, 0xFF, 0xA5)]
            cases += [("forge", n + 1), ("forge", n - 1), ("forge", n + 256)]
            for case in cases:
                d.restore(image)
                at = block * BLOCK + off
                if case[0] == "bit":
                    d.data[at + case[1]] ^= case[2]
                elif case[0] == "set":
                    if d.data[at + case[1]] == case[2]:
                        continue  # no damage
                    d.data[at + case[1]] = case[2]
                else:
                    forge_length(d, block, off, case[1])
                long = case[0] == "forge" or (case[0] == "bit" and case[2] == 1)
                why, boots = None, 0
                while True:
                    d = d.reboot()
                    app = None
                    app = boot(d)
                    boots += 1
                    why = why or app.tilt
                    assert why and app.tilt == why, (game, flags, case, boots, app.tilt)
                    refused_in_tilt(app)
                    if boots >= 3 and (not long or app.log.bseq - start > 2 * blocks):
                        break
                    assert boots < 40 * blocks, (game, case, boots)
                resumes_after_ram_clear(d, app, game, 0) if game != "sicbo" else sic_bo_resumes(d, app)
    service.use(None)


def sic_bo(app, rounds=1):
    for r in range(rounds):
        assert app.dispatch("SHAKE") is True
        app.board.clock.advance(app.config["shake_ms"])
        app.tick()
        for e in ("BELL", "1", "2", str(r % 6 + 1), "ENTER", "CONFIRM"):
            assert app.dispatch(e) is True, e


def sic_bo_resumes(d, app):
    assert ram_clear(app).data == {"cleared": True} and app.tilt is None, app.tilt
    if app.config["game"] != "sicbo":
        keyed(app, service.configure, game="sicbo")
    sic_bo(app, 2)
    app = boot(d.reboot())
    assert app.tilt is None and app.meters.rounds == 2, app.tilt


def clean_boot(d):
    """How many programs and erases a boot makes on a copy of the flash as it stands, and its tilt."""
    copy = RamBlockDev(d.block_size, d.blocks, bytearray(d.data), d.prog)
    tilt = boot(copy).tilt
    return copy.ops, tilt


def test_brownout_boot_series_after_a_torn_settlement_on_5_8_16_and_64_blocks_end_in_play():
    """A sic bo settlement torn by a power cut, then boot after boot (three turns of the ring's block count) each
    cut at one of its own programs and erases in turn (the count a clean boot would make there, measured on a copy),
    the cut leaving the operation half done, not done, done, or noisy: a boot with the supply steady would resume
    play at every point, and the one after the series resumes the round as it was before the tear, journals the
    torn write, pays once and plays on. (test_ctl_faults holds 5 and 8 blocks with the first three operations;
    the log alone, test_log_faults.) Seen failing with every boot after a tear starting a new block (the issue's
    defect 1): on 5 blocks the sixth boot is the tilt 'flash log full'."""
    for blocks in (5, 8, 16, 64):
        d, app = table("sicbo", blocks)
        sic_bo(app, 4 * blocks)  # the ring has gone round: the boots erase blocks the log used
        assert app.dispatch("SHAKE") is True
        app.board.clock.advance(app.config["shake_ms"])
        app.tick()
        for e in ("BELL", "4", "5", "6"):
            app.dispatch(e)
        before, rounds = app.controller.record(), app.meters.rounds
        d.cut_after(1)
        try:
            app.dispatch("ENTER")
        except PowerCut:
            pass
        cuts, at = set(), 1
        for k in range(3 * blocks):
            d = d.reboot()
            n, tilt = clean_boot(d)
            assert n >= 1 and tilt is None, (blocks, k, tilt)  # the supply steadying now would resume play
            at = min(at, n)  # the next of the boot's operations (those of a boot that checkpoints, in turn)
            cuts.add((n, at))
            d.cut_after(at, (None, 0, BLOCK, None)[k % 4], (0, 0, 0, k + 1)[k % 4])
            at = at + 1 if at < n else 1
            app = None
            try:
                boot(d)
            except PowerCut:
                pass
        d = d.reboot()
        app = None
        app = boot(d)
        assert app.tilt is None, (blocks, app.tilt, sorted(cuts))
        assert app.controller.record() == before, blocks
        assert "torn_write" in [r[2] for r in app.journal.records(100)]
        for e in ("4", "5", "6", "ENTER", "CONFIRM"):
            assert app.dispatch(e) is True, (blocks, e)
        sic_bo(app, 2)
        app = boot(d.reboot())
        assert app.tilt is None and app.meters.rounds == rounds + 3, (blocks, app.tilt)
        seqs_sound(app)
    service.use(None)


def test_the_largest_records_each_progressive_accepts_play_on_the_smallest_ring_within_its_blocks():
    """Each progressive at the longest history configure() accepts (one more refused in one line), on the smallest
    ring it accepts (RING blocks; on fewer, configure() refuses a progressive) of a flash that refuses a program past its block: seven seats hitting every round with their
    cards until the history is full, the ring going round with its checkpoints; no step refused, nothing written
    outside its block, and a reboot resumes the very record. Seen failing with _frame() advancing once, not
    checking the fit again (the issue's defect 6): IndexError, a page programmed past the block."""
    from harness.largest import largest
    for game in ("caribbean_stud", "baccarat_a", "baccarat_b", "baccarat_c"):
        d = Bounded(block_size=BLOCK, blocks=RING, prog=256)
        cfg = {"game": game, "hit_cards_cents": 0, "supervisor": "none", "seed_cents": 100000}
        if game == "caribbean_stud":
            cfg["fixed_straight_flush"] = 200000  # the lifetime meters below 2**30 cents after hundreds of awards
        hist, why = 50, ""
        while hist:
            try:
                Config(Store(Log(d))).change(0, history_len=hist, **cfg)
                break
            except ValueError as e:
                why = str(e)
                hist -= 1
        assert hist >= 20 and why.startswith("record 'round' needs") and "\n" not in why, (game, hist, why)
        app = boot(d)
        most = {}
        largest(app, game, 7, hist + 6, most)
        assert not app.refused and app.tilt is None, (game, app.refused, app.tilt)
        assert app.log.bseq > 10 and most["round"] > 2000, (game, app.log.bseq, most)
        rec = app.controller.record()
        app = None
        again = boot(d.reboot())
        assert again.tilt is None and again.controller.record() == rec, (game, again.tilt)
    service.use(None)


def test_an_older_blocks_header_damaged_is_a_tilt_or_the_state_untouched_through_reboots_and_a_cut_boot():
    """Every byte of the header of the block before the newest (a bit flipped), and the magic, version, sequence
    and CRC bytes and the whole header zeroed of every other block, on a ring that has gone round: the first boot
    after it cut after its first flash operation, then three boots. Each is either a tilt (the block held live
    state), which no later boot clears and RAM clear does, or the table exactly as before with journal numbers
    going on (the block was older than the newest checkpoint: its entries lost to journal()); never an older
    state."""
    for game, blocks in (("caribbean_stud", RING), ("sicbo", 5)):
        d, app = table(game, blocks)
        step = plain if game != "sicbo" else sic_bo
        while app.log.bseq < 2 * blocks + 2:
            step(app)
        if game != "sicbo":
            award(app, game)
        step(app)
        want, seq, head = app.controller.record(), app.journal.seq, app.log.head
        image = d.snapshot()
        cases = [(1, [(i, 1 << (i % 8))]) for i in range(16)]
        cases += [(back, [(i, 1 << back % 8)]) for back in range(2, blocks) for i in (0, 4, 8, 12)]
        cases += [(back, "zero") for back in range(1, blocks)]
        tilts = 0
        for back, damage in cases:
            d.restore(image)
            at = (head - back) % blocks * BLOCK
            if damage == "zero":
                d.data[at:at + 16] = bytes(16)
            else:
                for i, mask in damage:
                    d.data[at + i] ^= mask
            d = d.reboot()
            d.cut_after(1, BLOCK)
            try:
                boot(d)
            except PowerCut:
                pass
            why = None
            for k in range(3):
                d = d.reboot()
                app = None
                app = boot(d)
                if why or app.tilt:
                    why = why or app.tilt
                    assert app.tilt, (game, back, damage, k)
                    refused_in_tilt(app)
                else:
                    assert app.controller.record() == want, (game, back, damage, k)
                    assert app.journal.seq > seq
                    seqs_sound(app)
            if why:
                tilts += 1
                if game == "sicbo":
                    sic_bo_resumes(d, app)
                else:
                    resumes_after_ram_clear(d, app, game, 1)
        assert 0 < tilts < len(cases), (game, tilts, len(cases))
    service.use(None)


def ram_clear_cut_everywhere(d, tilted_boot, why):
    """From the flash of a tilted table: its RAM clear cut at each of its programs and erases in turn (half done,
    or noisy), each cut followed by a boot that is the same tilt or the table cleared (never an exception out of
    App(), never the state before the damage), then by a RAM clear that clears it and a round."""
    image = d.snapshot()
    n, _ = clean_boot(d)
    d = d.reboot()
    app = boot(d)
    ops = d.ops
    code = service.ram_clear().data["code"]
    keyed(app, service.ram_clear, code)
    total = d.ops - ops
    assert total >= 2, total
    cleared = 0
    for at in range(1, total + 1):
        for done, noise in ((None, 0), (None, at)):
            d.restore(image)
            d = d.reboot()
            app = boot(d)
            assert app.tilt == why, (at, app.tilt)
            code = service.ram_clear().data["code"]
            d.cut_after(at, done, noise)
            try:
                keyed(app, service.ram_clear, code)
            except PowerCut:
                pass
            d = d.reboot()
            app = None
            app = boot(d)
            if app.tilt is None:  # the clear's end frame whole: cleared
                cleared += 1
                assert app.meters.rounds == 0, (at, app.meters.rounds)
            else:
                assert app.tilt == why or "damaged" in app.tilt, (at, app.tilt)  # the copy named where it is now
                refused_in_tilt(app)
                assert ram_clear(app).data == {"cleared": True} and app.tilt is None, (at, app.tilt)
            if app.config["game"] != "sicbo":
                keyed(app, service.configure, game="sicbo")
            sic_bo(app, 1)
            again = boot(d.reboot())
            assert again.tilt is None and again.meters.rounds == 1, (at, again.tilt)
    return total, cleared


def test_a_ram_clear_cut_at_each_operation_from_a_damaged_checkpoint_or_a_copied_block_tilt_ends_cleared():
    """The issue's second faults during recovery: the RAM clear of the smallest rings with its own checkpoint
    damaged (5 and 8 blocks), of a newest block overwritten by its neighbour (16 and 64 blocks) and of a block
    copied far from the head (8 blocks), cut at each of its programs and erases (its checkpoint's frames, the
    copy's erase): every boot after the cut is a tilt or the table cleared, never in play as before the clear,
    and a RAM clear then clears it. Seen failing before the fix in replay and writer: the clear erased the copy
    first (or, the newest overwritten, the ring's next block was the copy): cut there, the table played on with
    its 48 rounds, the copy gone and no RAM clear done."""
    for blocks, kind in ((5, "checkpoint"), (8, "checkpoint"), (16, "copy"), (64, "copy"), (8, "far"), (5, "header"),
                         (16, "header")):
        d, app = table("sicbo", blocks)
        if kind == "checkpoint":
            sic_bo(app, 7)
            ram_clear(app)
            sic_bo(app, 1)
            end = [f for f in log_frames(d, payloads=False) if f[2] is not None and f[2] & F_END][-1]
            d.data[end[0] * BLOCK + end[1] + 12 + end[4] // 2] ^= 0x20
        elif kind == "header":  # the newest block's, the block before it full (newest_award(roomy=False))
            head = newest_award(d, app, "sicbo", False)
            d.data[head * BLOCK + 9] ^= 0x40
        else:
            while app.log.bseq < blocks + 3:
                sic_bo(app, 5)
            head = app.log.head
            src, dst = ((head - 1) % blocks, head) if kind == "copy" else ((head - 2) % blocks, (head - 6) % blocks)
            d.data[dst * BLOCK:(dst + 1) * BLOCK] = d.data[src * BLOCK:(src + 1) * BLOCK]
        d = d.reboot()
        app = None
        app = boot(d)
        why = app.tilt
        assert why, (blocks, kind)
        total, cleared = ram_clear_cut_everywhere(d, boot, why)
        assert 0 < cleared < 2 * total, (blocks, kind, total, cleared)
    service.use(None)
