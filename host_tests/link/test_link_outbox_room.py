"""A linked table's outbox (record 'link') beside its largest step (issue 20): its cap is what a block's frame leaves
beside the largest step of a round (tablectl.bound.outbox), so every step is written with the outbox at that cap;
LOCK says LINK BUSY exactly when one round's messages would pass it; a linked configuration whose frames leave
no room for one round's messages is refused in one line, nothing written (CPython)."""
import json

from harness.largest import COUP, poker_hit
from harness.progressive import keys, seats
from harness.ramblockdev import RamBlockDev
from harness.tables import cleanup, drive, new_app, restart
from tablectl.config import Config
from tablectl.linkaddr import message_bytes, round_bytes
from tablectl.rules import MAX_CENTS
from tablectl.storage import Log
from tablectl.store import Store

LINK = "mqtt://t01:secret@127.0.0.1:1883/pit1"
ACK = b"tablectl/pit1/table/t01/ack"
BIG = 10 ** 9  # ten digits: every amount of a message and of the round record at its most


def linked(game, **cfg):
    fixed = dict((k, BIG + i) for i, k in enumerate(("fixed_one_pair", "fixed_two_pairs", "fixed_three_of_a_kind",
                                                      "fixed_four_of_a_kind", "fixed_flush", "fixed_full_house")))
    if game == "caribbean_stud":
        fixed["fixed_straight_flush"] = BIG
    app = new_app(game, link=LINK, hit_cards_cents=0, supervisor="none", bet_cents=MAX_CENTS // 256, seed_cents=100000,
                  limit_cents=MAX_CENTS, **dict((k, v) for k, v in fixed.items() if k in _keys(game)), **cfg)
    app.controller.task = "this test"  # stands for the connection task tick() would start: no network here
    app.clock.set(999999999)  # every entry's time of ten digits
    c = app.controller
    c.round_no, c.ep, c.seq = 99990000, 2 ** 31 - 1, 10 ** 8  # round, epoch and seq at their most digits
    c.save()
    hear(c, {"beat": 1, "pool": BIG, "ver": 1})
    return app


def _keys(game):
    from tablectl.config import keys_for
    return keys_for(game)


def hear(c, body):
    c.on_message(ACK, json.dumps(body).encode())


def locked_with_hits(app, game, n):
    """Every one of n seats bet and hit (a baccarat coup of the longest class, a poker hand each)."""
    seats(app, *range(1, n + 1))
    assert app.dispatch("LOCK") is True, app.controller.message
    hits(app, game, n)


def hits(app, game, n):
    if game in COUP:
        assert all(keys(app, "H" + COUP[game] + "E"))
    else:
        for s in range(1, n + 1):
            assert all(poker_hit(app, s)), (s, app.controller.message)


def claimed(app, answer=True):
    """CONFIRM sends the claim; the server's awards (ten digits each) answer it: the settlement's frame."""
    c = app.controller
    assert app.dispatch("CONFIRM") is True and c.state == "claiming", c.message
    if answer:
        hear(c, {"seq": c.claim, "awards": [[h[0], h[1], MAX_CENTS] for h in c.hits], "pool": BIG, "ver": 2})
        assert c.state == "paying", c.state


def paid(app):
    c = app.controller
    while c.state == "paying":
        assert app.dispatch("CONFIRM") is True
    assert c.state == "betting" and not app.refused, (c.state, app.refused)


def answer_all(c):
    for m in list(c.out):
        hear(c, {"seq": m[0], "pool": BIG, "ver": 2})
    assert not c.out


def filler(c, total):
    """Messages of the outbox's shape that take exactly `total` bytes of out_bytes() (a contribution's text of
    the length that makes it)."""
    out = []
    left = total - 2
    while left:
        size = min(left, 300)
        if left - size and left - size < 60:
            size = left - 60
        text = "x" * (size - len(str(10 ** 8 + len(out))) - len("contrib") - 12)
        out.append([10 ** 8 + len(out), "contrib", text])
        left -= size
    c.out = out
    assert c.out_bytes() == total, (c.out_bytes(), total)


