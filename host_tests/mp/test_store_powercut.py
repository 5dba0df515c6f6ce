"""Power cut at every block write of a long progressive session on LittleFS (RAM flash): after each cut the
stored state is the old or the new one, pool + reserve + paid = seeded + contributions to the cent, the
journal holds only entries that were written, and the filesystem takes writes again (issue 5)."""
# mp-heap: 356K
# (the 64 KB RAM flash and its two pictures live in the heap here; on a board the flash is not heap)
from ramblockdev import PowerCut, RamBlockDev, mount_fresh, need_vfs, remount, unmount
from tablectl.config import Config
from tablectl.journal import Journal
from tablectl.meters import Meters
from tablectl.rules import hands
from tablectl.rules.pool import Pool
from tablectl.store import Store

MOUNT = "/pcut"
GAME = "caribbean_stud"
SEED = 500000
LIMIT = 501500  # just above the seed, so contributions overflow into the reserve during the session
BET = 2500
SEATS = 7


def lcg(x):
    """Next state of a small LCG; callers use its high bits (the low ones repeat with short periods)."""
    return (x * 1103515245 + 12345) & 0x7FFFFFFF


def script():
    """The session, the same on every run: (action, argument) pairs over 14 rounds with locks,
    void rounds (the locked bets carried), technician changes (pending until the next hit), flushes
    (a fixed award) and royal flushes (the whole pool, restarted from the seed)."""
    steps = []
    x = 7
    for r in range(14):
        x = lcg(x)
        seats = 1 + (x >> 16) % SEATS
        steps.append(("lock", seats))
        x = lcg(x)
        if (x >> 16) % 5 == 0:
            steps.append(("void", 0))
            steps.append(("lock", seats))  # the same bets, carried: counted once (CSP-11.1)
        x = lcg(x)
        if (x >> 16) % 4 == 0:
            steps.append(("config", 1000 + 37 * len(steps)))  # a rate never set before
        x = lcg(x)
        end = (x >> 16) % 6
        steps.append(("hit", hands.ROYAL if end == 0 else hands.FLUSH) if end < 3 else ("end", 0))
    return steps


def pool_of(cfg, rec):
    params = cfg.pool_params()
    return Pool.from_state(params, rec["p"]) if rec["p"] else Pool(**params)


def step(action, arg, store, journal, cfg):
    """One step as a controller does it: from the stored round record to the next one, saved as
    one record, then pending configuration, then the journal."""
    rec = store.load("round") or {"round": 1, "p": None, "m": Meters().state()}
    pool = pool_of(cfg, rec)
    meters = Meters.from_state(rec["m"])
    round_no = rec["round"]
    if action == "config":
        cfg.change(round_no, rate_bp=arg)
        return
    if action == "lock":
        carried = pool.carried
        pool.lock([BET] * arg + [0] * (SEATS - arg))
        if not carried:
            meters.bet(arg)
    elif action == "void":
        pool.void_round()
        meters.void()
    else:
        paid = pool.settle([(1, arg)] if action == "hit" else [])
        for seat, cls, cents in paid:
            meters.hit(round_no, seat, hands.CLASS_IDS[cls], cents)
        meters.round_done()
        round_no += 1
    store.save("round", {"round": round_no, "p": list(pool.state()), "m": meters.state()})
    if action == "hit":
        cfg.apply_pending(round_no)  # after the hit's record: a cut between leaves it pending, never early
    journal.append(action, round_no, arg, pool.pool)


def boot():
    store = Store(MOUNT)
    journal = Journal(MOUNT + "/journal.log", 1024)  # small, so the session rotates it under cuts too
    cfg = Config(store, journal)
    return store, journal, cfg


def snapshot_of_records():
    s = Store(MOUNT)
    return {"round": s.load("round"), "config": s.load("config")}


def check_balance(rec):
    """pool + reserve + paid = seeded + contributions, to the cent (the meters of the stored pool)."""
    if rec is None or rec["p"] is None:
        return
    pool, reserve, carry, contributed, paid, seeded = rec["p"][:6]
    assert pool + reserve + paid == seeded + contributed, rec
    assert 0 <= carry < 10000 and pool <= LIMIT


def check_journal(old, new, action, cut):
    """After a cut the journal holds a contiguous run of the entries written, ending with the last
    entry before the step or one written by the step: nothing invented, nothing older lost."""
    written = {}
    for e in old + new:
        written[e[0]] = e
    entries = Journal(MOUNT + "/journal.log", 1024).records(200)
    assert entries, (action, cut, "journal lost")
    first = entries[0][0]
    for i, e in enumerate(entries):
        assert e[0] == first + i and written.get(e[0]) == e, (action, cut, e)
    assert old[-1][0] <= entries[-1][0] <= new[-1][0], (action, cut, entries[-1])
    kept = [e for e in new if e in old]  # kept by the step whatever it did (it may rotate the journal)
    assert kept[0][0] >= first, (action, cut, "older entries lost", first, [e[0] for e in old], [e[0] for e in new], [e[0] for e in entries])


