"""The ledger on PostgreSQL with a synchronous standby: the primary killed (kill -9) in a batch, right after the
last commit returned; the standby promoted (pg_ctl promote, its inherited synchronous_standby_names cleared), the same Ledger going on
against the new primary: every contribution answered is there, once; the one never answered is not."""
import threading

import pytest

from jackpot import postgres, protocol
from jackpot.ledger import Ledger, link_view
from jackpot.rig import GAME, LINK

TABLES = {"t01": LINK, "t02": LINK}


def contrib(seq, bets):
    return protocol.decode("contrib", protocol.encode(
        {"ep": 1, "seq": seq, "round": seq, "bets": [[s, c] for s, c in bets], "locked": [s for s, _ in bets]}))


def bounded(fn, timeout=20):
    """fn() in a thread, its result; a failure (not a hang) if it has not returned within `timeout` s."""
    out = []
    th = threading.Thread(target=lambda: out.append(fn()), daemon=True)
    th.start()
    th.join(timeout)
    assert out, "%s did not return within %d s (a commit waiting for a synchronous standby?)" % (fn, timeout)
    return out[0]


def test_no_contribution_answered_is_lost_or_doubled_across_a_kill_and_a_promote(pg_pair):
    primary, standby = pg_pair
    primary.create_database("ledger")
    led = Ledger(postgres.pair_uri(primary, standby, "ledger"), {LINK: GAME}, TABLES)
    answered = {}  # (table, seq) -> cents the answer said were contributed
    seq = 0
    for _ in range(20):
        seq += 1
        with led.batch():
            for t in TABLES:
                answered[(t, seq)] = led.handle(t, "contrib", contrib(seq, [(1, 2500), (3, 100 + seq)]), 1.0)[0]["cents"]
    assert led.db.conn.info.port == primary.port
    # killed in a batch, right after the last commit returned (the standby had that one: synchronous)
    with pytest.raises(led.db.Error):
        with led.batch():
            led.handle("t01", "contrib", contrib(seq + 1, [(4, 2500)]), 1.0)
            primary.kill()
    assert led.links[LINK].pool.contributed == sum(answered.values())  # memory back to the ledger's, no query
    assert standby.sql("SELECT pg_is_in_recovery()") == [(True,)]
    standby.promote()
    assert standby.sql("SHOW synchronous_standby_names") == [("",)]  # the trap: left '*', commits hang
    # the same Ledger goes on: reconnected past the dead host to the promoted one, read-write now, for a
    # read between batches (the server's last hits, after it reconnects to the broker) and for a batch
    assert link_view(led.db, LINK)["contributed"] == sum(answered.values())
    again = bounded(lambda: _send(led, "t01", contrib(seq + 1, [(4, 2500)])))
    assert again[2] == "new" and led.db.conn.info.port == standby.port
    answered[("t01", seq + 1)] = again[0]["cents"]  # the unanswered message, sent again by its table: once
    assert _send(led, "t01", contrib(seq + 1, [(4, 2500)]))[2] == "duplicate"
    assert _send(led, "t02", contrib(seq + 1, [(4, 2500)]))[2] == "new"
    answered[("t02", seq + 1)] = 500

    rows = standby.sql("SELECT tbl, seq, cents FROM message ORDER BY tbl, seq", "ledger")
    assert dict(((t, s), c) for t, s, c in rows) == answered and len(rows) == len(answered)  # 0 lost, 0 doubled
    view = link_view(led.db, LINK)
    assert view["contributed"] == sum(answered.values()) and view["balance_off"] == 0
    assert led.links[LINK].pool.contributed == view["contributed"]


def _send(led, table, body):
    with led.batch():
        return led.handle(table, "contrib", body, 1.0)
