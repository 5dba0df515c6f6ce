"""A linked progressive table (tablectl.link) with no network, the server's side handed to its on_message as
umqtt hands it: a carried seat is not contributed again after a void (CSP-11.1), an older pool never overwrites
a newer one, the outbox refuses LOCK (LINK BUSY) exactly when it holds its limit of messages or of bytes
(record 'link', issue 20 defect 7), only a heartbeat's answer keeps the link up, and a void that returns the bets
sends the round's refund in the void's own frame (CPython and the unix port)."""
# mp-heap: 312K
import json

from harness.tables import cleanup, drive, new_app, restart
from harness.largest import COUP
from harness.progressive import keys, seats
from tablectl.link import OUT_MAX, message_bytes

LINK = "mqtt://t01:secret@127.0.0.1:1883/pit1"
ACK = b"tablectl/pit1/table/t01/ack"
POOL = b"tablectl/pit1/pool"


def linked(game="caribbean_stud", **cfg):
    app = new_app(game, link=LINK, **cfg)
    app.controller.task = "this test"  # stands for the connection task tick() would start: no network here
    return app


def hear(c, body, topic=ACK):
    c.on_message(topic, json.dumps(body).encode())


def journal(app, event):
    """(round, a, b, text) of the journal's entries of `event`, oldest first."""
    return [e[1:2] + e[3:6] for e in app.journal.records(50) if e[2] == event]


def sent(c):
    """The newest message of the outbox, as the server will read it: (kind, body)."""
    msg = c.out[-1]
    return msg[1], json.loads(msg[2])


def test_a_carried_seat_is_not_contributed_again_after_a_void_CSP_11_1():
    app = linked()
    c = app.controller
    hear(c, {"beat": 1, "pool": 25000000, "ver": 1})
    seats(app, 2, 6)
    assert drive(app, "LOCK") == [True]
    kind, body = sent(c)
    assert kind == "contrib" and body["bets"] == [[2, 2500], [6, 2500]] and body["locked"] == [2, 6]
    hear(c, {"seq": body["seq"], "pool": 25001000, "ver": 2})
    assert drive(app, "VOID_LONG", "ENTER") == [True, True] and c.status()["carried"] == [2, 6]  # CSP-11.1
    seats(app, 2, 6, 7)  # the carried chips stay, seat 7 bets now
    assert drive(app, "LOCK") == [True]
    kind, body = sent(c)
    assert kind == "contrib" and body["bets"] == [[7, 2500]], body  # 2 and 6 fed the pool in the voided round
    assert body["locked"] == [2, 6, 7]  # every seat locked, so a carried seat may still hit
    cleanup()


def test_an_older_pool_never_overwrites_a_newer_one_whichever_message_brings_it():
    app = linked()
    c = app.controller
    hear(c, {"beat": 1, "pool": 25000000, "ver": 5})
    assert c.status()["pool_cents"] == 25000000
    hear(c, {"link": "pit1", "pool": 24000000, "ver": 4}, POOL)        # a retained pool older than the beat's
    hear(c, {"beat": 2, "pool": 23000000, "ver": 3})                   # a late heartbeat answer
    assert c.status()["pool_cents"] == 25000000
    hear(c, {"link": "pit1", "pool": 25000500, "ver": 6}, POOL)        # a newer one does go up
    assert c.status()["pool_cents"] == 25000500
    hear(c, {"beat": 3, "pool": 25000000, "ver": 5})
    assert c.status()["pool_cents"] == 25000500  # the figures do not go back
    cleanup()


def test_lock_is_refused_link_busy_exactly_when_the_outbox_holds_its_limit():
    app = linked(seats=1)  # a one-seat round's messages: OUT_MAX of them within the outbox's cap
    c = app.controller
    hear(c, {"beat": 1, "pool": 25000000, "ver": 1})
    for n in range(OUT_MAX):  # rounds of one bet, none answered: one contribution each waits
        seats(app, 1)
        assert c.reason("LOCK") == "", n
        assert drive(app, "LOCK", "CONFIRM") == [True, True], (n, c.message)
        assert c.status()["link_unanswered"] == n + 1
    seats(app, 1)
    assert c.reason("LOCK") == "LINK BUSY" and drive(app, "LOCK") == [False] and c.message == "LINK BUSY"
    assert c.status()["link_unanswered"] == OUT_MAX and c.state == "betting"
    hear(c, {"seq": c.out[0][0], "pool": 25000500, "ver": 2})  # the oldest answered: room for one more
    assert c.reason("LOCK") == "" and drive(app, "LOCK") == [True]
    cleanup()


