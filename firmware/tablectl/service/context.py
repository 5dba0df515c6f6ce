"""What every service call shares: the Report it returns, the App it acts on (use()), the checks it makes."""
from tablectl.valid import int_in

_override = None


class Report:
    """Readable lines for the REPL (repr/str, or emit() a line at a time) plus `.data` for programs. A long
    report gives render() instead of its lines: a generator of them that emit() writes one at a time, so no
    list of its lines is ever held (`.lines` makes the list for a program that asks)."""

    def __init__(self, title, lines=(), data=None, render=None):
        self.title = title
        self._lines = None if render is not None else list(lines)
        self._render = render
        self.data = data

    @property
    def lines(self):
        if self._lines is None:
            self._lines = list(self._render())
        return self._lines

    def __repr__(self):
        return "\n".join([self.title] + ["  " + line for line in self.lines])

    __str__ = __repr__

    def emit(self, write, end="\n"):
        """Write the report through write(s) a line at a time, as the sim and qemu boards' REPL shows it: a
        long report as one string wants a free block as long as itself, which a 64 KB heap after hours of
        play may not have."""
        write(self.title)
        write(end)
        for line in self._lines if self._lines is not None else self._render():
            write("  ")
            write(line)
            write(end)


def use(app):
    """Service this app instead of tablectl.app.current (tests, or a second app); None to undo."""
    global _override
    _override = app


def running_app():
    """The App the calls act on; ValueError if none runs."""
    if _override is not None:
        return _override
    try:
        from tablectl import app as appmod
        current = appmod.current
    except ImportError:
        current = None
    if current is None:
        raise ValueError("no application running: start it (main.py or tablectl.app.run(board)) first")
    return current


def refuse_if_busy(app, what):
    ctl = app.controller
    why = ctl.busy() if ctl is not None else ""
    if why:  # the controller's own reason: a round in progress, or bets a void round carried
        raise ValueError("%s refused: %s" % (what, why))


def may_change(app, what):
    """ValueError unless a call that changes anything may run now: the technician's key switch on (whoever
    holds the USB cable alone reads), and no round in progress."""
    if not app.key_seen():
        raise ValueError("%s refused: the service key is off (turn the table's key switch on; with it off "
                         "only reports can be read)" % what)
    refuse_if_busy(app, what)


def journal_call(app, what):
    """Journal a service call that changed nothing stored (an output test): surveillance sees it anyway."""
    app.journal.append("service", app.controller.round_no, text=what)


def int_arg(name, value, low, high, why=""):
    if not int_in(value, low, high):
        raise ValueError("%s must be an integer %d..%d%s, got %r" % (name, low, high, why, value))
    return value


def feed(app):
    # A long call (an output test, selftest) runs inside the event loop (aiorepl), so the tasks that keep
    # the watchdog fed (App's Supervisor) stand still meanwhile: the call feeds it. Only a started one
    # (no feed count: machine.WDT; LazyWdt counts from its first feed), since starting it here would
    # reset a board whose firmware is not running soon after the call.
    wdt = app.board.wdt if app is not None else None  # no App: nothing started the watchdog
    if wdt is not None and getattr(wdt, "feeds", 1):  # machine.WDT counts no feeds
        wdt.feed()
