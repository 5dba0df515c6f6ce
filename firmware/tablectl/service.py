"""Technician service over the USB REPL: status, meters, history, journal, configuration, output tests, selftest, RAM clear.

    >>> import service                 # firmware/service.py re-exports this module
    >>> service.status()               # every call returns a Report: the REPL prints it as text
    >>> service.configure(rate_bp=1500)

Calls: status(), meters(), history(n=20), journal(n=20), config(), configure(**kw),
lamp_test(step_ms=150), display_test(step_ms=500), shaker_test(ms=None), selftest(root=None),
ram_clear(code=None).
A Report prints as readable lines; `.data` holds the same figures for programs and tests.
A refused or invalid call raises ValueError with the reason and changes nothing. configure(), the
output tests and ram_clear() are refused while a round is in progress (controller.busy()), and
configure() also while the controller is in tilt (ram_clear() is the way out of a tilt).
After Ctrl-C stops main.py, tablectl.app.current still holds the stopped App, so the calls work on
it; machine.reset() starts the table again.

They act on the running application, `tablectl.app.current` (or the one given to use(app)), through
the names of the firmware contract: app.board, .config (tablectl.config.Config), .store, .journal,
.meters, .controller (.state, .round_no, .status(), .history(n), .busy()). Optional hooks, called if
the App has them: app.config_changed(applied) after configure() applied keys at once (e.g. a new
game), app.ram_clear() to reset pool, meters and round (without it the records other than 'config'
are removed and the technician is told to restart). The controller's pool, if any, is
app.controller.pool; after display_test() a controller with a `digits` attribute (what its jackpot
digits show) gets -1 there so its display task draws them again.
selftest() reads /fwmanifest.json (or the first folder of sys.path holding one, as on the unix
port) and checks the CRC-32 of every file it lists, and that no other code sits where the firmware
lives (unlisted: a .py/.mpy under the firmware's folders, lib/ aside; shadows: an X.py beside a listed
X.mpy, which the import would take instead); records, the journal and root scripts are not its business.

RAM clear: ram_clear() shows a 6-digit code derived from the current state (journal sequence,
round, meters, pool), so it cannot be typed blind and is stale as soon as anything happens;
ram_clear(code) with that code journals 'ram_clear' (with the pool and paid figures it wipes),
clears, and journals 'ram_cleared'.
"""
import json
import sys
import time

from tablectl import meters as _meters
from tablectl.hw.clock import ticks_diff, ticks_ms
from tablectl import store as _store
from tablectl.config import DEFAULTS

MANIFEST = "fwmanifest.json"
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
    if ctl is not None and ctl.busy():
        raise ValueError("%s refused: round %d in progress (state %s); finish or void it first"
                         % (what, ctl.round_no, ctl.state))


def _pool(app):
    return getattr(app.controller, "pool", None)


