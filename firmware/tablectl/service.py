"""Technician service over the USB REPL: status, meters, history, journal, configuration, output tests, selftest, RAM clear.

    >>> import service                 # firmware/service.py re-exports this module
    >>> service.status()               # every call returns a Report: the REPL prints it as text
    >>> service.configure(rate_bp=1500)

Calls: status(), meters(), history(n=20), journal(n=20), config(), configure(confirm=None, **kw),
lamp_test(step_ms=150), display_test(step_ms=500), shaker_test(ms=None), selftest(root=None),
ram_clear(code=None).
A Report prints as readable lines; `.data` holds the same figures for programs and tests.
A refused or invalid call raises ValueError with the reason and changes nothing. configure(), the
output tests and ram_clear() are refused while a round is in progress (controller.busy()), and
configure() also while the controller is in tilt (ram_clear() is the way out of a tilt). In tilt,
meters() and history() say they are unavailable (no record was loaded); status() shows no game
when the configuration record is the one that cannot be trusted (app.config_lost).
The output tests and selftest run inside the event loop (aiorepl): they feed the board's watchdog;
shaker_test() only where the game has the electric shaker (the controller's electric()).
After Ctrl-C stops main.py, tablectl.app.current still holds the stopped App, so the calls work on
it; machine.reset() starts the table again.

They act on the running application, `tablectl.app.current` (or the one given to use(app)), through
the names of the firmware contract: app.board, .config (tablectl.config.Config), .store, .journal,
.meters, .controller (.state, .round_no, .status(), .history(n), .busy()), app.ram_clear(entries) to
reset pool, meters and round. Optional hook, called if the App has it: app.config_changed(applied)
after configure() applied keys at once (e.g. a new game). The controller's pool, if any, is
app.controller.pool; after display_test() a controller with a `digits` attribute (what its jackpot
digits show) gets -1 there so its display task draws them again.
selftest() reads /fwmanifest.json (or the first folder of sys.path holding one, as on the unix
port) and checks the CRC-32 of every file it lists, and that no other code sits where the firmware
lives (unlisted: a .py/.mpy under the firmware's folders, lib/ aside; shadows: an X.py beside a listed
X.mpy, which the import would take instead); records, the journal and root scripts are not its business.

RAM clear: ram_clear() shows a 6-digit code derived from the current state (journal sequence,
round, meters, pool), so it cannot be typed blind and is stale as soon as anything happens;
ram_clear(code) (the code as text, or as the int it reads as) clears and journals 'ram_clear' with the
pool and paid cents and the counts the wiped records held (in tilt as read from flash, or 'unreadable')
and 'ram_cleared', all in one checkpoint of the flash log (app.ram_clear(entries)).
"""
import json
import sys
import time

from tablectl import meters as _meters
from tablectl.hw.clock import ticks_diff, ticks_ms
from tablectl.meters import money as _money
from tablectl import store as _store
from tablectl.crc import crc32 as _crc32
from tablectl.config import DEFAULTS, GAMES, PROGRESSIVE

MANIFEST = "fwmanifest.json"
# Deployed as a ROMFS image (make deploy ROMFS=1), the firmware's files are in the image, mounted at the
# manifest's "romfs" folder, but for these: a board runs main.py and boot.py from its filesystem.
ON_FILESYSTEM = ("main.py", "boot.py")
FEED_MS = 500  # the longest sleep between two watchdog feeds in an output test (the boards' WDT: 5 s)
LAMP_STEP_MS = 500  # lamp_test(step_ms) at most: 120 lamps then take a minute, not twenty
DISPLAY_STEP_MS = 2000
_LOST = "the configuration record cannot be read (tilt): ram_clear() resets it to the defaults"
_override = None


class Report:
    """Readable lines for the REPL (repr/str) plus `.data` for programs."""

    def __init__(self, title, lines=(), data=None):
        self.title = title
        self.lines = list(lines)
        self.data = data

    def __repr__(self):
        return "\n".join([self.title] + ["  " + line for line in self.lines])

    __str__ = __repr__


def use(app):
    """Service this app instead of tablectl.app.current (tests, or a second app); None to undo."""
    global _override
    _override = app


def _app():
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


