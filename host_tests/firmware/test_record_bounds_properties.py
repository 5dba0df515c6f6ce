"""tablectl.bounds' formulas against the real encoding (issue 20, defect 7), over configurations: the real
controllers driven to their largest records (every seat hitting with its cards, meters, pool, last hits and
round numbers at their most digits, the history of many-hit rounds kept by the controller's own remember(),
a linked table's outbox filled until LINK BUSY and then one round's messages more) encode within each
record's bound, the bound is loose by no more than MARGIN bytes, and a configuration check() accepts has
its records at their largest written by a real Log."""
import json
import os
import sys

from hypothesis import HealthCheck, given, settings, strategies as st

import board  # boards/sim

from ramblockdev import RamBlockDev
from tablectl import app as appmod
from tablectl import bounds, link
from tablectl.config import GAMES, PROGRESSIVE, Config, validate
from tablectl.games.base import history_bytes
from tablectl.rules import MAX_CENTS
from tablectl.rules.awards import table
from tablectl.service.shifts import lifetime
from tablectl.storage import Log
from tablectl.store import Store

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "mp"))

LINK = "mqtt://t01:secret@127.0.0.1:1883/pit1"
MARGIN = 48  # bytes a record's bound may exceed the largest one the controllers make ('claiming' vs 'paying', ...)
ROUND = 10 ** bounds.ROUND - 1
COUNT = 10 ** bounds.COUNT - 1
SUM = 10 ** bounds.SUM - 1


def configs():
    return st.builds(lambda g, n, seats, link: dict({"game": g, "history_len": n}, **(
        {"seats": seats, "link": link, "hit_cards_cents": 0} if g in PROGRESSIVE else {})),
        st.sampled_from(GAMES), st.integers(1, 50), st.integers(1, 7), st.sampled_from(["", LINK]))


def table_of(values, blocks=16):
    """A sim board's App on a ring of 4 KB blocks with configuration `values` in force, written as a record
    (an older firmware's: whether check() accepts it is what the test asks)."""
    dev = RamBlockDev(block_size=4096, blocks=blocks, prog=256)
    Store(Log(dev)).save(Config.RECORD, {"v": values, "p": {}}, full=True)
    return appmod.App(board.make(virtual_clock=True, flash=dev))


def give_cap(app, cap):
    """The cap configure() would have saved with the configuration (the record was written without one)."""
    values = app.config.values
    app.config.cap = (cap, bounds.award_bytes(values["game"])) if values["game"] in PROGRESSIVE else None


def largest(app):
    """The controller's own state at its largest; returns the number of rounds its history kept."""
    ctl, m = app.controller, app.meters
    values = app.config.values
    m.rounds = m.voids = m.bets = m.returned = COUNT
    ctl.round_no = ROUND
    ctl.state = "claiming" if values["link"] else "betting"
    if values["game"] not in PROGRESSIVE:
        if values["game"] == "fantan":
            ctl.number = 4
            ctl.remember("void")
        else:
            ctl.dice = (6, 6, 6)
            ctl.remember((6, 6, 6))
        ctl.results = ctl.results * values["history_len"]
        return len(ctl.results)
    names = ctl.class_ids[1:]
    longest = max(names, key=len)
    for c in names:
        m.hits[c], m.amounts[c] = COUNT, SUM
    m.last = [[ROUND, 7, longest, MAX_CENTS]] * 25
    pool = ctl.pool.seats if values["link"] else ctl.pool
    pool.pool = pool.reserve = pool.carry = pool.contributed = MAX_CENTS
    pool.paid = pool.seeded = SUM
    pool.carried = True
    pool.locked = [MAX_CENTS] * len(pool.locked)
    seats = values["seats"]
    coup = values["game"].startswith("baccarat_")
    ctl.hits = [[s, longest, [51] * (6 if s == 1 else 0) if coup else [51] * 5] for s in range(1, seats + 1)]
    ctl.awards = [[s, longest, MAX_CENTS] for s in range(1, seats + 1)]
    ctl.shown_award = seats - 1
    if ctl.returns:
        ctl.pre = (MAX_CENTS,) * 4 + (SUM,) * 2
    for _ in range(values["history_len"] + 3):  # rounds of every seat's hit, kept by the controller's own code
        ctl.remember(tuple(tuple(a) for a in ctl.awards))
    return len(ctl.results)