def _money(cents):
    return "%s%d.%02d" % ("-" if cents < 0 else "", abs(cents) // 100, abs(cents) % 100)


def status():
    """Game, controller state, round, whether a round is in progress, pending configuration."""
    app = _app()
    ctl = app.controller
    data = {"game": app.config["game"], "state": ctl.state, "round": ctl.round_no, "busy": ctl.busy(),
            "pending": dict(app.config.pending)}
    details = ctl.status() or {}
    lines = ["game %s, state %s, round %d%s" % (data["game"], ctl.state, ctl.round_no,
                                               " (round in progress)" if data["busy"] else "")]
    for key in sorted(details):
        lines.append("%s: %s" % (key, details[key]))
    if data["pending"]:
        lines.append("after the next hit: " + ", ".join("%s=%r" % (k, data["pending"][k])
                                                        for k in sorted(data["pending"])))
    data["details"] = details
    return Report("status", lines, data)


def meters():
    """Pool meters (with the balance check pool + reserve + paid = seeded + contributed) and table meters."""
    app = _app()
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
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= high:
        raise ValueError("n must be an integer 1..%d, got %r" % (high, n))
    return n


def history(n=20):
    """The last n results of the controller (newest last)."""
    app = _app()
    rows = app.controller.history(_count(n))
    return Report("history (last %d)" % n, [str(r) for r in rows] or ["no rounds yet"], list(rows))


def journal(n=20):
    """The last n journal entries, oldest first."""
    app = _app()
    recs = app.journal.records(_count(n))
    return Report("journal (last %d of %d)" % (len(recs), app.journal.seq),
                  [_journal_line(r) for r in recs] or ["empty"], recs)


def _journal_line(rec):
    from tablectl.journal import describe
    return describe(rec)


def config():
    """Every key with its value ('*' where it differs from the default) and the pending pool changes."""
    app = _app()
    cfg = app.config
    lines = []
    for key in sorted(cfg.values):
        value = cfg.values[key]
        mark = "*" if DEFAULTS.get(key) != value else " "
        extra = "  -> %r after the next hit" % (cfg.pending[key],) if key in cfg.pending else ""
        lines.append("%s %-24s %r%s" % (mark, key, value, extra))
    return Report("config ('*' = not the default)", lines, {"values": dict(cfg.values),
                                                           "pending": dict(cfg.pending)})


def configure(**kw):
    """Validated change; refused while a round is in progress; pool parameters of a live
    progressive wait for the next hit. Journalled by the Config object."""
    app = _app()
    _refuse_if_busy(app, "configure")
    if getattr(app, "tilt", None):
        raise ValueError("configure refused: the controller is in tilt (%s); ram_clear() first" % app.tilt)
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


def lamp_test(step_ms=150):
    """Each lamp alone in turn, then all together; the previous picture is put back."""
    app = _app()
    _refuse_if_busy(app, "lamp_test")
    lamps = app.board.lamps
    from tablectl.hw.lamps import WIN
    saved = bytes(lamps.levels)
    try:
        for i in range(lamps.count):
            lamps.clear()
            lamps.set(i, WIN)
            lamps.show()
            _sleep(step_ms)
        for i in range(lamps.count):
            lamps.set(i, WIN)
        lamps.show()
        _sleep(step_ms * 4)
    finally:
        for i in range(lamps.count):
            lamps.levels[i] = saved[i]
        lamps.show()
    return Report("lamp_test", ["%d lamps lit one by one, then all together; check each by eye"
                                % lamps.count], {"lamps": lamps.count})


def display_test(step_ms=500):
    """Every character cell and every jackpot digit segment on, then the previous contents back."""
    app = _app()
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
                _sleep(step_ms)
        finally:
            for row in range(display.rows):
                display.text(row, saved[row])
        lines.append("text display: %d x %d filled with '8' then '#'" % (display.rows, display.cols))
    jackpot = getattr(board, "jackpot", None)
    if jackpot is not None:
        n = getattr(jackpot, "n", 8)
        eights = int("8" * n)  # all segments; as cents the point shows too
        jackpot.show_cents(eights)
        _sleep(step_ms)
        jackpot.blank()
        if hasattr(app.controller, "digits"):
            app.controller.digits = -1  # the controller's display task draws its figure again
        lines.append("jackpot digits: all segments, then blank until the controller redraws them")
    return Report("display_test", lines or ["this board has no display"], None)


def shaker_test(ms=None):
    """Run the electric shaker for the configured shake time (at most the driver's max on-time)."""
    app = _app()
    _refuse_if_busy(app, "shaker_test")
    shaker = getattr(app.board, "shaker", None)
    if shaker is None:
        raise ValueError("this board has no electric shaker")
    if ms is None:
        ms = min(app.config["shake_ms"], shaker.max_on_ms)
    if not isinstance(ms, int) or isinstance(ms, bool) or not 1 <= ms <= shaker.max_on_ms:
        raise ValueError("ms must be an integer 1..%d (the shaker's max on-time), got %r"
                         % (shaker.max_on_ms, ms))
    start = ticks_ms()
    try:
        shaker.on(ms)  # the driver refuses with the cover open (SB-2.1)
        # real time bounds the wait even if the board's clock is virtual; off whatever happens
        while shaker.service() and ticks_diff(ticks_ms(), start) < ms:
            _sleep(10)
    finally:
        shaker.off()
    ran = ticks_diff(ticks_ms(), start)
    return Report("shaker_test", ["shaker ran %d ms (asked %d, max %d) and is off" % (ran, ms, shaker.max_on_ms)],
                  {"ms": ms, "ran_ms": ran})


def _manifest_root():
    for root in ["/"] + [p for p in sys.path if p and p != ".frozen"]:
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
            crc = _store.crc32(mv[:n], crc)
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


def _stale_files(listed, present):
    """(unlisted, shadows): the code files in the firmware's folders that the manifest does not list,
    and the X.py beside a listed X.mpy (the import takes X.py first); each sorted, each file once."""
    deep = _code_places(listed)[0]
    unlisted, shadows = [], []
    for path in sorted(present):
        if path in listed:
            continue
        if path.endswith(".py") and path[:-3] + ".mpy" in listed:
            shadows.append(path)
        elif "/" in path and path[:path.find("/")] in deep:
            unlisted.append(path)
    return unlisted, shadows


def selftest(root=None):
    """CRC-32 of every firmware file against the manifest written at deploy, and no other code where
    the firmware lives: an unlisted module or a .py shadowing a listed .mpy fails it too."""
    root = _manifest_root() if root is None else root
    with open(_store.join(root, MANIFEST)) as f:
        manifest = json.load(f)
    files = manifest.get("files")
    if not isinstance(files, dict) or not files:
        raise ValueError("%s lists no files" % MANIFEST)
    bad, missing = [], []
    for path in sorted(files):
        full = _store.join(root, path)
        try:
            crc = _crc_file(full)
        except OSError:
            missing.append(path)
            continue
        if crc != files[path]:
            bad.append(path)
    deep, shallow = _code_places(files)
    unlisted, shadows = _stale_files(files, _code_files(root, deep, shallow))
    ok = not (bad or missing or unlisted or shadows)
    lines = ["%d files checked against %s (board %s): %s" % (len(files), MANIFEST, manifest.get("board"),
                                                              "all OK" if ok else "FAILED")]
    lines += ["CRC mismatch: " + p for p in bad] + ["missing: " + p for p in missing]
    lines += ["unlisted: " + p for p in unlisted]
    lines += ["shadows: %s (imported instead of %smpy)" % (p, p[:-2]) for p in shadows]
    if unlisted or shadows:
        lines.append("not the certified file set: make deploy removes them")
    return Report("selftest", lines, {"ok": ok, "checked": len(files), "bad": bad, "missing": missing,
                                      "unlisted": unlisted, "shadows": shadows})


def _clear_code(app):
    pool = _pool(app)
    figures = [getattr(pool, n, 0) for n in _meters.POOL_METERS] if pool is not None else []
    text = "%d %d %s %s" % (app.journal.seq, _round_no(app), json.dumps(app.meters.state()), figures)
    return "%06d" % (_store.crc32(text.encode()) % 1000000)


def ram_clear(code=None):
    """Without a code: what a RAM clear wipes and the code to confirm it. With the code: clear."""
    app = _app()
    _refuse_if_busy(app, "ram_clear")
    expected = _clear_code(app)
    if code is None:
        return Report("ram_clear", [
            "wipes the pool (back to its seed), the meters, the round and the result history;",
            "keeps the configuration and the journal. To confirm: service.ram_clear('%s')" % expected],
            {"code": expected})
    if str(code) != expected:
        raise ValueError("wrong confirmation code: call ram_clear() for the current one")
    pool = _pool(app)
    pool_cents = getattr(pool, "pool", 0) if pool is not None else 0
    paid = getattr(pool, "paid", 0) if pool is not None else 0
    round_no = _round_no(app)
    app.journal.append("ram_clear", round_no, pool_cents, paid,
                       "rounds %d voids %d" % (app.meters.rounds, app.meters.voids))
    if hasattr(app, "ram_clear"):
        app.ram_clear()
        note = "cleared; the controller restarted from the seed"
    else:
        for name in app.store.names():
            if name != "config":
                app.store.clear(name)
        app.meters = _meters.Meters()
        note = "records cleared; restart the controller (machine.reset()) to run from them"
    app.journal.append("ram_cleared", round_no)
    return Report("ram_clear", [note], {"cleared": True})