def _round_no(app):
    return getattr(app.controller, "round_no", 0)


def _refuse_if_busy(app, what):
    ctl = app.controller
    why = ctl.busy() if ctl is not None else ""
    if why:  # the controller's own reason: a round in progress, or bets a void round carried
        raise ValueError("%s refused: %s" % (what, why))


def _pool(app):
    return getattr(app.controller, "pool", None)


def _int_arg(name, value, low, high, why=""):
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError("%s must be an integer %d..%d%s, got %r" % (name, low, high, why, value))
    return value


def _unavailable(app, title):
    """In tilt, a Report saying why `title` cannot be shown (None otherwise): the controller loaded no
    record, so zeros would be invented figures."""
    if getattr(app, "tilt", None):
        return Report(title, ["unavailable in tilt, no record was loaded: " + app.tilt], {"unavailable": app.tilt})
    return None


def status():
    """Game, controller state, round, whether a round is in progress, pending configuration."""
    app = _app()
    ctl = app.controller
    # a tilt on the configuration record leaves no game known (app.config holds only the defaults)
    data = {"game": getattr(ctl, "game", app.config["game"]), "state": ctl.state, "round": ctl.round_no,
            "busy": bool(ctl.busy()), "pending": dict(app.config.pending)}
    details = ctl.status() or {}
    lines = ["game %s, state %s, round %d%s" % (data["game"] or "unknown", ctl.state, ctl.round_no,
                                               " (round in progress)" if data["busy"] else "")]
    if getattr(app, "config_lost", False):
        lines.append(_LOST)
    elif not getattr(app, "tilt", None):
        why = app.config.attention()
        if why:
            data["attention"] = why
            lines.append("configure needed: %s" % why)
    for key in sorted(details):
        value = details[key]
        if key in data or value == "":
            continue
        if key.endswith("_cents"):
            key, value = key[:-6], _money(value)
        lines.append("%s: %s" % (key, value))
    log = getattr(app, "log", None)
    if log is not None and log.torn:
        data["torn"] = log.torn
        lines.append("boot discarded a write a power cut tore (after frame #%d): the state before it resumed"
                     % log.torn)
    if log is not None and log.lost:
        data["lost"] = log.lost
        lines.append("boot found %d damaged journal frame%s (skipped; the state is sound)"
                     % (log.lost, "" if log.lost == 1 else "s"))
    if data["pending"]:
        lines.append("after the next hit: " + ", ".join("%s=%r" % (k, data["pending"][k])
                                                        for k in sorted(data["pending"])))
    data["details"] = details
    return Report("status", lines, data)


def meters():
    """Pool meters (with the balance check pool + reserve + paid = seeded + contributed) and table meters."""
    app = _app()
    tilted = _unavailable(app, "meters")
    if tilted:
        return tilted
    pool = _pool(app)
    rows = app.meters.report(pool)
    data = dict(rows)
    lines = []
    for label, value in rows:
        lines.append("%-28s %s" % (label, _money(value) if label.endswith("_cents") else value))
    if pool is not None and all(hasattr(pool, n) for n in _meters.POOL_METERS):
        left = pool.pool + pool.reserve + pool.paid
        right = pool.seeded + pool.contributed
        data["balanced"] = left == right
        lines.append("pool + reserve + paid = seeded + contributed: %s (%s vs %s)"
                     % ("OK" if left == right else "OUT OF BALANCE", _money(left), _money(right)))
    hits = app.meters.last_hits()
    data["last_hits"] = hits
    if hits:
        lines.append("last %d hits (newest first):" % len(hits))
        for round_no, seat, cls, cents in hits:
            lines.append("  round %d seat %d %s %s" % (round_no, seat, cls, _money(cents)))
    return Report("meters", lines, data)


def _count(n, high=200):
    return _int_arg("n", n, 1, high)


def _result_text(ctl, result):
    """A result as the table shows it (the controller's result_text), money as dollars.cents."""
    if isinstance(result, int):
        return "number %d" % result  # fan-tan's winning number (FT-3)
    if isinstance(result, tuple) and (not result or isinstance(result[0], tuple)):
        # a progressive round's awards (seat, class, cents): the table's initials, then each in full
        if not result:
            return "no hit"
        return "%s: %s" % (ctl.result_text(result), ", ".join("seat %d %s %s" % (a[0], a[1], _money(a[2]))
                                                                for a in result))
    return ctl.result_text(result)


