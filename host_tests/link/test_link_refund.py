"""A void that returns the bets on a linked Fortune 3 table takes the round's contributions, and the carried round's,
out of the link's pool once, and the table shows the pool without them: the firmware on CPython with the server's
ledger (SQLite and PostgreSQL) and no broker between them (each message of the outbox through the wire's checks
into Ledger.handle, its answer back to on_message, as the server and umqtt hand them); then the .mpy build on the
unix port against a real mosquitto and the server process, the dealer's keys through the sim board's host link.
"""
import json

from harness.progressive import seats
from harness.tables import cleanup, drive, new_app
from jackpot import protocol
from jackpot.ledger import Ledger, link_view, status
from jackpot.rig import GAME, LINK, RawTable

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


def test_the_firmware_on_the_unix_port_sends_its_refund_through_the_broker_and_shows_the_servers_pool_F3_17_1_3(
        make_link, fw_table):
    link = make_link(("fw1", "t02"), game=F3)
    fw = fw_table(link, game="fortune3")
    fw.wait(lambda st: st["status"].get("link_state") == "up")
    fw.seats(2, 5)
    fw.press("LOCK")
    fw.wait(lambda st: st["status"].get("state") == "locked" and st["status"].get("link_unanswered") == 0)
    other = RawTable(link, "t02")
    assert other.send("contrib", {"round": 1, "bets": [[1, 2500]], "locked": [1]})["pool"] == SEED + 1500
    fw.press("VOID", hold=1.3)
    fw.press("3", "ENTER")  # PLAYER CARDS UP (F3-17.1(3)): every bet returned
    st = fw.wait(lambda st: st["status"].get("state") == "betting" and st["status"].get("link_unanswered") == 0
                 and st["status"].get("pool_cents") == SEED + 500)
    assert st["status"]["carried"] == []
    view = link.status()["links"][LINK]
    assert (view["pool"], view["contributed"], view["balance_off"]) == (SEED + 500, 500, 0)
    assert (view["tables"]["fw1"]["contributed"], view["tables"]["fw1"]["bets"]) == (0, 0)
    other.close()
