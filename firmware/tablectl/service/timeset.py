"""The service's set_time(when): the board's clock set by the technician (key on, between rounds), journalled."""
from tablectl.service.context import Report, may_change, running_app
from tablectl.utc import parse, text


def set_clock(app, t, who):
    """Journal 'time_set' (a: the time before, 0 if not set; b: the new one), then set the clock: a power cut
    between leaves a clock that reads earlier than the journal, so not set. The entry carries the new time."""
    before = app.clock.now()
    app.journal.append("time_set", getattr(app.controller, "round_no", 0), before or 0, t,
                       text="by the %s, was %s" % (who, text(before)), at=t)
    app.clock.set(t)
    app.controller.redraw()  # the dealer's display no longer says TIME NOT SET
    return before


def set_time(when):
    app = running_app()
    may_change(app, "set_time")
    t = parse(when)
    before = set_clock(app, t, "technician")
    return Report("set_time", ["the clock reads %s (UTC), was %s" % (text(t), text(before) if before is not None
                                                                        else "not set")],
                  {"time": t, "before": before})
