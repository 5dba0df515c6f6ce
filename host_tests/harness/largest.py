"""A progressive table driven to its largest records: every seat hitting every round with its cards, in the
classes of the longest names, while each record's largest JSON bytes are noted (both runtimes' harness; the
record bounds' test and bench)."""
import json

from harness.progressive import keys, seats
from harness.rounds import to_betting
from tablectl.rules import PROGRESSIVE


# the coups of the longest class names: a paradise straight (Th Jh Qh Kh As 2c), six of a kind
COUP = {"baccarat_a": "102112122132141023", "baccarat_b": "021022021022021022", "baccarat_c": "021022021022021022"}


def poker_hit(app, seat):
    """A straight flush (class 4) on seats 1-4, a flush 2 3 4 6 7 (class 1) on 5-7: no card twice in a round."""
    s = (seat - 1) % 4 + 1
    ranks = (9, 10, 11, 12, 13) if seat <= 4 else (2, 3, 4, 6, 7)
    return keys(app, "H%dE%dE%sE" % (seat, 4 if seat <= 4 else 1, "".join("%02d%d" % (r, s) for r in ranks)))


def measure(app, most):
    for name in app.store.names():
        most[name] = max(most.get(name, 0), len(json.dumps(app.store.peek(name))))


def largest(app, game, n, rounds, most):
    """Play `rounds` rounds of every one of n seats hitting; `most`: each record's largest JSON bytes so far."""
    for _ in range(rounds):
        seats(app, *range(1, n + 1))
        assert app.dispatch("LOCK") is True
        if game in COUP:
            assert all(keys(app, "H" + COUP[game] + "E"))
        else:
            for s in range(1, n + 1):
                assert all(poker_hit(app, s)), (s, app.controller.message)
        measure(app, most)  # every seat's hit with its cards
        for _ in range(n + 1):
            app.dispatch("CONFIRM")
            measure(app, most)
        assert app.controller.state == "betting" and not app.refused, (app.controller.state, app.refused,
                                                                         app.controller.message)


def dice_rounds(app, game, rounds, most, first=0):
    """Play `rounds` rounds of a dice or fan-tan table, the odd ones (counted from `first`) voided: "void" is the
    longest result a fan-tan history holds; `most` as largest()'s."""
    for r in range(first, first + rounds):
        to_betting(app)
        if r % 2:
            app.dispatch("VOID_LONG")
        else:
            app.dispatch("BELL")
            for e in (("6", "6", "6") if game != "fantan" else ("2", "7")) + ("ENTER", "CONFIRM"):
                app.dispatch(e)
        measure(app, most)


# a step's frame by its journal entries: the step tablectl.bound.steps() bounds it as
STEPS = (("pay", "settle"), ("confirm", "finish"), ("void", "finish"), ("hit_in", "hit"), ("coup_in", "hit"),
         ("shift_close", "shift_close"), ("lock", "lock"))


def frames(app, most):
    """Note in `most` each step's largest frame payload the log writes from now on (JSON bytes, a torn write's
    acknowledgement included; checkpoints' parts, records alone, left out), by the step bound.steps() names:
    'other' for a frame of none of them."""
    log = app.log
    write = log._frame

    def spy(flags, obj):
        write(flags, obj)
        if log._checkpointing:
            return
        events = [e[2] for e in obj.get("j", ())]
        step = "other"
        for event, name in STEPS:
            if event in events:
                step = name
                break
        if step == "other" and dice and ("round" in obj.get("p", ()) or "round" in obj.get("r", ())):
            step = "round"
        most[step] = max(most.get(step, 0), len(json.dumps(obj)))
    dice = app.config["game"] not in PROGRESSIVE
    log._frame = spy