def history(n=20):
    """The last n results of the controller, oldest first, as the table shows them."""
    app = _app()
    n = _count(n)
    tilted = _unavailable(app, "history")
    if tilted:
        return tilted
    ctl = app.controller
    rows = ctl.history(n)
    return Report("history (last %d result%s)" % (len(rows), "" if len(rows) == 1 else "s"),
                  ["round %d  %s" % (r[0], _result_text(ctl, r[1])) for r in rows] or ["no rounds yet"],
                  list(rows))


def journal(n=20):
    """The last n journal entries, oldest first."""
    app = _app()
    recs = app.journal.records(_count(n))
    lines = [_journal_line(r) for r in recs] or ["empty"]
    if app.journal.damaged:
        lines.append("%d damaged journal frame%s skipped" % (app.journal.damaged, "" if app.journal.damaged == 1 else "s"))
    return Report("journal (last %d of %d)" % (len(recs), app.journal.seq), lines, recs)


# what an entry's a and b hold, by event: (label, kind) each; kind '$' cents, 'm' a seat bit mask (bit 0 is
# seat 1), 'd' three dice as the digits of one number, '' a count; a field that is 0 is left out
_FIELDS = {
    "lock": ("seats", "m", "added", "$"),
    "hit_in": ("seat", "", "hits", ""),
    "pay": ("seat", "", "award", "$"),
    "pool_closed": ("pool", "$", "reserve", "$"),
    "pool_to_reserve": ("moved", "$", "reserve", "$"),
    "ram_clear": ("pool", "$", "paid", "$"),
}


def _field(label, kind, value):
    if kind == "$":
        shown = _money(value)
    elif kind == "m":
        shown = ",".join(str(s + 1) for s in range(30) if value >> s & 1)
    elif kind == "d":
        shown = " ".join("%d" % value)
    else:
        shown = str(value)
    return label + " " + shown


def _journal_line(rec):
    """One journal entry as a person reads it (the stored line keeps its raw a and b)."""
    seq, round_no, event, a, b, text = rec
    if event == "result":  # dice as a 3-digit number and the winning spots, or fan-tan's number and count
        fields = ("dice", "d", "winning spots", "") if a > 100 else ("number", "", "count", "")
    else:
        fields = _FIELDS.get(event, ("a", "", "b", ""))
    out = ["#%d round %d %s" % (seq, round_no, event)]
    if a:
        out.append(_field(fields[0], fields[1], a))
    if b:
        out.append(_field(fields[2], fields[3], b))
    if text:
        out.append("(%s)" % text if len(out) > 1 else text)
    return " ".join(out)


def config():
    """Every key with its value ('*' where it differs from the default) and the pending pool changes."""
    app = _app()
    cfg = app.config
    lines = []
    if getattr(app, "config_lost", False):
        lines.append(_LOST + ", shown here")
    for key in sorted(cfg.values):
        value = cfg.values[key]
        mark = "*" if DEFAULTS.get(key) != value else " "
        extra = "  -> %r after the next hit" % (cfg.pending[key],) if key in cfg.pending else ""
        lines.append("%s %-24s %r%s" % (mark, key, value, extra))
    return Report("config ('*' = not the default)", lines, {"values": dict(cfg.values),
                                                           "pending": dict(cfg.pending)})


