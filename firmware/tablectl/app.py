"""The running controller: builds the flash log, store, journal, config, meters and the game's controller, runs the tasks.

    app = App(board)             # resumes from board.flash; a log that cannot be trusted -> tilt
    asyncio.run(app.run())       # or run(board, check_firmware()), what main.py calls: the firmware's
                                 # files checked against their manifest first, a mismatch a tilt

The records and the journal live in one log on the board's flash (tablectl.storage), so a step's record and
its journal entries are written in one frame (log.atomic()). At boot a write that a power cut tore is
discarded and journalled ('torn_write'); damage the log cannot explain is a tilt.

Tasks: the button poller (board.buttons -> controller.handle), the controller tick (shaker and bell
deadlines, electric shake done), the display (jackpot count-up), the watchdog (fed only when each of
those three has checked in since the last feed) and board.tasks() (the sim board's links).
Whatever way run() ends (an exception, KeyboardInterrupt, cancel), the shaker and bell are switched off.

`current` is the App last built (None before): the technician's service module uses it.
post(event) queues a button event as if pressed (for links that speak in events, not pins).
"""
import asyncio
import gc

from tablectl.config import Config, PROGRESSIVE
from tablectl.hw.buttons import Buttons
from tablectl.hw.clock import sleep_ms, ticks_diff
from tablectl.hw.watchdog import Supervisor
from tablectl.journal import Journal
from tablectl.storage import Log, LogError, Refused, unload_replay
from tablectl.meters import Meters
from tablectl.store import Store, Tilt
from tablectl.valid import is_int

current = None
TICK_MS = 20
NO_LOG_REGION = "NO LOG REGION"  # the tilt of a board whose log is a file (hw.wiring.table_flash)
TOO_LARGE = "SETUP TOO LARGE"  # a saved configuration this flash cannot hold a round of: configure() makes it smaller
IDLE_MS = 1000  # keys quiet this long before the idle hook erases ahead: a flurry of digits is left alone
DISPLAY_MS = 50
WATCHDOG_MS = 500
TASKS = ("buttons", "controller", "display")


def make_controller(app):
    game = app.config["game"]
    if game in ("sicbo", "fish_prawn_crab"):
        from tablectl.games.dice import DiceController
        return DiceController(app)
    if game == "fantan":
        from tablectl.games.fantan import FanTanController
        return FanTanController(app)
    if game in PROGRESSIVE:
        if app.config["link"]:  # a linked progressive (docs/link.md): only then is tablectl.link imported
            from tablectl.link import LinkedController
            return LinkedController(app)
        from tablectl.games.progressive import ProgressiveController
        return ProgressiveController(app)
    raise ValueError("no controller for game %r" % game)


EPOCH = "epoch"  # the record of the RAM clears' count ({'n': epoch})
BLOCK_MIN = 4096  # a table refuses smaller flash blocks (docs/storage.md): one must hold the largest record


