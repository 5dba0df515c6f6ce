"""The service's reports: status(), meters(), history(n), journal(n), config(all=False); they change nothing.

In tilt, meters() and history() say they are unavailable (no record was loaded); status() shows no
game when the configuration record is the one that cannot be trusted (app.config_lost).
"""
from tablectl.config import placeholders
from tablectl.journal import round_text, stamps
from tablectl.meters import money
from tablectl.service.context import Report, int_arg, running_app

LOST = "the configuration record cannot be read (tilt): ram_clear() resets it to the defaults"


def _unavailable(app, title):
    """In tilt, a Report saying why `title` cannot be shown (None otherwise): the controller loaded no
    record, so zeros would be invented figures."""
    if app.tilt:
        return Report(title, ["unavailable in tilt, no record was loaded: " + app.tilt], {"unavailable": app.tilt})
    return None


def status():
    app = running_app()
    ctl = app.controller
    # a tilt on the configuration record leaves no game known (app.config holds only the defaults)
    epoch = app.journal.epoch
    data = {"game": ctl.game, "state": ctl.state, "round": ctl.round_no,
            "epoch": epoch, "busy": bool(ctl.busy()), "pending": dict(app.config.pending)}
    details = ctl.status() or {}
    lines = ["game %s, state %s, round %s%s" % (data["game"] or "unknown", ctl.state, round_text(ctl.round_no, epoch),
                                               " (round in progress)" if data["busy"] else "")]
    now = app.clock.now()
    data["time"] = now
    if now is None:
        from tablectl.timeofday import NOT_SET
        why = app.clock.why()
        lines.append("%s%s: service.set_time('YYYY-MM-DD HH:MM:SS') in UTC, key on; entries carry no time"
                     % (NOT_SET, " (%s)" % why if why else ""))
    else:
        from tablectl.utc import text
        lines.append("time %s (UTC)" % text(now))
    from tablectl import VERSION
    data["version"] = VERSION  # the release a lab's `make verify` checks the table against
    lines.append("firmware tablectl %s" % VERSION)
    data["key"] = app.key_on()
    lines.append("service key %s" % ("on: changes allowed, no round starts" if data["key"] else
                                      "off: reports only (turn it on to configure, test or clear)"))
    if app.config_lost:
        lines.append(LOST)
    elif not app.tilt:
        why = app.config.attention()
        if why:
            data["attention"] = why
            lines.append("configure needed: %s" % why)
        unset = placeholders(app.config.values)
        if unset:  # BAC-17.13: the amounts are the DICJ-approved ones, not the firmware's
            data["placeholders"] = unset
            lines.append("demo amounts, not the approved ones (BAC-17.13): set %s" % ", ".join(unset))
    for key in sorted(details):
        value = details[key]
        if key in data or value == "":
            continue
        if key.endswith("_cents"):
            key, value = key[:-6], money(value)
        lines.append("%s: %s" % (key, value))
    if data["pending"]:
        lines.append("after the next hit: " + ", ".join("%s=%r" % (k, data["pending"][k])
                                                        for k in sorted(data["pending"])))
    log = app.log
    if log is not None and log.torn:
        data["torn"] = log.torn
        lines.append("boot discarded a write a power cut tore (after frame #%d): the state before it resumed"
                     % log.torn)
    if log is not None and log.lost:
        data["lost"] = log.lost
        lines.append("boot found %d damaged journal frame%s (skipped; the state is sound)"
                     % (log.lost, "" if log.lost == 1 else "s"))
    if app.refused:  # a step the flash log could not take (nothing of it written)
        data["refused"] = app.refused
        lines.append("step refused: " + app.refused)
    data["details"] = details
    return Report("status", lines, data)


def meters():
    app = running_app()
    tilted = _unavailable(app, "meters")
    if tilted:
        return tilted
    from tablectl.service.shifts import shift
    pool = app.controller.pool
    link = app.controller.figures is not None  # a linked table (tablectl.link)
    n, rows = shift(app)
    data = dict((r[0], r[1]) for r in rows)
    data["shift"] = n
    data["shift_meters"] = dict((r[0], r[2]) for r in rows)
    lines = ["%-28s %14s %14s" % ("", "lifetime", "shift %d" % n)]
    for label, value, now in rows:  # `data` keeps the labels: amounts as ints of cents (*_cents), counts as ints
        if label.endswith("_cents"):
            label, value, now = label[:-6], money(value), money(now)
        lines.append("%-28s %14s %14s" % (label, value, now))
    if pool is not None:
        left = pool.pool + pool.reserve + pool.paid
        right = pool.seeded + pool.contributed
        data["balanced"] = left == right
        lines.append("%spool + reserve + paid = seeded + contributed: %s (%s vs %s)"
                     % ("link: " if link else "", "OK" if left == right else "OUT OF BALANCE", money(left),
                        money(right)))
    hits = app.meters.last_hits()
    data["last_hits"] = hits
    if hits:
        lines.append("last %d hits (newest first):" % len(hits))
        for round_no, seat, cls, cents in hits:
            lines.append("  round %s seat %d %s %s" % (round_text(round_no, app.journal.epoch), seat, cls,
                                                       money(cents)))
    return Report("meters (money in dollars.cents; rounds, voids, bets and hits are counts)", lines, data)


def _count(n, high=200, why=""):
    return int_arg("n", n, 1, high, why)


