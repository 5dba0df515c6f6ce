"""A linked table's faces while the link is down, with no network: the server's heartbeat answers are
handed to on_message as umqtt hands them. LINK DOWN with no pool figure, the jackpot digits blank and the
betting lamp dark (LOCK is refused), before a restart and after one; lit again when the link answers."""
# mp-heap: 372K
import json

from tablectl import app as appmod
from tablectl import service
from harness.tables import cleanup, drive, restart
from harness.tables import new_app as ctl_app
from harness.progressive import hit, keys, seats
from harness.progressive import answer

LINK = "mqtt://t01:secret@127.0.0.1:1883/pit1"


def linked(app):
    app.controller.task = "this test"  # stands for the connection task that tick() would start
    return app


def beat(app, pool=25000000):
    app.controller.on_message(b"tablectl/pit1/table/t01/ack",
                              json.dumps({"beat": 1, "pool": pool, "ver": 1}).encode())
    show(app)


def show(app):
    """The controller task's pass and the display task's, as the App runs them."""
    app.tick()
    app.controller.animate(app.board.ticks_ms())
    return app.board.snapshot()


def down_face(snap):
    return (snap["display"][0] == "LINK DOWN" and "POOL" not in " ".join(snap["display"])
            and snap["jackpot"].strip() == "" and snap["betting_lamp"] == 0)


def test_link_down_shows_no_pool_and_closes_betting_before_and_after_a_restart():
    app = linked(ctl_app("caribbean_stud", link=LINK))
    seats(app, 2)
    assert down_face(show(app)), show(app)  # never answered yet: no pool is known
    beat(app)
    up = show(app)
    assert up["betting_lamp"] == 1 and up["display"][0] == "POOL 250000.00" and up["jackpot"] == "250000.00", up
    app.board.clock.advance(app.config["link_down_ms"] + 1)
    assert down_face(show(app)), show(app)  # the last pool is not shown under LINK DOWN
    assert app.controller.reason("LOCK") == "LINK DOWN"
    root = app.root
    app = None
    app = linked(restart(root))
    assert down_face(show(app)), show(app)  # after a restart: not POOL 0.00, not a lit lamp
    beat(app, 25000100)
    up = show(app)
    assert up["betting_lamp"] == 1 and up["jackpot"] == "250001.00", up
    cleanup()


def test_a_linked_tables_meters_keep_its_own_paid_apart_from_the_links():
    """The pool figures of a linked table are the link's (every table's awards in its `paid`); the table's
    own per-class paid sums add up to its own paid total, and the link's figures are labelled link_."""
    app = linked(ctl_app("caribbean_stud", link=LINK))
    appmod.current = app  # what the service reports read
    c = app.controller
    pool = {"pool": 25000000, "reserve": 0, "contributed": 500000, "paid": 2500000, "seeded": 27000000}
    answer(c, dict(pool, beat=1, ver=1))  # the link has paid 25,000.00 to other tables already
    seats(app, 2, 4)
    assert drive(app, "LOCK") == [True]
    answer(c, {"seq": c.out[-1][0], "pool": 25001000, "ver": 2})
    assert hit(app, 2, 1) and hit(app, 4, 2)  # a flush and a full house, their cards (issue 21)
    drive(app, "CONFIRM")
    answer(c, {"seq": c.claim, "awards": [[2, "flush", 125000], [4, "full_house", 187500]], "pool": 24688500,
               "ver": 3})
    while c.state == "paying":
        assert drive(app, "CONFIRM") == [True]
    data = service.meters().data
    own = [data[k] for k in data if k.startswith("paid_") and k != "paid_cents"]
    assert sorted(own) == [125000, 187500] and data["paid_cents"] == sum(own)
    assert data["link_paid_cents"] == 2500000 and data["link_pool_cents"] == c.figures["pool"]
    appmod.current = None
    cleanup()
