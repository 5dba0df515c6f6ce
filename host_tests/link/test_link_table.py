"""A linked progressive table (tablectl.link) with no network: the server's answers are handed to its
on_message as umqtt hands them, to see what the table keeps on flash when the server pays its claim."""
# mp-heap: 300K
from harness.progressive import answer, hit, keys, seats
from harness.tables import cleanup, drive, new_app

LINK = "mqtt://t01:secret@127.0.0.1:1883/pit1"


def test_the_servers_award_is_shown_and_paid_in_one_frame_with_its_pay_entries_CSP_10_4():
    """The round settled by the server, its meters, the pay entries: one frame, as on a table alone, so a
    power cut never leaves a journal that pays what the round record does not."""
    app = new_app("caribbean_stud", link=LINK)
    c = app.controller
    c.task = "this test"  # stands for the connection task that tick() would start: no network here
    answer(c, {"beat": 1, "pool": 25000000, "ver": 1})  # the server's heartbeat: the link is up
    seats(app, 2)
    assert drive(app, "LOCK") == [True] and c.out[-1][1] == "contrib"
    answer(c, {"seq": c.out[-1][0], "pool": 25000500, "ver": 2})
    assert hit(app, 2, 1)  # seat 2, class 1: a flush, its cards
    assert drive(app, "CONFIRM") == [True] and c.state == "claiming"
    frames = app.log.frames
    answer(c, {"seq": c.claim, "awards": [[2, "flush", 125000]], "pool": 24875500, "ver": 3})
    assert c.state == "paying" and c.awards == [[2, "flush", 125000]]
    assert app.log.frames == frames + 1
    pay = app.journal.records(1)[0]
    assert (pay[2], pay[3], pay[4], pay[5]) == ("pay", 2, 125000, "flush")
    assert app.store.peek("round")["state"] == "paying"
    cleanup()


def test_the_links_refusals_are_the_controllers_reasons_so_the_panel_greys_those_keys():
    """LOCK with the link down, any key but HISTORY while the server settles a claim: reason() says so
    (the simulator greys the key by it), and handle() refuses with the same words."""
    app = new_app("fortune3", link=LINK)
    c = app.controller
    c.task = "this test"
    seats(app, 3)
    assert c.reason("LOCK") == "LINK DOWN" and drive(app, "LOCK") == [False] and c.message == "LINK DOWN"
    answer(c, {"beat": 1, "pool": 25000000, "ver": 1})
    assert c.reason("LOCK") == "" and drive(app, "LOCK") == [True]
    answer(c, {"seq": c.out[-1][0], "pool": 25000500, "ver": 2})
    keys(app, "H3E1E021031071141131E")  # a flush: 2s 3s 7s, As Ks the community cards
    drive(app, "CONFIRM")
    assert c.state == "claiming"
    assert [c.reason(k) for k in ("CONFIRM", "HIT", "7", "HISTORY")] == ["WAIT SERVER"] * 3 + [""]
    assert drive(app, "HIT") == [False] and c.message == "WAIT SERVER"
    cleanup()


def test_the_servers_clock_in_a_heartbeat_sets_the_tables_when_unset_or_off_and_a_bad_one_changes_nothing():
    """Issue 26: a linked table takes the time from its server (journalled as the server's setting, before and
    after), only when its clock is not set or more than 2 s off; a time that is not one is journalled as a bad
    message and the clock stays as it was."""
    from tablectl.utc import seconds
    t0 = seconds(2026, 12, 2, 8, 30, 0)
    app = new_app("caribbean_stud", link=LINK)
    c = app.controller
    c.task = "this test"
    assert app.clock.now() is None
    answer(c, {"beat": 1, "pool": 25000000, "ver": 1, "now": t0})
    last = app.journal.records(1, True)[0]
    assert last[2:7] == ("time_set", 0, t0, "by the link server, was -", t0) and app.clock.now() == t0
    seq = app.journal.seq
    answer(c, {"beat": 2, "pool": 25000000, "ver": 1, "now": t0 + 2})  # within 2 s: nothing to set
    assert app.journal.seq == seq and app.clock.now() == t0
    for bad in ("x", True, 1.5, t0 * 10, 1000, None):
        answer(c, {"beat": 3, "pool": 25000000, "ver": 1, "now": bad})
        assert app.journal.records(1)[0][2] == "link_bad" and app.clock.now() == t0, bad
    answer(c, {"beat": 4, "pool": 25000000, "ver": 1, "now": t0 - 3})  # 3 s off: set, before and after
    last = app.journal.records(1, True)[0]
    assert last[2:5] == ("time_set", t0, t0 - 3) and app.clock.now() == t0 - 3
    cleanup()