def configure(confirm=None, **kw):
    """Validated change; refused while a round is in progress; pool parameters of a live
    progressive wait for the next hit. Journalled by the Config object. A change of game that would
    close a jackpot holding money needs confirm=<code>, as a RAM clear does: the pool cannot come back."""
    app = _app()
    _refuse_if_busy(app, "configure")
    if getattr(app, "tilt", None):
        raise ValueError("configure refused: the controller is in tilt (%s); ram_clear() first" % app.tilt)
    pool = _pool(app)
    game = kw.get("game", app.config["game"])
    if pool is not None and game in GAMES and game != app.config["game"] and pool.pool + pool.reserve:
        expected = _clear_code(app, "game " + str(game))
        if not _confirmed(confirm, expected):
            raise ValueError("configure refused: game %s closes the %s jackpot (pool %s, reserve %s, which the "
                             "journal keeps as pool_closed; they cannot come back). To confirm: "
                             "service.configure(game=%r, confirm='%s')"
                             % (game, app.config["game"], _money(pool.pool), _money(pool.reserve), game, expected))
    shaker = getattr(app.board, "shaker", None)
    most = getattr(shaker, "max_on_ms", None)
    if "shake_ms" in kw and most is not None and isinstance(kw["shake_ms"], int) and kw["shake_ms"] > most:
        # config.validate knows no board: this board's shaker driver stops at its max on-time
        raise ValueError("shake_ms: %d is above this board's shaker max on-time %d ms" % (kw["shake_ms"], most))
    applied, deferred = app.config.change(_round_no(app), **kw)
    if applied and hasattr(app, "config_changed"):
        app.config_changed(applied)
    lines = ["%s = %r (now)" % (k, applied[k]) for k in sorted(applied)]
    lines += ["%s = %r (after the next hit)" % (k, deferred[k]) for k in sorted(deferred)]
    return Report("configure", lines or ["no change"], {"applied": applied, "deferred": deferred})


def _sleep(ms):
    if ms > 0:
        time.sleep_ms(ms) if hasattr(time, "sleep_ms") else time.sleep(ms / 1000)


def _feed(app):
    # An output test is a bounded operation a technician started, but aiorepl runs it inside the event
    # loop, so the tasks that keep the watchdog fed (App's Supervisor) stand still meanwhile: the test
    # feeds it. Only a started one (no feed count: machine.WDT; LazyWdt counts from its first feed),
    # since starting it here would reset a board whose firmware is not running soon after the test.
    wdt = getattr(getattr(app, "board", None), "wdt", None)
    if wdt is not None and getattr(wdt, "feeds", 1):
        wdt.feed()


def _wait(app, ms):
    """Sleep ms, the watchdog fed before, after and every FEED_MS in between."""
    _feed(app)
    while ms > 0:
        step = min(ms, FEED_MS)
        _sleep(step)
        ms -= step
        _feed(app)


def lamp_test(step_ms=150):
    """Each lamp alone in turn, then all together; the previous picture is put back."""
    app = _app()
    _int_arg("step_ms", step_ms, 0, LAMP_STEP_MS)
    _refuse_if_busy(app, "lamp_test")
    lamps = app.board.lamps
    from tablectl.hw.lamps import WIN
    saved = bytes(lamps.levels)
    try:
        for i in range(lamps.count):
            lamps.clear()
            lamps.set(i, WIN)
            lamps.show()
            _wait(app, step_ms)
        for i in range(lamps.count):
            lamps.set(i, WIN)
        lamps.show()
        _wait(app, step_ms * 4)
    finally:
        for i in range(lamps.count):
            lamps.levels[i] = saved[i]
        lamps.show()
    return Report("lamp_test", ["%d lamps lit one by one, then all together; check each by eye"
                                % lamps.count], {"lamps": lamps.count})


def display_test(step_ms=500):
    """Every character cell and every jackpot digit segment on, then the previous contents back."""
    app = _app()
    _int_arg("step_ms", step_ms, 0, DISPLAY_STEP_MS)
    _refuse_if_busy(app, "display_test")
    board = app.board
    lines = []
    display = getattr(board, "display", None)
    if display is not None:
        saved = list(display.lines)
        try:
            for ch in ("8", "#"):
                for row in range(display.rows):
                    display.text(row, ch * display.cols)
                _wait(app, step_ms)
        finally:
            for row in range(display.rows):
                display.text(row, saved[row])
        lines.append("text display: %d x %d filled with '8' then '#'" % (display.rows, display.cols))
    jackpot = getattr(board, "jackpot", None)
    if jackpot is not None:
        n = getattr(jackpot, "n", 8)
        eights = int("8" * n)  # all segments; as cents the point shows too
        jackpot.show_cents(eights)
        _wait(app, step_ms)
        jackpot.blank()
        if hasattr(app.controller, "digits"):
            app.controller.digits = -1  # the controller's display task draws its figure again
        lines.append("jackpot digits: all segments, then blank until the controller redraws them")
    return Report("display_test", lines or ["this board has no display"], None)


