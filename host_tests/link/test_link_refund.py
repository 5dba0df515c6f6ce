"""A linked Fortune 3 table (the firmware, on CPython) and the server's ledger (SQLite and PostgreSQL) with no broker
between them: each message of the table's outbox goes through the wire's checks into Ledger.handle and its answer
back to the table's on_message, as the server and umqtt hand them. A void that returns the bets takes the round's
contributions, and the carried round's, out of the link's pool once, and the table shows the pool without them.
"""
import json

from harness.progressive import seats
from harness.tables import cleanup, drive, new_app
from jackpot import protocol
from jackpot.ledger import Ledger, link_view, status
from jackpot.rig import GAME, LINK

URL = "mqtt://t01:secret@127.0.0.1:1883/" + LINK
ACK = ("tablectl/%s/table/t01/ack" % LINK).encode()
F3 = dict(GAME, game="fortune3")
SEED = F3["seed_cents"]


def pump(c, led, answer=True):
    """Every message of the outbox to the ledger, in order; its answers to the table unless `answer` is False (lost)."""
    for seq, kind, text in list(c.out):
        body = protocol.decode(kind, text.encode())
        with led.batch():
            ack = led.handle("t01", kind, body, 1.0)[0]
        if answer:
            c.on_message(ACK, protocol.encode(ack))


def journal(app, event):
    return [e[1:2] + e[3:6] for e in app.journal.records(50) if e[2] == event]


def test_a_returned_round_and_the_void_round_it_carried_leave_the_links_pool_once_F3_17_1_2_F3_17_3(ledger_at):
    led = Ledger(ledger_at, {LINK: F3}, {"t01": LINK, "t02": LINK})
    with led.batch():  # another table's bets stay in the pool throughout
        led.handle("t02", "contrib", {"ep": 1, "seq": 1, "round": 1, "bets": [[1, 2500]], "locked": [1]}, 1.0)
    app = new_app("fortune3", link=URL)
    c = app.controller
    c.task = "this test"  # stands for the connection task: no network here
    c.on_message(ACK, json.dumps({"beat": 1, "pool": SEED + 500, "ver": 1}).encode())
    seats(app, 2, 6)
    assert drive(app, "LOCK") == [True]
    pump(c, led)
    assert c.status()["pool_cents"] == SEED + 1500
    assert drive(app, "VOID_LONG", "ENTER") == [True, True]  # F3-17.1(1): the progressive bets kept (F3-17.3)
    seats(app, 2, 6, 7)
    assert drive(app, "LOCK") == [True]
    pump(c, led)
    assert c.status()["pool_cents"] == SEED + 2000
    voided = c.round_no
    assert drive(app, "VOID_LONG", "2", "ENTER") == [True, True, True], c.message  # F3-17.1(2): every bet returned
    pump(c, led, answer=False)  # its answer lost: the table sends it again
    pump(c, led)
    assert c.out == [] and c.status()["pool_cents"] == SEED + 500  # the other table's contribution alone
    assert journal(app, "link_refund") == [(voided, c.seq, 0, "sent"), (voided, c.seq, 1500, "taken back")]
    view = link_view(led.db, LINK)
    assert (view["pool"], view["contributed"], view["balance_off"]) == (SEED + 500, 500, 0)
    assert status(led.db)["links"][LINK]["tables"]["t01"]["duplicates"] == 1
    # the next round's bets feed the pool again
    seats(app, 2, 6)
    assert drive(app, "LOCK") == [True]
    pump(c, led)
    assert c.status()["pool_cents"] == link_view(led.db, LINK)["pool"] == SEED + 1500
    cleanup()