class App:
    watchdog_ms = WATCHDOG_MS  # how often the supervisor checks the tasks (well inside the WDT timeout)

    def __init__(self, board, root="/", firmware=""):
        self.board = board
        self.root = root  # the board's filesystem folder, where an older firmware kept its records
        self.firmware = firmware  # '' or why the code is not the certified set (main.py checks it first)
        self.log = Log(board.flash)
        unload_replay()  # boot's code is not needed again: its heap goes to the controller
        self.store = Store(self.log)
        self.journal = Journal(self.log)
        self.tilt = None
        self.refused = ""  # the last step the log refused (Refused), for service.status()
        self._key_at = board.ticks_ms()  # when the last key came (the idle hook waits for a pause)
        self._swept = -1  # log.frames at the idle hook's last collection
        self.events = []
        self.supervisor = None
        self.service_on = False  # the key as last seen: turning it is journalled (tick)
        self.buttons = Buttons(board.buttons, scanners=getattr(board, "scanners", ()), ticks=board.ticks_ms)
        self.clock = self._clock()
        self.journal.clock = self.clock
        self._boot()
        global current
        current = self  # the service module reaches the table through this, running or not

    def _clock(self):
        """The board's clock, set if it reads no earlier than the newest entry's time (docs/technicians.md)."""
        from tablectl.timeofday import TimeOfDay
        try:
            floor = self.journal.last_time() if not self.log.problem else None
        except OSError:
            floor = None
        return TimeOfDay(getattr(self.board, "rtc", None), floor)

    def _epoch(self):
        """The RAM clears' count, 1 before the first (record 'epoch'): round numbers restart in each."""
        rec = self.store.peek(EPOCH)
        n = rec.get("n") if isinstance(rec, dict) else None
        return n if is_int(n) and n >= 1 else 1

    def set_clock(self, t, who):
        """Journal 'time_set' (a: the time before, 0 if not set; b: the new one; the entry carries the new
        time), then set the clock: a power cut between leaves a clock that reads earlier than the journal,
        so not set. Returns the time before (None: not set)."""
        from tablectl.utc import text
        if self.clock.rtc is None:  # refused before anything is journalled
            raise ValueError("this board has no real-time clock (board.rtc)")
        before = self.clock.now()
        self.journal.append("time_set", self.controller.round_no, before or 0, t,
                            text="by the %s, was %s" % (who, text(before)), at=t)
        self.clock.set(t)
        self.controller.redraw()  # the dealer's display no longer says TIME NOT SET
        return before

    def time_lost(self):
        """Journal that the clock stopped being set (it read earlier than the journal), once."""
        clock = self.clock
        if clock.lost and not clock.told:
            clock.told = True
            ctl = getattr(self, "controller", None)  # none yet at boot
            self.journal.append("time_lost", getattr(ctl, "round_no", 0), clock.lost_floor,
                                clock.lost_read or 0, text="the clock went back: TIME NOT SET")

    def _boot(self, event="boot"):
        """Build the controller from the records; `event` journals why (a boot, or a rebuild)."""
        board = self.board
        board.shaker.off()
        board.bell.off()
        log = self.log
        self.journal.epoch = self._epoch()
        self.config_lost = False
        if log.head < 0 and not log.problem:
            from tablectl.migrate import migrate  # a board's first boot of this firmware: older records
            migrate(log, self.root)
        try:
            if log.vital_lost:
                raise Tilt("the configuration may be in the damaged part of the log")
            self.config = Config(self.store, self.journal)
        except Tilt as e:
            self.config = Config(None, None)  # defaults, only so the service can answer
            self.config_lost = True  # no game is known, and a RAM clear must reset the configuration
            return self._tilted(Tilt(log.problem) if log.problem else e)
        if log.problem:
            # no configuration record survived (no whole checkpoint): the defaults are not the table's own
            self.config_lost = self.store.peek(Config.RECORD) is None
            return self._tilted(Tilt(log.problem))
        if self.firmware:  # never cleared by a reboot: by a deploy whose files pass the check
            return self._tilted(Tilt(self.firmware))
        if getattr(board.flash, "file_fallback", False) and not self.config["log_file_ok"]:
            return self._tilted(Tilt(NO_LOG_REGION))  # the log as a file on LittleFS: docs/technicians.md
        halt = self.store.load("halt")  # a tilt kept in the log: a reboot does not clear it, a RAM clear does
        if halt is not None:
            self.config_lost = bool(halt.get("config_lost"))
            if self.config_lost:
                self.config = Config(None, None)
            return self._tilted(Tilt(halt.get("why", "halted")))
        if log.block_size < BLOCK_MIN:
            return self._tilted(Tilt("flash blocks of %d bytes: a table's log needs %d-byte blocks (a progressive "
                                     "configuration alone is near 1 KB)" % (log.block_size, BLOCK_MIN)))
        why = self.config.oversize()  # one an older firmware took: no round starts that could not finish
        if why:
            return self._tilted(Tilt("%s: %s" % (TOO_LARGE, why)))
        try:
            if log.torn and event == "boot":  # the newest write was torn by a power cut: the state before it
                self.journal.append("torn_write", 0, log.torn, text="a write cut by a power failure was discarded")
            self.time_lost()
        except LogError as e:
            return self._tilted(Tilt(log.problem or str(e)))
        gc.collect()  # the replay's garbage goes before the controller's modules and tables come in
        try:
            rec = self.store.load("round")
            game = self.config["game"]
            self.meters = Meters.from_state(rec["m"], rec.get("ml")) if rec is not None and "m" in rec else Meters()
            self.controller = make_controller(self)
            if not self.config["link"] and self.store.peek("link") is not None:
                self.store.clear("link")  # no longer linked: the outbox goes (tablectl.link's record)
            if rec is not None and rec.get("game") == game:
                self.controller.restore(rec)
                self.journal.append(event, self.controller.round_no, text=game)
            else:
                with log.atomic():
                    if rec is not None:  # a new game was configured: round numbers go on
                        self.controller.round_no = rec.get("round", 1)
                        if "pool" in rec:  # the old game's pool closes: its pool and reserve stay in the journal
                            p = rec["pool"]  # Pool.state(): pool, reserve, carry, contributed, paid, seeded, ...
                            self.journal.append("pool_closed", rec.get("round", 1), p[0], p[1], rec.get("game", ""))
                    self.controller.save()
                    self.journal.append(event, self.controller.round_no, text=game)
            self.tilt = None
            self.controller.redraw()
        except LogError as e:  # the flash cannot take the boot's frames: say why, never an exception out of App()
            self._tilted(Tilt(log.problem or str(e)))
        except (Tilt, ValueError, KeyError, TypeError) as e:
            self._tilted(e)

    def _tilted(self, e):
        """Never invent a state: halt, saying why (docs/storage.md)."""
        from tablectl.games.tilt import TiltController
        self.tilt = str(e)
        self.meters = Meters()
        self.controller = TiltController(self, self.tilt, None if self.config_lost else self.config["game"])
        try:
            self.journal.append("tilt", 0, text=self.tilt)  # the audit trail shows when and why it halted
        except OSError:
            pass  # the journal's flash fails too: the display and service.status() still say why

    # -- hooks the technician's service calls -------------------------------------------------
    def config_changed(self, applied):
        """configure() applied keys at once (the controller is idle): rebuild for the new game or options."""
        if self.tilt is None or self.tilt == NO_LOG_REGION or self.tilt.startswith(TOO_LARGE):  # the tilts
            self._boot("reconfigured")  # configure() may end: then the boot tells whether it still stands

    def ram_clear(self, entries, keep_config=True):
        """Service RAM clear (confirmed there): pool, meters, round and history start again; the configuration
        is kept unless it is what tilted or keep_config is False (then it is back to its defaults). One checkpoint of the log,
        with the journal `entries` ((event, round_no, a, b, text) each, the last one in the new epoch): after
        a power cut the table is cleared (the epoch one more) or as it was, never between."""
        keep = {EPOCH: {"n": self.journal.epoch + 1}}  # round numbers restart: the epoch tells them apart
        cfg = self.store.peek(Config.RECORD)
        if cfg is not None and not self.config_lost and keep_config:
            keep[Config.RECORD] = cfg
        stamped = self.journal.entries(entries)
        if stamped and len(stamped[-1]) == 8:
            stamped[-1][7] += 1  # the last entry opens the new epoch
        self.log.checkpoint(keep, stamped)
        self._boot("restart")

    # -- events and tasks -------------------------------------------------------------------
    def post(self, event):
        self.events.append(event)

    def dispatch(self, event):
        try:
            return self.controller.handle(event)
        except Refused as e:  # the step's frame cannot be written: memory goes back to what the flash holds
            if self.tilt is None:
                self._resume(str(e))
            return False
        except LogError as e:  # the ring cannot take it: a tilt a RAM clear clears
            self._tilted(Tilt(self.log.problem or str(e)))
            return False

    def _resume(self, why):
        """The controller as the records on flash say (a step refused: nothing of it was written)."""
        rec = self.store.load("round")
        self.meters = Meters.from_state(rec["m"], rec.get("ml")) if rec is not None and "m" in rec else Meters()
        self.controller = make_controller(self)
        if rec is not None:
            self.controller.restore(rec)
        self.refused = why  # service.status() says it in full
        self.controller.notice("STEP NOT SAVED", "CALL TECHNICIAN", 3000)  # it would be again: the ring's size

    def poll(self):
        """One pass of the button task: debounced presses and posted events to the controller."""
        now = self.board.ticks_ms()
        for e in self.buttons.poll(now):
            self._key_at = now
            self.dispatch(e)
        while self.events:
            self.dispatch(self.events.pop(0))

    def tick(self):
        """One pass of the controller task: output deadlines, the service key, the controller's timed moves."""
        b = self.board
        now = b.ticks_ms()
        b.shaker.service(now)
        b.bell.service(now)
        self.key_seen()
        self.controller.tick(now)

    def key_seen(self):
        """The key switch as it is now, its turning journalled first: the service calls ask here too, so a
        change made the moment the key turns follows its key_on in the journal, never precedes it."""
        on = self.key_on()
        if on != self.service_on:
            self.service_on = on
            try:
                self.journal.append("key_on" if on else "key_off", self.controller.round_no)
            except OSError:
                pass  # the flash fails: the display still says it
            self.controller.redraw()
        return on

    def key_on(self):
        """The technician's service key switch is on (a board without one: its service is always open)."""
        key = getattr(self.board, "service_key", None)
        return True if key is None else bool(key.value())

    def idle(self):
        """Between keys (the button task, when no key is waiting): the flash log's erase and checkpoint, one a
        call, then a collection once steps were written since the last (True if it did one of them); and the
        journal told of a clock that went back."""
        if self.tilt is None and not self.events:
            try:
                self.time_lost()
                if self.log.idle():
                    return True
            except LogError:
                return False  # the next key's frame meets it (and tilts)
            if self.log.frames != self._swept:
                # a step's garbage (its record, its frame's text) collected now, in the dealer's pause: the
                # next key then finds the heap free and does not stop for a collection (a 64 KB heap's: up
                # to a million instructions, 8 ms on a Pico)
                self._swept = self.log.frames
                gc.collect()
                return True
        return False

    async def _buttons(self, i):
        while True:
            self.poll()
            if ticks_diff(self.board.ticks_ms(), self._key_at) >= IDLE_MS:
                self.idle()
            self.supervisor.alive(i)
            await sleep_ms(self.buttons.poll_ms)

    async def _controller(self, i):
        while True:
            self.tick()
            self.supervisor.alive(i)
            await sleep_ms(TICK_MS)

    async def _display(self, i):
        while True:
            animate = getattr(self.controller, "animate", None)
            if animate is not None:
                animate(self.board.ticks_ms())
            self.supervisor.alive(i)
            await sleep_ms(DISPLAY_MS)

    async def run(self, until=None):
        """Run every task; `until` (an asyncio.Event-like with wait(), or a coroutine) ends the run."""
        global current
        current = self
        self.supervisor = Supervisor(self.board.wdt, TASKS)
        tasks = [asyncio.create_task(self._buttons(0)), asyncio.create_task(self._controller(1)),
                 asyncio.create_task(self._display(2))]
        for coro in self.board.tasks():
            tasks.append(asyncio.create_task(coro))
        try:
            if until is not None:
                watchdog = asyncio.create_task(self._watchdog())
                tasks.append(watchdog)
                await until
            else:
                await self._watchdog()
        finally:
            # the interlock in software: whatever ended the run, nothing is left energised
            self.board.shaker.off()
            self.board.bell.off()
            for t in tasks:
                t.cancel()
            try:
                await sleep_ms(0)  # let the cancelled tasks finish, so none keeps this App alive
            except BaseException:
                pass

    async def _watchdog(self):
        while True:
            await sleep_ms(self.watchdog_ms)
            self.supervisor.check()


def check_firmware():
    """'' or why the firmware's files are not the certified set (tablectl.certify.boot_check): main.py asks
    first of all, so that the check's garbage goes before the table's first object comes; its code goes too."""
    import sys
    from tablectl import certify
    try:
        return certify.boot_check()
    finally:
        sys.modules.pop("tablectl.certify", None)  # needed once per boot
        gc.collect()


def run(board, firmware="", root="/"):
    """Entry used by main.py: the App on this board (firmware: check_firmware()'s answer), forever."""
    app = App(board, root, firmware)
    try:
        asyncio.run(app.run())
    except KeyboardInterrupt:
        # Ctrl-C at the REPL: a person stopped the table on purpose, so the armed watchdog must not
        # reset the board under them (a crash is not held: the watchdog is for that)
        hold = getattr(board.wdt, "hold", None)
        if hold is not None:
            hold()
        raise
    finally:
        board.shaker.off()
        board.bell.off()