def test_lock_is_refused_link_busy_when_one_more_round_would_take_the_outbox_past_its_bytes():
    """Seven seats a round, none answered: LINK BUSY before OUT_MAX messages, when the outbox's bytes and one
    round's messages (its contribution and its claim) would pass its cap (what the largest step's frame leaves:
    tablectl.bound.outbox); the outbox, in record 'link' (not in record 'round'), comes back after a power cut."""
    app = linked()
    c = app.controller
    hear(c, {"beat": 1, "pool": 25000000, "ver": 1})
    seats(app, 1, 2, 3, 4, 5, 6, 7)
    n = 0
    while c.reason("LOCK") == "":
        assert drive(app, "LOCK", "CONFIRM") == [True, True], (n, c.message)
        n += 1
        assert len(json.dumps(c.out)) <= c.out_bytes() <= app.config.outbox
    assert c.reason("LOCK") == "LINK BUSY" and 1 < n < OUT_MAX, n
    assert c.out_bytes() + c.round_bytes > app.config.outbox
    assert drive(app, "LOCK") == [False] and c.message == "LINK BUSY" and c.state == "betting"
    longest = max(len(k) for k in c.class_ids)
    assert c.round_bytes == 2 * (message_bytes(7, longest) + 2)
    assert max(len(json.dumps(m)) for m in c.out) <= message_bytes(7, longest)  # a contribution of 7 seats
    saved = app.store.peek("link")
    assert saved["out"] == c.out and "link" not in app.store.peek("round")
    out = [list(m) for m in c.out]
    app = restart(app)
    assert app.controller.out == out and app.controller.seq == c.seq and app.controller.ep == c.ep
    cleanup()


