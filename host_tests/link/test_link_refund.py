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


def test_a_power_cut_anywhere_in_the_void_keeps_its_refund_and_journal_entry_both_or_neither_BAC_10():
    """Every program and erase of a linked baccarat table's MISDEAL cut (half done, not done, noisy): after the boot
    the round is still locked with no refund anywhere, or void with the refund in the outbox and `link_refund ...
    sent` in the journal, never one without the other; a void done again after the boot queues one refund."""
    import board  # boards/sim
    from harness.ramblockdev import PowerCut, RamBlockDev
    from tablectl import app as appmod
    from tablectl.config import Config
    from tablectl.storage import Log
    from tablectl.store import Store

    def boot(dev):
        app = appmod.App(board.make(virtual_clock=True, flash=dev))
        app.controller.task = "this test"
        return app

    def picture(app):
        c = app.controller
        refunds = [json.loads(m[2])["round"] for m in c.out if m[1] == "refund"]
        return c.state, refunds, [e[0] for e in journal(app, "link_refund")]

    dev = RamBlockDev(block_size=4096, blocks=12, prog=256)
    Config(Store(Log(dev))).change(0, game="baccarat_a", link=URL, history_len=16)  # a checkpoint fits 12 blocks
    app = boot(dev)
    c = app.controller
    c.on_message(ACK, json.dumps({"beat": 1, "pool": SEED, "ver": 1}).encode())
    seats(app, 2, 6)
    assert drive(app, "LOCK") == [True]
    rnd = c.round_no
    c.on_message(ACK, json.dumps({"seq": c.out[0][0], "ok": "contrib", "cents": 1000, "pool": SEED + 1000,
                                  "ver": 2}).encode())
    c.save()  # the answered contribution out of the saved outbox
    image = dev.snapshot()
    dev = dev.reboot()
    app = boot(dev)
    before = picture(app)
    assert before == ("locked", [], [])
    start = dev.ops
    assert drive(app, "VOID_LONG", "ENTER") == [True, True]
    after = picture(app)
    assert after == ("betting", [rnd], [rnd])
    total = dev.ops - start
    assert total >= 1
    for n in range(1, total + 1):
        for done, noise in ((None, 0), (0, 0), (None, 7)):
            app = None
            dev.restore(image)
            dev = dev.reboot()
            app = boot(dev)
            dev.cut_after(n, done, noise)
            try:
                drive(app, "VOID_LONG", "ENTER")
            except (PowerCut, OSError):
                pass
            else:
                raise AssertionError("no cut after %d ops" % n)
            dev = dev.reboot()
            app = boot(dev)
            got = picture(app)
            assert got in (before, after), (n, done, noise, got)
            if got == before:  # the dealer voids again: one refund, as without the cut
                assert drive(app, "VOID_LONG", "ENTER") == [True, True]
                assert picture(app) == after, (n, done, noise)
    cleanup()