def test_every_step_of_a_linked_table_at_its_largest_is_written_with_its_outbox_at_the_cap():
    """Seven seats hitting every round, the history and the last 25 hits full, every number at its most digits;
    then the outbox at its cap beside each step: the settlement (the largest step: the claim answered takes the
    claim out, so its frame writes the outbox), a hit, LOCK, the payments and the round's end. Each is written
    (a restart finds it), none refused. Main capped the outbox at 2,048 bytes whatever the step: the settlement
    beside it was refused ('a frame of ... bytes does not fit'), the round never finished."""
    for game in ("baccarat_a", "caribbean_stud"):
        app = linked(game)
        c = app.controller
        cap = app.config.outbox
        assert 0 < cap < 2048, cap
        for _ in range(22):  # the history (20) and the last 25 hits full, every message answered
            locked_with_hits(app, game, 7)
            claimed(app)
            paid(app)
            answer_all(c)
        # the settlement with the outbox at its cap once the claim is out of it
        locked_with_hits(app, game, 7)
        claimed(app, answer=False)
        claim = c.out[-1]
        filler(c, cap)
        c.out.append(claim)
        hear(c, {"seq": c.claim, "awards": [[h[0], h[1], MAX_CENTS] for h in c.hits], "pool": BIG, "ver": 2})
        assert c.state == "paying" and c.out_bytes() == cap and not app.refused
        assert app.store.peek("link")["out"] == c.out
        paid(app)  # the payments and the round's end ('paid' queued): the outbox at the cap less the message
        # a hit and LOCK beside an outbox at its cap
        answer_all(c)
        seats(app, *range(1, 8))
        assert app.dispatch("LOCK") is True
        answer_all(c)
        filler(c, cap)
        hits(app, game, 7)  # the first hit's frame writes the outbox changed
        assert not app.refused and app.store.peek("link")["out"] == c.out
        assert app.dispatch("VOID_LONG") is True and app.dispatch("ENTER") is True and c.state == "betting"
        answer_all(c)
        filler(c, cap - c.round_bytes)
        assert c.reason("LOCK") == ""
        seats(app, *range(1, 8))
        assert app.dispatch("LOCK") is True and not app.refused
        out = [list(m) for m in c.out]
        assert c.out_bytes() <= cap
        app = restart(app)
        assert app.controller.state == "locked" and app.controller.out == out
        cleanup()


def test_lock_says_link_busy_exactly_at_the_cap_never_a_message_late():
    """With the outbox and one round's messages at the cap, LOCK is taken; one byte more, LINK BUSY. Then a
    round's real messages, none answered, seven seats and ten-digit bets: each LOCK taken only while the round
    fits, the outbox never past the cap at any step."""
    app = linked("baccarat_b")
    c = app.controller
    cap = app.config.outbox
    longest = max(len(k) for k in c.class_ids)
    assert c.round_bytes == round_bytes(7, longest) == 2 * (message_bytes(7, longest) + 2)
    seats(app, *range(1, 8))
    filler(c, cap - c.round_bytes + 1)
    assert c.reason("LOCK") == "LINK BUSY" and app.dispatch("LOCK") is False and c.state == "betting"
    filler(c, cap - c.round_bytes)
    assert c.reason("LOCK") == "" and app.dispatch("LOCK") is True
    hits(app, "baccarat_b", 7)
    claimed(app)
    paid(app)
    answer_all(c)
    rounds = 0
    while c.reason("LOCK") == "" and rounds < 20:  # the contribution and the 'paid' of each round wait
        before = c.out_bytes()
        locked_with_hits(app, "baccarat_b", 7)
        claimed(app, answer=False)
        assert c.out_bytes() - before <= c.round_bytes and c.out_bytes() <= cap
        hear(c, {"seq": c.claim, "awards": [[h[0], h[1], MAX_CENTS] for h in c.hits], "pool": BIG, "ver": 2})
        paid(app)
        assert c.out_bytes() <= cap
        rounds += 1
    assert rounds >= 1 and c.out_bytes() + c.round_bytes > cap and c.reason("LOCK") == "LINK BUSY"
    cleanup()


def test_a_linked_configuration_whose_frames_leave_no_room_for_a_rounds_messages_is_refused_in_one_line():
    """On 3.75 KB blocks a seven-seat baccarat A's largest step (its settlement) fits a frame, but leaves less than
    one round's messages: refused when configured, nothing written; six seats fit."""
    dev = RamBlockDev(block_size=3840, blocks=16, prog=256)
    c = Config(Store(Log(dev)))
    try:
        c.change(0, game="baccarat_a", link=LINK, history_len=5)
        raise AssertionError("accepted")
    except ValueError as e:
        why = str(e)
    assert why == ("the link's outbox has 522 bytes beside a step's frame at its largest, one round's messages need "
                   "594; configure(seats=6)"), why
    assert Store(Log(dev)).peek("config") is None
    c.change(0, game="baccarat_a", link=LINK, history_len=5, seats=6)
    assert Store(Log(dev)).peek("config")["v"]["seats"] == 6