def test_pool_messages_are_no_heartbeat_answer_the_link_stays_down():
    app = linked("fortune3")
    c = app.controller
    seats(app, 3)
    for ver in range(1, 4):  # the server's retained pool arrives, its heartbeat answers do not
        hear(c, {"link": "pit1", "pool": 25000000 + ver, "ver": ver}, POOL)
        assert c.reason("LOCK") == "LINK DOWN", ver
    assert drive(app, "LOCK") == [False] and c.message == "LINK DOWN" and c.state == "betting"
    assert c.status()["link_state"].startswith("LINK DOWN")
    assert c.status()["pool_cents"] == 25000003  # the figures are taken all the same
    hear(c, {"beat": 1, "pool": 25000003, "ver": 3})
    assert c.reason("LOCK") == ""
    # up, then the server's heartbeats stop while its pool still arrives: down after link_down_ms all the same
    # (the table's own beat was answered within OWN_MS and nothing is unanswered: only the server's heartbeat)
    down = app.config["link_down_ms"]
    for ver in range(4, 4 + down // 500):
        app.board.clock.advance(500)
        hear(c, {"link": "pit1", "pool": 25000000 + ver, "ver": ver}, POOL)
    app.board.clock.advance(1)
    assert c.down_why().startswith("no server heartbeat") and c.reason("LOCK") == "LINK DOWN", c.down_why()
    hear(c, {"beat": 2, "pool": 25000009, "ver": 9})
    assert c.reason("LOCK") == "" and drive(app, "LOCK") == [True]
    cleanup()


def test_a_message_at_its_most_digits_is_within_its_bound_and_the_bound_is_tight():
    """link.message_bytes() against the outbox's own queue(): a contribution and a claim of every seat (1..7)
    with every number at its most digits, the longest class of each game named."""
    from tablectl.rules import MAX_CENTS
    for game in ("caribbean_stud", "baccarat_c"):
        app = linked(game)
        c = app.controller
        longest = max(c.class_ids, key=len)
        c.ep, c.seq = 2 ** 31 - 1, 10 ** 9 - 10
        for n in range(1, 8):
            c.out = []
            c.queue("contrib", {"round": 10 ** 8 - 1, "bets": [[s, MAX_CENTS] for s in range(1, n + 1)],
                                "locked": list(range(1, n + 1))})
            c.queue("hit", {"round": 10 ** 8 - 1, "hits": [[s, longest] for s in range(1, n + 1)]})
            sizes = [len(json.dumps(m)) for m in c.out]
            bound = message_bytes(n, len(longest))
            assert max(sizes) <= bound <= max(sizes) + 8, (game, n, sizes, bound)
            assert c.out_bytes() >= len(json.dumps(c.out))
        cleanup()


def test_an_outbox_an_older_firmware_kept_in_record_round_comes_back():
    app = linked()
    c = app.controller
    hear(c, {"beat": 1, "pool": 25000000, "ver": 1})
    seats(app, 2)
    assert drive(app, "LOCK") == [True]
    old = [c.ep, c.seq, [list(m) for m in c.out], c.claim]
    with app.log.atomic():  # as that firmware wrote it: no record 'link', the outbox in record 'round'
        app.store.clear("link")
        app.store.save("round", dict(app.store.load("round"), link=old))
    app = restart(app)
    c = app.controller
    assert [c.ep, c.seq, c.out, c.claim] == old and c.state == "locked"
    assert app.store.peek("link") is None  # written again with the next step
    hear(c, {"beat": 2, "pool": 25000000, "ver": 2})
    assert drive(app, "VOID_LONG", "ENTER") == [True, True]
    assert app.store.peek("link")["out"] == c.out and "link" not in app.store.peek("round")
    cleanup()


def test_a_misdeal_on_a_linked_baccarat_table_returns_the_bets_and_the_next_coup_is_paid_BAC_10():
    """BAC-10's void returns every bet: on a linked table the seats' bets go back on its own book, the round's refund
    goes into the outbox with the void (a power cut does not lose it) and the pool shown is the server's, without
    the returned contributions once it answers (the void once put the table's own core pool in the link's place,
    and the next awards from the server raised AttributeError)."""
    app = linked("baccarat_a")
    c = app.controller
    hear(c, {"beat": 1, "pool": 25000000, "ver": 1})
    seats(app, 2, 6)
    assert drive(app, "LOCK") == [True]
    kind, body = sent(c)
    hear(c, {"seq": body["seq"], "pool": 25001000, "ver": 2})
    assert drive(app, "VOID_LONG", "ENTER") == [True, True] and c.state == "betting", c.message  # MISDEAL
    assert c.status()["carried"] == [] and c.status()["pool_cents"] == 25001000  # until the server answers
    kind, body = sent(c)  # the round's contributions come back out of the link's pool
    assert (kind, body["round"]) == ("refund", c.round_no - 1) and set(body) == {"round", "ep", "seq"}
    assert journal(app, "link_refund") == [(c.round_no - 1, body["seq"], 0, "sent")]
    app = restart(app)  # a power cut before it was sent: the void's frame kept it in the outbox
    c = app.controller
    c.task = "this test"
    assert sent(c) == (kind, body) and c.state == "betting"
    hear(c, {"beat": 1, "pool": 25001000, "ver": 2})
    hear(c, {"seq": body["seq"], "ok": "refund", "cents": 1000, "rounds": [body["round"]], "pool": 25000000,
             "ver": 3})
    assert c.out == [] and c.status()["pool_cents"] == 25000000  # the pool without the returned contributions
    assert journal(app, "link_refund")[-1] == (body["round"], body["seq"], 1000, "taken back")
    seats(app, 2, 6)
    assert drive(app, "LOCK") == [True]
    kind, body = sent(c)
    assert kind == "contrib" and body["bets"] == [[2, 2500], [6, 2500]], body  # returned, so contributed again
    hear(c, {"seq": body["seq"], "pool": 25001000, "ver": 4})
    assert all(keys(app, "H" + COUP["baccarat_a"] + "E")), c.message
    assert drive(app, "CONFIRM") == [True] and c.state == "claiming", c.message
    hear(c, {"seq": c.claim, "awards": [[h[0], h[1], 5000] for h in c.hits], "pool": 24992000, "ver": 5})
    assert c.state == "paying", c.message
    while c.state == "paying":
        assert drive(app, "CONFIRM") == [True]
    assert c.state == "betting" and c.status()["pool_cents"] == 24992000
    app = restart(app)
    assert app.controller.state == "betting" and app.tilt is None
    cleanup()