def shaker_test(ms=None):
    """Run the electric shaker for the configured shake time (at most the driver's max on-time)."""
    app = _app()
    shaker = getattr(app.board, "shaker", None)
    if shaker is None:
        raise ValueError("this board has no electric shaker")
    if ms is not None:
        _int_arg("ms", ms, 1, shaker.max_on_ms, " (the shaker's max on-time)")
    _refuse_if_busy(app, "shaker_test")
    electric = getattr(app.controller, "electric", None)
    if electric is None or not electric():  # SB-2.1, FPC-2.1: only the dice games have one
        raise ValueError("shaker_test refused: %s has no electric shaker%s"
                         % (getattr(app.controller, "game", None) or "this table",
                            " (in tilt)" if getattr(app, "tilt", None) else ""))
    if ms is None:
        ms = min(app.config["shake_ms"], shaker.max_on_ms)
    start = ticks_ms()
    try:
        shaker.on(ms)  # the driver refuses with the cover open (SB-2.1)
        # real time bounds the wait even if the board's clock is virtual; off whatever happens
        while shaker.service() and ticks_diff(ticks_ms(), start) < ms:
            _wait(app, 10)
    finally:
        shaker.off()
    ran = ticks_diff(ticks_ms(), start)
    return Report("shaker_test", ["shaker ran %d ms (asked %d, max %d) and is off" % (ran, ms, shaker.max_on_ms)],
                  {"ms": ms, "ran_ms": ran})


def _manifest_root():
    # the working folder first: a board's root, or the folder a simulator's board runs in (where
    # `make deploy BOARD=sim` copies), before the folders the firmware may have been imported from
    for root in ["", "/"] + [p for p in sys.path if p and p != ".frozen"]:
        if _store.exists(_store.join(root, MANIFEST)):
            return root
    raise ValueError("no %s found (on the board it is written at deploy by tools/build_mpy.py)" % MANIFEST)


def _crc_file(path):
    crc = 0
    buf = bytearray(256)
    mv = memoryview(buf)
    with open(path, "rb") as f:
        while True:
            n = f.readinto(buf)
            if not n:
                break
            crc = _crc32(mv[:n], crc)
    return crc


def _code_files(root, deep, shallow):
    """The .py/.mpy files (paths from root) in the folders `shallow` and, with every subfolder, `deep`
    ('' is root itself). Self-contained: tools/deploy.py sends this source to the board to list it."""
    import os
    found = []
    todo = [(d, 1) for d in deep] + [(d, 0) for d in shallow]
    pre = "" if root in ("", ".") else root.rstrip("/") + "/"
    ilistdir = getattr(os, "ilistdir", None)  # MicroPython's: each entry's type without a stat
    while todo:
        folder, down = todo.pop()
        at = pre + folder or "."
        try:
            entries = ilistdir(at) if ilistdir else [(n, 0) for n in os.listdir(at)]
        except OSError:  # a folder the board lacks: its listed files are reported missing
            continue
        for entry in entries:
            name = entry[0]
            path = folder + "/" + name if folder else name
            # type 0: unknown (CPython's listdir, a host filesystem without d_type): ask stat
            if (entry[1] or os.stat(pre + path)[0]) & 0x4000:
                if down:
                    todo.append((path, 1))
            elif name.endswith(".py") or name.endswith(".mpy"):
                found.append(path)
    return found


def _code_places(listed):
    """(deep, shallow) for _code_files(): the top folders of the listed files are the firmware's, all
    of them (lib/ aside: mip installs aiorepl there); elsewhere (root, lib/) only the folders holding
    listed files, for their .py twins."""
    deep, shallow = [], []
    for path in listed:
        cut = path.rfind("/")
        top = path[:path.find("/")] if cut > 0 else ""
        if top and top != "lib":
            if top not in deep:
                deep.append(top)
        elif path[:max(cut, 0)] not in shallow:
            shallow.append(path[:max(cut, 0)])
    return deep, shallow


