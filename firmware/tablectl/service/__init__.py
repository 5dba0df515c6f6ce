"""Technician service over the USB REPL: the calls, each importing only the module that does it.

    >>> import service                 # firmware/service.py re-exports this package
    >>> service.status()               # every call returns a Report: the REPL prints it as text
    >>> service.configure(rate_bp=1500)

Calls: status(), meters(), history(n=20), journal(n=20, from_seq=None), journal_export(from_seq=1), config()
(tablectl.service.reports),
configure(confirm=None, **kw) (.settings), lamp_test(step_ms=150), display_test(step_ms=500),
shaker_test(ms=None) (.outputs), selftest(root=None) (.firmware), ram_clear(code=None)
(.ramclear), verify(seed) (.medium), config_export() (.settings), shift_close() (.shifts), set_time(when)
(.timeset). configure(), ram_clear(code), set_time() and the output tests change the table: they need the
technician's key switch on (app.key_on()); every other call reads, key or no key. A Report prints as readable lines; `.data` holds the same figures for programs and tests.
A refused or invalid call raises ValueError with the reason and changes nothing. configure(), the
output tests and ram_clear() are refused while a round is in progress (controller.busy()), and
configure() also in tilt (ram_clear() is the way out of a tilt). After Ctrl-C stops main.py,
tablectl.app.current still holds the stopped App, so the calls work on it; machine.reset() starts
the table again.

They act on the running application, `tablectl.app.current` (or the one given to use(app)), through
the names of the firmware contract: app.board (tablectl.hw.wiring.Board), .config (tablectl.config.Config),
.store, .journal, .meters, .log, .tilt, .config_lost, .refused, .controller (tablectl.games.Contract), and
the hooks app.config_changed(applied) and app.ram_clear().
"""
from tablectl.service.context import Report, running_app, use  # noqa: F401 (the scripts' names)
import sys

# the modules the calls load: on a board whose code sits in the heap (the sim's 64-bit port) they take 27 KB
# that a linked table's 256 KB cannot spare between calls, so a call lets go of those it loaded itself
_PARTS = ("reports", "settings", "ramclear", "outputs", "medium", "shifts", "timeset", "firmware")
_RELEASE = sys.implementation.name == "micropython"  # CPython keeps its modules: no heap to win there


def _held():
    held = 0
    for i in range(len(_PARTS)):
        if "tablectl.service." + _PARTS[i] in sys.modules:
            held |= 1 << i
    return held


def _release(held):
    if not _RELEASE:
        return
    names = globals()  # this package's: a loaded part is also its attribute
    for i in range(len(_PARTS)):
        if not held >> i & 1:
            sys.modules.pop("tablectl.service." + _PARTS[i], None)
            names.pop(_PARTS[i], None)


def _via(part, call, *args, **kw):
    """part.call(*args, **kw), the part loaded for it and let go after unless something else had loaded it."""
    held = _held()
    try:
        return getattr(__import__("tablectl.service." + part, None, None, (call,)), call)(*args, **kw)
    finally:
        _release(held)

CALLS = ("status", "meters", "history", "journal", "journal_export", "config", "configure", "lamp_test",
         "display_test", "shaker_test", "selftest", "ram_clear", "verify", "config_export", "shift_close", "set_time")  # what firmware/service.py offers at the REPL


def status():
    """Game, controller state, round, whether a round is in progress, pending configuration."""
    return _via("reports", "status")


def meters():
    """Pool meters (with the balance check pool + reserve + paid = seeded + contributed) and table meters,
    each for the lifetime (since the last RAM clear) and the current shift."""
    return _via("reports", "meters")


def history(n=20):
    """The last n results of the controller, oldest first, as the table shows them."""
    return _via("reports", "history", n)


def journal(n=20, from_seq=None):
    """The last n journal entries (n <= 200), oldest first; with from_seq, the n from seq from_seq on (a page,
    which names the next one)."""
    return _via("reports", "journal", n, from_seq)


def journal_export(from_seq=1):
    """Print every journal entry from seq `from_seq` on with its SHA-256 chain value, a line each, for a
    host's `make journal` (tablectl.journal.Journal.export says the format); returns nothing."""
    _via("reports", "journal_export", from_seq)


def config(all=False):
    """The current game's keys (every key with all=True), '*' where a value differs from the default,
    and the pending pool changes."""
    return _via("reports", "config", all)


def configure(*args, **kw):
    """configure(key=value, ...[, confirm='code']): a validated change; refused while a round is in
    progress; pool parameters of a live progressive wait for the next hit. A change of game that
    closes a jackpot holding money needs confirm=<code>."""
    if args:  # a value without its key: nothing says which setting it is for
        raise ValueError("configure takes key=value arguments, e.g. configure(shake_ms=4000); got %s without "
                         "a key (config() lists the keys)" % ", ".join(repr(a) for a in args))
    return _via("settings", "configure", **kw)


def lamp_test(step_ms=150):
    """Each lamp alone in turn, then all together; the previous picture is put back."""
    return _via("outputs", "lamp_test", step_ms)


def display_test(step_ms=500):
    """Every character cell and every jackpot digit segment on, then the previous contents back."""
    return _via("outputs", "display_test", step_ms)


def shaker_test(ms=None):
    """Run the electric shaker for the configured shake time (at most the driver's max on-time)."""
    return _via("outputs", "shaker_test", ms)


def selftest(root=None):
    """CRC-32 of every firmware file against the manifest written at deploy, and no other code where
    the firmware lives."""
    return _via("firmware", "selftest", root)


def ram_clear(code=None, keep_config=True):
    """Without a code: what a RAM clear wipes and the code to confirm it. With the code: clear; the
    configuration is kept unless keep_config=False (then back to its defaults, journalled)."""
    return _via("ramclear", "ram_clear", code, keep_config)


def config_export():
    """The configuration's keys that differ from the defaults (pending pool changes as they will apply; the
    link's address, which holds its password, left out): a dict that configure(**exported) re-applies,
    printed as that configure() line."""
    return _via("settings", "config_export")


def verify(seed):
    """HMAC-SHA1 and HMAC-SHA256 keyed with the verifier's hex seed over the whole program medium (the
    frozen image, every file of the manifest, the manifest), each part's SHA-256 beside: a lab's field
    check of the certified release (docs/technicians.md). Key on or off; between rounds."""
    return _via("medium", "verify", seed)


def shift_close():
    """Close the shift (key on, between rounds): its meters are journalled and the next shift starts."""
    return _via("shifts", "shift_close")


def set_time(when):
    """Set the board's clock to `when`, text 'YYYY-MM-DD HH:MM:SS' in UTC (key on, between rounds): journalled
    with the time before and after; until it is set, entries carry no time (TIME NOT SET)."""
    return _via("timeset", "set_time", when)