def fill_outbox(ctl, seats):
    """Contributions of every seat, one a LOCK, until LOCK says LINK BUSY, and the last LOCK's round's claim
    of every seat's hit (the link's own queue())."""
    ctl.ep, ctl.seq, ctl.claim = 2 ** 31 - 1, COUNT - 200, COUNT
    names = max(ctl.class_ids, key=len)

    def contrib():
        ctl.queue("contrib", {"round": ROUND, "bets": [[s, MAX_CENTS] for s in range(1, seats + 1)],
                              "locked": list(range(1, seats + 1))})
    ctl.last_answer = ctl.last_own = ctl.board.ticks_ms()  # the link up: only a full outbox refuses LOCK
    while ctl.refusal() == "":  # a LOCK taken: its contribution
        contrib()
    assert ctl.refusal() == "LINK BUSY"
    ctl.queue("hit", {"round": ROUND, "hits": [[s, names] for s in range(1, seats + 1)]})


def shift_at_largest(app):
    """Record 'shift' with every meter of the table at its most digits."""
    return {"n": COUNT, "at": dict((label, SUM if label.endswith("_cents") else COUNT) for label, _ in lifetime(app))}


def encoded(obj):
    return len(json.dumps(obj))


def test_the_class_names_are_the_award_tables_and_the_outbox_s_bytes_the_link_s():
    for game in PROGRESSIVE:
        assert bounds.CLASSES[game] == tuple(table(game)[0][1:]), game
    assert bounds.OUT_BYTES == link.OUT_BYTES


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(configs())
def test_every_record_at_its_largest_is_within_its_bound_and_the_bound_is_tight(kw):
    values = validate(kw)
    app = table_of(values)
    assert app.tilt is None, app.tilt
    cap = bounds.check(values, {}, app.store.geometry())[1]
    give_cap(app, cap)
    kept = largest(app)
    assert 1 <= kept <= values["history_len"]
    rec = app.controller.record()
    hist = encoded(rec["hist"])
    if values["game"] in PROGRESSIVE:
        each = bounds.award_bytes(values["game"])
        counted = history_bytes(app.controller.results, each)  # what remember() keeps it within
        assert counted == bounds._seq(kept, sum(bounds.result_bytes(values["game"], len(r[1]), each)
                                                for r in app.controller.results))
        assert hist <= counted <= max(cap, hist) and counted - hist <= MARGIN * kept
    bound = bounds.round_bytes(values, hist)
    assert encoded(rec) <= bound <= encoded(rec) + MARGIN, (encoded(rec), bound)
    shift = shift_at_largest(app)
    assert encoded(shift) <= bounds.shift_bytes(values) <= encoded(shift) + MARGIN
    cfg = {"v": values, "p": {}}
    assert encoded(cfg) <= bounds.config_bytes(values, {}) <= encoded(cfg) + MARGIN
    if values["link"]:
        ctl = app.controller
        fill_outbox(ctl, values["seats"])
        link_rec = {"ep": ctl.ep, "seq": ctl.seq, "out": ctl.out, "claim": ctl.claim}
        assert encoded(ctl.out) <= ctl.out_bytes() <= bounds.OUT_BYTES, (encoded(ctl.out), ctl.out_bytes())
        longest = max(len(c) for c in ctl.class_ids)
        assert max(encoded(m) for m in ctl.out) <= link.message_bytes(values["seats"], longest)
        assert max(encoded(m) for m in ctl.out) + MARGIN >= link.message_bytes(values["seats"], longest)
        assert encoded(link_rec) <= bounds.link_bytes() <= encoded(link_rec) + ctl.round_bytes + MARGIN


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(configs(), st.sampled_from([5, 8, 12, 16]))
def test_a_configuration_accepted_has_its_records_at_their_largest_written_by_the_real_log(kw, blocks):
    """What check() accepts the real log writes: every record at its largest in its own frame and the
    checkpoint of them all (the log refuses either before writing anything otherwise); what it refuses,
    it refuses in one line naming the record and its bytes."""
    values = validate(kw)
    app = table_of(values, blocks)
    why, cap = bounds.check(values, {}, app.store.geometry())
    if why:
        assert "\n" not in why and why.startswith("record '") and " bytes" in why, why
        return
    give_cap(app, cap)
    largest(app)
    ctl = app.controller
    records = {"config": {"v": values, "p": {}}, "round": ctl.record(), "epoch": {"n": COUNT},
               "shift": shift_at_largest(app)}
    if values["link"]:
        fill_outbox(ctl, values["seats"])
        records["link"] = {"ep": ctl.ep, "seq": ctl.seq, "out": list(ctl.out), "claim": ctl.claim}
    log = app.log
    for name in records:
        assert bounds.frame(name, encoded(records[name]), 256) == log.align(12 + encoded({"r": {name: records[name]}}) + 4)
        log.commit(full={name: records[name]})
    log.checkpoint(records)
    log.reopen()
    assert log.get("round") == json.loads(json.dumps(records["round"]))
