"""A linked table's link up/down on the server's one heartbeat a link (tablectl/L/beat) and its own answered
heartbeat, with no network and a virtual clock: up only while the link beats within link_down_ms, the
table's own beat was answered within OWN_MS and no message waits longer than link_down_ms; every way
down says why (CPython and the unix port)."""
# mp-heap: 308K
import json

from harness.tables import cleanup, drive, new_app
from harness.progressive import seats
from tablectl.hw.clock import ticks_diff
from tablectl.link import KEEP_MS, OWN_MS

LINK = "mqtt://t01:secret@127.0.0.1:1883/pit1"
ACK = b"tablectl/pit1/table/t01/ack"
BEAT = b"tablectl/pit1/beat"


def linked():
    app = new_app("caribbean_stud", link=LINK)
    app.controller.task = "this test"  # stands for the connection task tick() would start: no network here
    return app


def beating():
    """A linked table whose own heartbeat was just answered: (app, controller, clock, link_down_ms)."""
    app = linked()
    hear(app.controller, {"beat": 1}, ACK)
    return app, app.controller, app.board.clock, app.config["link_down_ms"]


def hear(c, body, topic):
    c.on_message(topic, json.dumps(body).encode())


def link_beat(c, n=1):
    hear(c, {"beat": n, "pool": 25000000, "ver": 1, "pending": []}, BEAT)


def test_the_link_beat_alone_is_not_up_until_the_tables_own_beat_is_answered():
    app = linked()
    c = app.controller
    seats(app, 4)
    link_beat(c)
    assert not c.up() and c.reason("LOCK") == "LINK DOWN" and "no heartbeat answered yet" in c.status()["link_state"]
    hear(c, {"beat": 1, "pool": 25000000, "ver": 1}, ACK)
    assert c.up() and c.reason("LOCK") == ""
    cleanup()


def test_each_silence_puts_the_link_down_within_its_bound_and_says_which():
    app, c, clock, down = beating()
    # the server's beat stops: down at link_down_ms, not a tick before
    clock.advance(down - 1)
    assert c.up()
    clock.advance(1)
    assert not c.up() and "no server heartbeat within %d ms" % down in c.status()["link_state"]
    # the link beats on, the table's own beat goes unanswered (its publishes dropped): down at OWN_MS
    hear(c, {"beat": 2}, ACK)
    elapsed = 0
    while elapsed + down // 2 < OWN_MS:
        clock.advance(down // 2)
        elapsed += down // 2
        link_beat(c)
        assert c.up(), elapsed
    clock.advance(OWN_MS - elapsed - 1)
    link_beat(c)
    assert c.up()
    clock.advance(1)
    assert not c.up() and "no heartbeat answered within %d ms" % OWN_MS in c.status()["link_state"]
    hear(c, {"beat": 3}, ACK)
    assert c.up()
    cleanup()


def test_a_contribution_unanswered_for_link_down_ms_puts_the_link_down_whatever_beats():
    app, c, clock, down = beating()
    seats(app, 2)
    assert drive(app, "LOCK") == [True]
    seq = c.out[0][0]
    for step in range(4):  # beats on both topics, the contribution never answered (a publish dropped)
        clock.advance(down // 4)
        link_beat(c, step)
        hear(c, {"beat": step + 2}, ACK)
    assert not c.up() and "message %d unanswered for %d ms" % (seq, down) in c.status()["link_state"]
    assert drive(app, "CONFIRM") == [True]  # the round ends (no hit); the next LOCK is refused
    seats(app, 3)
    assert drive(app, "LOCK") == [False] and c.message == "LINK DOWN"
    hear(c, {"seq": seq, "ok": "contrib", "cents": 500, "pool": 25000500, "ver": 2}, ACK)
    assert c.up() and drive(app, "LOCK") == [True]
    # the new contribution waits from its own LOCK
    clock.advance(down - 1)
    link_beat(c, 9)
    hear(c, {"beat": 9}, ACK)
    assert c.up()
    cleanup()


def answered_contributions(app, c, clock, every_ms, until_ms, ok=True):
    """A LOCK every `every_ms` answered at once (or refused: `ok` False), the link's beat every half of
    link_down_ms, no answer to an own heartbeat, for `until_ms` from the last own answer; the ms elapsed."""
    down = app.config["link_down_ms"]
    elapsed = 0
    while elapsed + every_ms < until_ms:
        for _ in range(every_ms // (down // 2)):
            clock.advance(down // 2)
            link_beat(c)
        elapsed += every_ms // (down // 2) * (down // 2)
        seats(app, 2)
        assert drive(app, "LOCK") == [True], (elapsed, c.status()["link_state"])
        seq = c.out[0][0]
        hear(c, {"seq": seq, "ok": "contrib", "cents": 5, "pool": 25000005, "ver": seq + 1} if ok else
             {"seq": seq, "error": "bets: not a list"}, ACK)
        assert drive(app, "CONFIRM") == [True]
    return elapsed


def test_an_answered_message_counts_as_the_own_heartbeats_answer_and_puts_the_next_beat_off():
    app, c, clock, down = beating()
    elapsed = answered_contributions(app, c, clock, 6 * down, 2 * OWN_MS)
    assert elapsed > OWN_MS and c.up(), c.status()["link_state"]  # no beat answered since the first
    wait = ticks_diff(c.next_beat, c.last_own)
    assert c.last_own == clock.now and KEEP_MS // 2 <= wait <= KEEP_MS, wait
    cleanup()


def test_a_refused_message_is_no_proof_and_the_link_goes_down_at_own_ms():
    app, c, clock, down = beating()
    start = clock.now
    answered_contributions(app, c, clock, 2 * down, OWN_MS - 2 * down, ok=False)
    while ticks_diff(clock.now, start) < OWN_MS - 1:
        clock.advance(min(down // 2, OWN_MS - 1 - ticks_diff(clock.now, start)))
        link_beat(c)
    assert c.up()
    clock.advance(1)
    assert not c.up() and "no heartbeat answered within %d ms" % OWN_MS in c.status()["link_state"]
    # the table refused altogether (not on this link): no proof either
    hear(c, {"seq": None, "error": "table t01 is not on link pit1"}, ACK)
    assert not c.up()
    cleanup()