def _result_text(ctl, result):
    """A result as the table shows it (the controller's result_text), money as dollars.cents."""
    if result == "void":  # tablectl.games.base.VOID: a round voided, kept in the history
        return "void"
    if isinstance(result, int):
        return "number %d" % result  # fan-tan's winning number (FT-3)
    if isinstance(result, tuple) and (not result or isinstance(result[0], tuple)):
        # a progressive round's awards (seat, class, cents): as the table's history shows them, then each in full
        if not result:
            return "no hit"
        return "%s: %s" % (ctl.result_text(result), ", ".join("seat %d %s %s" % (a[0], a[1], money(a[2]))
                                                                for a in result))
    return ctl.result_text(result)


def history(n=20):
    app = running_app()
    n = _count(n)
    tilted = _unavailable(app, "history")
    if tilted:
        return tilted
    ctl = app.controller
    rows = ctl.history(n)
    return Report("history (last %d result%s)" % (len(rows), "" if len(rows) == 1 else "s"),
                  ["round %s  %s" % (round_text(r[0], app.journal.epoch), _result_text(ctl, r[1])) for r in rows]
                  or ["no rounds yet"],
                  list(rows))


def journal(n=20, from_seq=None):
    app = running_app()
    n = _count(n, 200, " (a page: journal(n, from_seq=SEQ) goes on from SEQ)")
    seq = app.journal.seq
    if from_seq is not None:
        int_arg("from_seq", from_seq, 1, (1 << 30) - 1)
        recs = app.journal.page(from_seq, n)
        after = ("no entry from #%d on" % from_seq,) if not recs else \
            ("next page: journal(%d, from_seq=%d)" % (n, recs[-1][0] + 1),) if recs[-1][0] < seq else ()
        return Report("journal (%d from #%d of %d)" % (len(recs), from_seq, seq), data=recs,
                      render=lambda: _journal_lines(recs, after))
    recs = app.journal.records(n, True)
    damaged = app.journal.damaged
    after = () if recs else ("empty",)
    if damaged:
        after += ("%d damaged journal frame%s skipped" % (damaged, "" if damaged == 1 else "s"),)
    return Report("journal (last %d of %d)" % (len(recs), seq), data=recs, render=lambda: _journal_lines(recs, after))


def _journal_lines(recs, after):
    """A journal report's lines as the REPL writes them, one at a time (35 lines of a linked table's journal
    as a list wanted a block the sim's 256 KB heap did not have)."""
    for rec in recs:
        yield journal_line(rec)
    for line in after:  # what the entries do not say: none, a next page, damaged frames
        yield line


def journal_export(from_seq=1):
    app = running_app()
    int_arg("from_seq", from_seq, 1, (1 << 30) - 1)
    app.journal.export(from_seq, print, table_id(app))


def table_id(app):
    """The table's name in an export: its board's serial (a chip's unique id), else 'table'."""
    return getattr(app.board, "serial", None) or "table"


# what an entry's a and b hold, by event: (label, kind) each; kind '$' cents, 'm' a seat bit mask (bit 0 is
# seat 1), 'd' three dice as the digits of one number, '' a count; a field that is 0 is left out
_FIELDS = {
    "lock": ("seats", "m", "added", "$"),
    "hit_in": ("seat", "", "hits", ""),
    "coup_in": ("seats", "m", "hits", ""),
    "pay": ("seat", "", "award", "$"),
    "pool_closed": ("pool", "$", "reserve", "$"),
    "pool_aside": ("pool", "$", "reserve", "$"),
    "pool_to_reserve": ("moved", "$", "reserve", "$"),
    "ram_clear": ("pool", "$", "paid", "$"),
    "time_set": ("before", "t", "after", "t"),
    "time_lost": ("journal", "t", "clock", "t"),
}


def _field(label, kind, value):
    if kind == "$":
        shown = money(value)
    elif kind == "m":
        shown = ",".join(str(s + 1) for s in range(30) if value >> s & 1)
    elif kind == "t":
        from tablectl.utc import text
        shown = text(value)
    elif kind == "d":
        shown = " ".join("%d" % value)
    else:
        shown = str(value)
    return label + " " + shown


def journal_line(rec):
    """One journal entry (a stamped tuple) as a person reads it (the stored line keeps its raw a and b)."""
    seq, round_no, event, a, b, text = rec[:6]
    t, epoch = stamps(rec)
    if event == "result":  # dice as a 3-digit number and the winning spots, or fan-tan's number and count
        fields = ("dice", "d", "winning spots", "") if a > 100 else ("number", "", "count", "")
    else:
        fields = _FIELDS.get(event, ("a", "", "b", ""))
    out = ["#%d" % seq]
    if t is not None:
        from tablectl.utc import text as time_text
        out.append(time_text(t))
    out.append("round %s %s" % (round_text(round_no, epoch), event))
    if a:
        out.append(_field(fields[0], fields[1], a))
    if b:
        out.append(_field(fields[2], fields[3], b))
    if text:
        out.append("(%s)" % text if len(out) > 2 + (t is not None) else text)
    return " ".join(out)


def config(all=False):
    from tablectl.config import DEFAULTS, keys_for, shown, shown_all
    app = running_app()
    cfg = app.config
    lost = app.config_lost
    lines = []
    if lost:
        lines.append(LOST + ", shown here")
    keys = sorted(cfg.values) if all or lost else keys_for(cfg["game"])
    for key in keys:
        value = cfg.values[key]
        mark = "*" if DEFAULTS.get(key) != value else " "
        extra = "  -> %r after the next hit" % (cfg.pending[key],) if key in cfg.pending else ""
        lines.append("%s %-24s %r%s" % (mark, key, shown(key, value), extra))
    title = "config ('*' = not the default)" if all or lost else \
        "config of %s ('*' = not the default; config(all=True) for every game's keys)" % cfg["game"]
    return Report(title, lines, {"values": shown_all(cfg.values), "pending": dict(cfg.pending), "shown": keys})
