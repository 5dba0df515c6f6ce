"""The service's ram_clear(): wipe pool, meters, round and history behind a confirmation code.

ram_clear() shows a 6-digit code derived from the current state (journal sequence, round, meters,
pool), so it cannot be typed blind and is stale as soon as anything happens; ram_clear(code) (the code
as the text shown, '030964': a number would lose its leading zeros) clears through app.ram_clear(),
which writes one checkpoint of the flash log holding the journal entries 'ram_clear' (the pool and
paid cents and the counts the wiped records held; in tilt what the log still makes of them, marked
unverified) and 'ram_cleared', the first entry of the next epoch (round numbers restart at 1, shown
epoch.round): after a power cut, all of it or none. configure() asks for a code of
the same kind before closing a jackpot.
"""
import json

from tablectl import meters as _meters
from tablectl.meters import money
from tablectl.service.context import Report, int_arg, may_change, refuse_if_busy, running_app


def _pool(app):
    return app.controller.pool


def _round_no(app):
    return app.controller.round_no


def clear_code(app, what=""):
    """The 6 digits that confirm wiping what the table holds now (`what` tells confirmations apart): made
    from the state, so it cannot be typed blind and is stale as soon as anything happens."""
    from tablectl.crc import crc32
    pool = _pool(app)
    figures = [getattr(pool, n) for n in _meters.POOL_METERS] if pool is not None else []
    text = "%d %d %s %s%s" % (app.journal.seq, _round_no(app), json.dumps(app.meters.state()), figures, what)
    return "%06d" % (crc32(text.encode()) % 1000000)


def _counts(reserve, rounds, voids, note=""):
    # the journal entry's text: the reserve is wiped too, and a and b hold only pool and paid
    return note + ("reserve %s, " % money(reserve) if reserve else "") + "rounds %d voids %d" % (rounds, voids)


def confirmed(given, expected):
    """`given` is the 6-digit code as the text shown ('030964'); ValueError for a code given as a number,
    whose leading zeros are gone (30964), so that the message can say how to type it."""
    if given is not None and not isinstance(given, str):
        shown = "%06d" % given if isinstance(given, int) and 0 <= given < 1000000 else "123456"
        raise ValueError("the confirmation code is text: type it in quotes as shown, e.g. '%s'" % shown)
    return given == expected


def _wiped(app):
    """(pool cents, paid cents, counts) the records a RAM clear wipes hold: the running controller's, or in
    tilt what the flash log makes of the round record ('unverified': the damage may have held more)."""
    if not app.tilt:
        pool, m = _pool(app), app.meters
        if pool is None:  # no jackpot on this table
            return 0, 0, _counts(0, m.rounds, m.voids)
        return pool.pool, pool.paid, _counts(pool.reserve, m.rounds, m.voids)
    from tablectl.rules.pool import figure
    from tablectl.store import Tilt
    try:
        rec = app.store.peek("round")  # read only: no copy in a heap a tilt may have left short
        if rec is None:
            return 0, 0, "no round record"
        m = _meters.Meters.from_state(rec["m"])
        p = rec.get("pool")
        pool, reserve, paid = (figure(p, "pool"), figure(p, "reserve"), figure(p, "paid")) if p else (0, 0, 0)
        int_arg("pool", pool, 0, _meters.MONEY_MAX)
        int_arg("reserve", reserve, 0, _meters.MONEY_MAX)
        int_arg("paid", paid, 0, 1 << 62)
        return pool, paid, _counts(reserve, m.rounds, m.voids, "unverified: ")
    except (Tilt, OSError, ValueError, KeyError, TypeError, IndexError):
        return 0, 0, "round record unreadable"


def ram_clear(code=None, keep_config=True):
    from tablectl.config import DEFAULTS, PROGRESSIVE
    app = running_app()
    refuse_if_busy(app, "ram_clear")
    expected = clear_code(app)
    pool_cents, paid, counts = _wiped(app)
    lost = app.config_lost
    if code is None:
        if lost:
            lines = ["wipes every record: the configuration record cannot be read, so the configuration",
                     "is reset to its defaults (game %s) and must be set again with configure(game=...);"
                     % DEFAULTS["game"], "keeps the journal."]
        else:
            lines = ["wipes %sthe meters, the round and the result history;"
                     % ("the pool (back to its seed), " if app.config["game"] in PROGRESSIVE else ""),
                     "keeps the configuration (game %s; ram_clear(code, keep_config=False) resets it to the"
                     % app.config["game"], "defaults too: service.config_export() first) and the journal."]
        held = ("pool %s paid %s, " % (money(pool_cents), money(paid))) if pool_cents or paid else ""
        lines.append("The records hold: %s%s. To confirm: service.ram_clear('%s')" % (held, counts, expected))
        return Report("ram_clear", lines, {"code": expected})
    may_change(app, "ram_clear")
    if not confirmed(code, expected):
        raise ValueError("wrong confirmation code: call ram_clear() for the current one")
    round_no = _round_no(app)
    # the one place that knows which records to wipe and how the table restarts; what is wiped and that
    # it was are one checkpoint of the flash log
    if keep_config is not True and keep_config is not False:
        raise ValueError("keep_config must be True or False, got %r" % (keep_config,))
    entries = [("ram_clear", round_no, pool_cents, paid, counts)]
    if not keep_config and not lost:  # asked for: what was in force is journalled before it goes
        entries.append(("config_reset", round_no, 0, 0, "to the defaults; was game %s" % app.config["game"]))
    # 'ram_cleared' is the new epoch's first entry (App.ram_clear): round 1 of epoch n+1, never a round seen before
    app.ram_clear(entries + [("ram_cleared", 1, 0, 0, "epoch %d" % (app.journal.epoch + 1))], keep_config)
    note = "cleared; the controller restarted from the seed"
    if not keep_config and not lost:
        note += "; the configuration is back to its defaults (game %s)" % app.config["game"]
    if lost:
        note += "; game %s: set the game with configure(game=...)" % app.config["game"]
    return Report("ram_clear", [note], {"cleared": True})