def _stale_files(listed, present, rom=False):
    """(unlisted, shadows): the code files in the firmware's folders that the manifest does not list,
    and the X.py beside a listed X.mpy (the import takes X.py first); each sorted, each file once.
    With the firmware in ROMFS (rom), a listed file found on the filesystem is a shadow too: the import
    looks in the working folder before /rom."""
    deep = _code_places(listed)[0]
    unlisted, shadows = [], []
    for path in sorted(present):
        if path in listed:
            if rom and path not in ON_FILESYSTEM:
                shadows.append(path)
            continue
        if path.endswith(".py") and path[:-3] + ".mpy" in listed:
            shadows.append(path)
        elif "/" in path and path[:path.find("/")] in deep:
            unlisted.append(path)
    return unlisted, shadows


def selftest(root=None):
    """CRC-32 of every firmware file against the manifest written at deploy, and no other code where
    the firmware lives: an unlisted module or a .py shadowing a listed .mpy fails it too. A firmware
    deployed as a ROMFS image is checked in the image (the manifest's "romfs" folder, /rom)."""
    if root is None:
        root = _manifest_root()
    elif not isinstance(root, str):
        raise ValueError("root must be the folder holding %s, as a str, got %r" % (MANIFEST, root))
    path = _store.join(root, MANIFEST)
    try:
        with open(path) as f:
            manifest = json.load(f)
    except OSError as e:
        raise ValueError("cannot read %s (%s): give the folder the firmware was deployed to" % (path, e))
    except ValueError:
        raise ValueError("%s is not valid JSON: deploy the firmware again" % path)
    files = manifest.get("files") if isinstance(manifest, dict) else None
    if not isinstance(files, dict) or not files:
        raise ValueError("%s lists no files" % MANIFEST)
    rom = manifest.get("romfs")
    if rom is not None and not isinstance(rom, str):
        raise ValueError("%s: romfs must name the folder the image is mounted at" % MANIFEST)
    bad, missing = [], []
    try:
        app = _app()  # a running table's watchdog is fed file by file (CRC-32 in Python can be slow)
    except ValueError:
        app = None
    for path in sorted(files):
        _feed(app)
        full = _store.join(rom if rom and path not in ON_FILESYSTEM else root, path)
        try:
            crc = _crc_file(full)
        except OSError:
            missing.append(path)
            continue
        if crc != files[path]:
            bad.append(path)
    deep, shallow = _code_places(files)
    unlisted, shadows = _stale_files(files, _code_files(root, deep, shallow), bool(rom))
    if rom:
        hidden = [d for d in deep if _store.exists(_store.join(root, d))]
        unlisted, shadows = _hidden_packages(hidden, unlisted, shadows)
    ok = not (bad or missing or unlisted or shadows)
    where = "board %s%s" % (manifest.get("board"), ", ROMFS at " + rom if rom else "")
    lines = ["%d files checked against %s (%s): %s" % (len(files), MANIFEST, where, "all OK" if ok else "FAILED")]
    lines += ["CRC mismatch: " + p for p in bad] + ["missing: " + p for p in missing]
    lines += ["unlisted: " + p for p in unlisted]
    lines += ["shadows: %s (imported instead of %s)" % (p, _shadowed(p, rom)) for p in shadows]
    if unlisted or shadows:
        lines.append("not the certified file set: make deploy removes them")
    data = {"ok": ok, "checked": len(files), "bad": bad, "missing": missing, "unlisted": unlisted,
            "shadows": shadows}
    if rom:
        data["romfs"] = rom
    return Report("selftest", lines, data)


def _hidden_packages(hidden, unlisted, shadows):
    """(unlisted, shadows) with the firmware in ROMFS: a folder on the filesystem named like one of its
    packages (`hidden`, those present) hides /rom's package from the import, even empty, so the folder
    is the shadow ('tablectl/') and what it holds goes with it. tools/deploy.py removes by the same rule."""

    def outside(p):
        return p[:max(p.find("/"), 0)] not in hidden

    return [p for p in unlisted if outside(p)], [d + "/" for d in hidden] + [p for p in shadows if outside(p)]


