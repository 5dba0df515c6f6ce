"""The service's set_time(when): the board's clock set by the technician (key on, between rounds), journalled."""
from tablectl.service.context import Report, may_change, running_app
from tablectl.utc import parse, text


def set_time(when):
    app = running_app()
    may_change(app, "set_time")
    t = parse(when)
    before = app.set_clock(t, "technician")
    return Report("set_time", ["the clock reads %s (UTC), was %s" % (text(t), text(before) if before is not None
                                                                        else "not set")],
                  {"time": t, "before": before})