def test_power_cut_at_every_block_write_keeps_old_or_new_state():
    need_vfs()
    # the Pico's flash filesystem: 4096-byte erase blocks, MicroPython mounts it with progsize=256
    cuts = run_session(4096, 16, progsize=256)
    print("power cuts checked:", cuts)


def run_session(block_size, blocks, **lfs_options):
    dev = RamBlockDev(block_size, blocks)
    before = dev.snapshot()  # the flash pictures are allocated first, while the heap is in one piece
    after = dev.snapshot()
    mount_fresh(dev, MOUNT, **lfs_options)
    try:
        store, journal, cfg = boot()
        # a royal takes the whole pool (no fixed part), a flush a small fixed amount
        cfg.change(0, game=GAME, seed_cents=SEED, limit_cents=LIMIT, rate_bp=2000, fixed_flush=300,
                   fixed_royal_flush=0)
        steps = script()
        for action in ("void", "config", "end"):
            assert (action, 0) in steps or action == "config", action
        assert ("hit", hands.ROYAL) in steps and ("hit", hands.FLUSH) in steps
        assert [a for a, _ in steps].count("config") >= 2
        cuts = 0
        most_reserve = 0
        for action, arg in steps:
            dev.snapshot(before)
            old = snapshot_of_records()
            old_journal = Journal(MOUNT + "/journal.log", 1024).records(200)
            ops = dev.ops
            step(action, arg, *boot())
            n = dev.ops - ops
            assert n > 0, action
            new = snapshot_of_records()
            new_journal = Journal(MOUNT + "/journal.log", 1024).records(200)
            check_balance(new["round"])
            if new["round"] and new["round"]["p"]:
                most_reserve = max(most_reserve, new["round"]["p"][1])
            dev.snapshot(after)
            for cut in range(1, n + 1):
                dev.restore(before)
                dev = remount(dev, MOUNT)
                parts = boot()
                dev.cut_after(cut)
                try:
                    step(action, arg, *parts)
                except PowerCut:
                    pass
                except OSError:  # LittleFS, cut off mid-operation, fails as it unwinds (closing files)
                    pass
                assert not dev.powered, "no power cut at write %d of %s" % (cut, action)
                dev = remount(dev, MOUNT)
                got = snapshot_of_records()  # the boot: newest valid generation of each record
                for name in ("round", "config"):
                    assert got[name] == old[name] or got[name] == new[name], (action, cut, name, got[name], old[name], new[name])
                check_balance(got["round"])
                check_journal(old_journal, new_journal, action, cut)
                # and the flash takes writes again after the cut
                s = Store(MOUNT)
                s.save("probe", {"cut": cut})
                assert Store(MOUNT).load("probe") == {"cut": cut}
                cuts += 1
            dev.restore(after)
            dev = remount(dev, MOUNT)
        final = snapshot_of_records()["round"]
        check_balance(final)
        pool, reserve, carry, contributed, paid, seeded = final["p"][:6]
        # the session really moved money: overflow to the reserve, jackpot restarts, awards paid
        assert most_reserve > 0 and seeded > SEED and paid > 0, final
        assert final["round"] == 15 and cuts > 100, (final["round"], cuts)
        return cuts
    finally:
        unmount(MOUNT)


def test_ramblockdev_cuts_half_way_and_programs_like_nor_flash():
    dev = RamBlockDev(64, 4)
    assert dev.ioctl(4, 0) == 4 and dev.ioctl(5, 0) == 64
    dev.writeblocks(1, bytearray(b"\x0f" * 8), 8)
    dev.writeblocks(1, bytearray(b"\xf3" * 8), 8)  # a program only clears bits: 0x0f & 0xf3
    buf = bytearray(8)
    dev.readblocks(1, buf, 8)
    assert buf == bytearray(b"\x03" * 8)
    dev.ioctl(6, 1)  # erase: back to 0xff
    dev.readblocks(1, buf, 8)
    assert buf == bytearray(b"\xff" * 8) and dev.ops == 3
    dev.cut_after(2)
    dev.writeblocks(0, bytearray(16), 0)  # the first still goes through
    try:
        dev.writeblocks(2, bytearray(16), 0)
        raise AssertionError("no cut")
    except PowerCut:
        pass
    got = bytearray(16)
    dev.readblocks(2, got, 0)
    assert got == bytearray(8) + bytearray(b"\xff" * 8)  # half of the cut program landed
    dev.writeblocks(3, bytearray(16), 0)  # after the cut nothing reaches the flash
    dev.readblocks(3, got, 0)
    assert got == bytearray(b"\xff" * 16) and not dev.powered
    again = dev.reboot()
    again.writeblocks(3, bytearray(16), 0)
    again.readblocks(3, got, 0)
    assert got == bytearray(16) and again.data is dev.data
