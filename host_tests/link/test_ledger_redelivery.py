"""A redelivered message is answered with the answer it got, looked up by its whole id (table, epoch, seq): a
table whose records were cleared starts a new epoch at seq 1 again, and a redelivery of either epoch's seq 1
gets that epoch's own answer (no broker here: messages go straight into Ledger.handle)."""
from jackpot import protocol
from jackpot.ledger import Ledger, link_view
from jackpot.rig import GAME, LINK


def test_the_same_seq_in_two_epochs_each_redelivery_gets_its_own_epochs_answer(ledger_at):
    led = Ledger(ledger_at, {LINK: GAME}, {"t01": LINK})

    def send(ep, bets):
        body = protocol.decode("contrib", protocol.encode(
            {"ep": ep, "seq": 1, "round": 1, "bets": [[s, 2500] for s in bets], "locked": bets}))
        with led.batch():
            return led.handle("t01", "contrib", body, 1.0)

    old, _, how = send(7, [1])            # one bet: 500 cents to the pool
    assert how == "new" and old["cents"] == 500
    new, _, how = send(3, [1, 2, 3])      # records cleared, a new epoch (a lower number: drawn at random)
    assert how == "new" and new["cents"] == 1500 and new != old
    pool = link_view(led.db, LINK)["pool"]
    for ep, bets, first in ((3, [1, 2, 3], new), (7, [1], old), (3, [1, 2, 3], new)):
        again, changed, how = send(ep, bets)
        assert (how, changed, again) == ("duplicate", None, first), (ep, again)
    assert link_view(led.db, LINK)["pool"] == pool  # the redeliveries changed nothing
