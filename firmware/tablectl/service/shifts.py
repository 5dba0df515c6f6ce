"""The service's shifts: shift_close() journals the closing shift's meters and starts the next; shift() for meters().

The table's meters count since the last RAM clear (the lifetime here); a shift's are the lifetime's less
their values when the shift started, which record 'shift' keeps ({'n': shift number, 'at': {label: value}})
with the number. A RAM clear wipes it with the meters: shift 1 starts again from zero. For pool and
reserve, which are balances and not counts, a shift's figure is their change over it.
"""
from tablectl.meters import POOL_METERS
from tablectl.service.context import Report, may_change, running_app

RECORD = "shift"


def lifetime(app):
    """[(label, value)] of the table's meters, pool figures first (Meters.report). A linked table's pool
    figures are the link's (every table's), labelled link_*; its own paid is its classes' sum."""
    pool = app.controller.pool
    if app.controller.figures is None:
        return app.meters.report(pool)
    return [("link_" + n + "_cents", getattr(pool, n)) for n in POOL_METERS] + \
        [("paid_cents", sum(app.meters.amounts.values()))] + app.meters.report(None)


def shift(app):
    """(this shift's number, [(label, lifetime value, this shift's value)])."""
    rec = app.store.peek(RECORD)
    n, at = (rec["n"], rec["at"]) if rec is not None else (1, {})
    return n, [(label, value, value - at.get(label, 0)) for label, value in lifetime(app)]


def shift_close():
    from tablectl.meters import money
    app = running_app()
    may_change(app, "shift_close")
    if app.tilt:
        raise ValueError("shift_close refused: the controller is in tilt (%s); no meters were loaded" % app.tilt)
    n, rows = shift(app)
    round_no = app.controller.round_no
    with app.log.atomic():  # the shift's meters and the next shift's start: one frame, all or nothing
        app.store.save(RECORD, {"n": n + 1, "at": dict((label, value) for label, value, _ in rows)}, full=True)
        app.journal.append("shift_close", round_no, n, text="shift %d closed" % n)
        for label, _, value in rows:  # a: the shift's figure (cents for *_cents), text: its label
            app.journal.append("shift_meter", round_no, value, n, text=label)
        app.journal.append("shift_open", round_no, n + 1, text="shift %d" % (n + 1))
    lines = ["shift %d closed, shift %d started; its meters are in the journal (shift_meter):" % (n, n + 1)]
    lines += ["%-28s %s" % (label[:-6], money(v)) if label.endswith("_cents") else "%-28s %d" % (label, v)
              for label, _, v in rows]
    return Report("shift_close", lines, {"closed": n, "meters": dict((r[0], r[2]) for r in rows)})