def _shadowed(path, rom):
    """The certified file that `path`, on the filesystem, is imported instead of."""
    if path.endswith("/"):
        return _store.join(rom, path)
    mpy = path if path.endswith(".mpy") else path[:-3] + ".mpy"
    return _store.join(rom, mpy) if rom else mpy


def _clear_code(app, what=""):
    """The 6 digits that confirm wiping what the table holds now (`what` tells confirmations apart): made
    from the state, so it cannot be typed blind and is stale as soon as anything happens."""
    pool = _pool(app)
    figures = [getattr(pool, n, 0) for n in _meters.POOL_METERS] if pool is not None else []
    text = "%d %d %s %s%s" % (app.journal.seq, _round_no(app), json.dumps(app.meters.state()), figures, what)
    return "%06d" % (_crc32(text.encode()) % 1000000)


def _counts(reserve, rounds, voids, note=""):
    # the journal entry's text: the reserve is wiped too, and a and b hold only pool and paid
    return note + ("reserve %s, " % _money(reserve) if reserve else "") + "rounds %d voids %d" % (rounds, voids)


def _confirmed(given, expected):
    """`given` is the 6-digit code, as text or as the int it reads as (30964 for '030964')."""
    if isinstance(given, int) and not isinstance(given, bool) and 0 <= given < 1000000:
        given = "%06d" % given
    return given == expected


def _wiped(app):
    """(pool cents, paid cents, counts) the records a RAM clear wipes hold: the running controller's, or in
    tilt what the flash log makes of the round record ('unverified': the damage may have held more)."""
    if not getattr(app, "tilt", None):
        pool, m = _pool(app), app.meters
        return (getattr(pool, "pool", 0), getattr(pool, "paid", 0),
                _counts(getattr(pool, "reserve", 0), m.rounds, m.voids))
    try:
        rec = app.store.load("round")
        if rec is None:
            return 0, 0, "no round record"
        m = _meters.Meters.from_state(rec["m"])
        p = rec.get("pool") or (0, 0, 0, 0, 0)  # Pool.state(): pool, reserve, carry, contributed, paid, ...
        _int_arg("pool", p[0], 0, _meters.MONEY_MAX)
        _int_arg("reserve", p[1], 0, _meters.MONEY_MAX)
        _int_arg("paid", p[4], 0, 1 << 62)
        return p[0], p[4], _counts(p[1], m.rounds, m.voids, "unverified: ")
    except (_store.Tilt, OSError, ValueError, KeyError, TypeError, IndexError):
        return 0, 0, "round record unreadable"


def ram_clear(code=None):
    """Without a code: what a RAM clear wipes and the code to confirm it. With the code: clear."""
    app = _app()
    _refuse_if_busy(app, "ram_clear")
    expected = _clear_code(app)
    pool_cents, paid, counts = _wiped(app)
    lost = getattr(app, "config_lost", False)
    if code is None:
        if lost:
            lines = ["wipes every record: the configuration record cannot be read, so the configuration",
                     "is reset to its defaults (game %s) and must be set again with configure(game=...);"
                     % DEFAULTS["game"], "keeps the journal."]
        else:
            lines = ["wipes %sthe meters, the round and the result history;"
                     % ("the pool (back to its seed), " if app.config["game"] in PROGRESSIVE else ""),
                     "keeps the configuration (game %s) and the journal." % app.config["game"]]
        held = ("pool %s paid %s, " % (_money(pool_cents), _money(paid))) if pool_cents or paid else ""
        lines.append("The records hold: %s%s. To confirm: service.ram_clear('%s')" % (held, counts, expected))
        return Report("ram_clear", lines, {"code": expected})
    if not _confirmed(code, expected):
        raise ValueError("wrong confirmation code: call ram_clear() for the current one")
    round_no = _round_no(app)
    # what is wiped and that it was: one checkpoint of the flash log, all of it or none after a power cut
    app.ram_clear([["ram_clear", round_no, pool_cents, paid, counts], ["ram_cleared", round_no, 0, 0, ""]])
    note = "cleared; the controller restarted from the seed"
    if lost:
        note += "; game %s: set the game with configure(game=...)" % app.config["game"]
    return Report("ram_clear", [note], {"cleared": True})
