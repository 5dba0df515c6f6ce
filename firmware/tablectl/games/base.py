"""What every controller shares: button dispatch, refusals that change nothing, keypad entry, the saved round, history.

The dealer's panel (one role per button; a board wires each role to a GPIO or a keypad matrix key):

    0 1 2 3 4 5 6 7 8 9   keypad: dice faces, fan-tan count, seat and hand-class numbers
    CLEAR                 forget the digits typed so far; dice and fan-tan: on a shown result, correct it
    ENTER                 accept the digits typed (dice, count, seat, class, cards)
    SHAKE                 dice: start the electric shaker (or one press of the manual handle);
                          fan-tan: the heap is covered, open betting (FT-2, FT-4)
    BELL                  close betting with the bell (SB-3.1, FT-4)
    CONFIRM               payouts done: end the round (SB-4); progressive: settle the hits entered
    VOID                  held for long_ms (VOID_LONG): void the round; a short press only says so
    LOCK                  progressive: freeze the seat sensors before the first card (CSP-6.3, F3-10.3)
    HIT                   progressive: enter a winning hand (seat, class, optionally the cards)
    HISTORY               show the last results on the display (changes nothing)

Every event goes through handle(event), which first asks reason(event): '' when the key is legal now,
else the refusal (pokerkit's can_x/verify_x/x; the simulator greys out the keys it refuses). A refused
event changes nothing (no state, no record, no journal entry, no output): the display's second line
says why and `message` holds it. A state change is saved as one record ('round') with its journal
entry, in one frame of the flash log, then shown, so after a power cut the controller resumes from the
last saved state, and the journal never shows a step the record lacks (or the other way round). A void
round is shown on the display for NOTICE_MS and kept in the history as VOID; HISTORY goes back to the
prompt after HISTORY_MS.
"""
from tablectl.hw.clock import ticks_add, ticks_diff
from tablectl.hw.lamps import WIN
from tablectl.timeofday import NOT_SET
from tablectl.games import keeps_contract

DIGITS = "0123456789"
SERVICE = "SERVICE KEY ON"  # what the display says between rounds, and why a round does not start
RECORD = "round"
VOID = "void"  # a void round in the history of results


def _tuples(x):
    return tuple(_tuples(i) for i in x) if isinstance(x, list) else x


def drop_dice_table():
    """A board runs one game at a time: the outcome table tablectl.games.dice keeps for a rebuilt dice
    controller (about 20 KB) is given back when another game's controller is built."""
    import sys
    dice = sys.modules.get("tablectl.games.dice")
    if dice is not None:
        dice.forget()


@keeps_contract
class Controller:
    """Subclasses set `game`, IDLE (the state between rounds) and define on_<event> methods
    (on_shake, on_bell, on_enter, on_void_long, ...) and prompt() -> (line1, line2)."""

    IDLE = "idle"
    NOTICE_MS = 3000     # a void round confirmed on the display this long
    HISTORY_MS = 8000    # HISTORY's page shown this long after the last press
    HISTORY_GAP = " "    # between two results on a page
    LEGEND = (("win", WIN),)  # what each lamp level means on this table (the simulator's legend)

    def __init__(self, app):
        self.app = app
        self.board = app.board
        self.cfg = app.config
        self.state = self.IDLE
        self.round_no = 1
        self.entry = ""          # digits typed on the keypad, not yet accepted (not saved)
        self.results = []        # [(round_no, result)], oldest first, at most history_len
        self.message = ""        # why the last event was refused ('' after an accepted one)
        self.refusals = 0
        self.lamp_of = b""       # core spot index -> lamp index (NO_LAMP where none)
        self._history_page = -1
        self._notice = None      # (line 1, line 2) shown instead of the prompt, until the next key
        self._notice_until = None  # ... or this tick, if it has a time limit

    # -- the contract -------------------------------------------------------------------------
    def busy(self):
        """Why the technician's configure() and tests must wait, '' when they need not (a str, so
        `if ctl.busy()` still reads as before and a refusal can quote it)."""
        if self.state == self.IDLE:
            return ""
        return "round %d in progress (state %s); finish or void it first" % (self.round_no, self.state)

    def history(self, n=None):
        """The last n results as (round_no, result), oldest first."""
        n = len(self.results) if n is None else n
        return list(self.results[-n:]) if n > 0 else []

    def status(self):
        return {"game": self.game, "state": self.state, "round": self.round_no, "entry": self.entry,
                "message": self.message, "busy": bool(self.busy()), "rounds": self.app.meters.rounds,
                "voids": self.app.meters.voids}

    def reason(self, event):
        """'' if `event` is legal now, else why not (at most 16 columns, for the display). It changes
        nothing. Subclasses answer their own keys first and leave the rest to this one."""
        if event in ("HISTORY", "CLEAR") or (len(event) == 1 and event in DIGITS):
            return ""
        if event == "VOID":
            return "HOLD VOID 1 SEC"
        if getattr(self, "on_" + event.lower(), None) is None and not event.endswith("_LONG"):
            return ("%s NOT USED" % event)[:16]
        return ""  # a long hold of a key that has no long action: its press was handled

    def handle(self, event):
        """One button event; True if accepted, False if refused (nothing changed)."""
        if event != "HISTORY":
            self._history_page = -1
        why = self.reason(event)
        if why:
            return self.refuse(why)
        if event == "HISTORY":
            self.show_history()
            return True
        self.end_notice()  # a key the controller takes ends a notice
        if event == "CLEAR":
            return self.on_clear()
        if len(event) == 1 and event in DIGITS:
            return self.on_digit(event)
        fn = getattr(self, "on_" + event.lower(), None)
        return fn() if fn is not None else True

    def tick(self, now):
        """Called every few ms by the controller task: time-driven transitions (shaker done, ...); a
        subclass calls this one too (a notice's time limit)."""
        if self._notice_until is not None and ticks_diff(now, self._notice_until) >= 0:
            self._history_page = -1
            self.end_notice()

    def notice(self, line1, line2, ms=0):
        """Show two lines instead of the prompt until the next key or state change, and at most `ms`
        (0: no limit)."""
        self._notice = (line1, line2)
        self._notice_until = ticks_add(self.board.ticks_ms(), ms) if ms else None
        self.redraw()

    def end_notice(self):
        """Back to the prompt, if a notice shows."""
        if self._notice is not None:
            self._notice = self._notice_until = None
            self.redraw()

    # -- helpers for subclasses ---------------------------------------------------------------
    def refuse(self, why):
        self.message = why
        self.refusals += 1
        self.end_notice()  # the refusal goes under the prompt, not under a notice
        self.board.display.text(1, why)
        return False

    def accepted(self):
        self.message = ""
        self.redraw()
        return True

    def redraw(self):
        l1, l2 = self._notice or self.prompt()
        if self.state == self.IDLE and self.app.service_on:  # between rounds the key is what matters, then
            l1, l2 = SERVICE, l1 if self.app.clock.is_set() else NOT_SET  # the clock the technician must set
        d = self.board.display
        d.text(0, l1)
        d.text(1, l2)

    def on_clear(self):
        """CLEAR forgets the digits typed; a game may give it more to do (a result corrected)."""
        self.entry = ""
        return self.accepted()

    def type_digit(self, d):
        # how many digits an entry takes is each game's reason() (checked before any handler runs)
        self.entry += d
        return self.accepted()

    def set_state(self, state, event, a=0, b=0, text=""):
        """The one way a round moves on: save the record, journal the event, redraw."""
        self.state = state
        self.entry = ""
        self.message = ""
        self._notice = self._notice_until = None
        with self.app.log.atomic():  # the record and its journal entry: one frame on flash
            self.save()
            self.app.journal.append(event, self.round_no, a, b, text)
        self.redraw()

    def finish_round(self, event, void):
        """End the round (confirmed or void): the next round number, back to IDLE, one saved record."""
        done = self.round_no
        if void:
            self.remember(VOID)
            self.app.meters.void()
        else:
            self.app.meters.round_done()
        self.round_no += 1
        self.state = self.IDLE
        self.entry = ""
        self.message = ""
        self._notice = self._notice_until = None
        with self.app.log.atomic():
            self.save()
            self.app.journal.append(event, done)
        if void:  # the dealer sees the void taken, then the next round's prompt (drawn once, by notice())
            self.notice("ROUND %d VOID" % done, self.prompt()[1], self.NOTICE_MS)
        else:
            self.redraw()
        return True

    def record(self):
        # the meters ride in the same record: a round and its counts are saved by one write
        # a new list each save: the store keeps what it was given as the committed value
        rec = {"game": self.game, "state": self.state, "round": self.round_no, "hist": list(self.results),
               "m": self.app.meters.state()}
        self.extra(rec)
        return rec

    def extra(self, rec):
        """Subclasses add what their round needs to resume."""

    def save(self):
        self.app.store.save(RECORD, self.record())

    def restore(self, rec):
        """Resume from a saved record (a power cut in any state)."""
        if rec.get("game") != self.game:
            raise ValueError("saved round is for %r, this controller is %r" % (rec.get("game"), self.game))
        self.state = rec["state"]
        self.round_no = rec["round"]
        # JSON gives lists back where tuples were saved
        self.results = [(r[0], _tuples(r[1])) for r in rec.get("hist", [])]

    def remember(self, result):
        self.results.append((self.round_no, result))
        keep = self.cfg["history_len"]
        while len(self.results) > keep:
            self.results.pop(0)

    def wire(self, spot_ids):
        """The core spot index -> lamp index table for this game's layout on this board's chain."""
        import sys
        from tablectl.games.layouts import layout_for
        table = self.board.lamps.wire(layout_for(self.game), spot_ids)
        sys.modules.pop("tablectl.games.layouts", None)  # needed once per boot: give its code back to the heap
        return table

    def light(self, wins, level=WIN):
        """Light the lamp under each core spot index in `wins` (already-cleared board)."""
        lamps = self.board.lamps
        for i in wins:
            lamps.set(self.lamp_of[i], level)

    def lamps_off(self):
        self.board.lamps.clear()
        self.board.lamps.show()

    def open_betting(self):
        """Betting opens: the betting lamp on (SB-2.2; FT-4, once the heap is covered)."""
        self.betting_lamp(True)
        self.set_state("betting", "open")
        return True

    def close_betting(self):
        """BELL, for the games that close betting with the bell (SB-3.1, FT-4): legal while betting."""
        self.betting_lamp(False)
        self.board.bell.ring()
        self.set_state("closed", "bell")
        return True

    def betting_lamp(self, on):
        if self.board.betting_lamp is not None:
            self.board.betting_lamp.set(on)

    def result_text(self, result):
        return str(result)

    def result_items(self, result):
        """A result in the history as texts of at most 16 columns each: its result_text(), unless a
        game's result takes more than one (a progressive round's hits)."""
        return (self.result_text(result),)

    def show_history(self):
        """HISTORY pages through the last results, newest first, as many as fit on a line, for
        HISTORY_MS after the last press."""
        res = self.results
        if not res:
            self.notice(self.prompt()[0], "NO HISTORY", self.HISTORY_MS)
            return
        cols = getattr(self.board.display, "cols", 16)
        texts = []
        for r in reversed(res):
            if r[1] == VOID:
                texts.append("VOID")
            else:
                texts.extend(self.result_items(r[1]))
        pages = []
        line = ""
        gap = self.HISTORY_GAP
        for t in texts:
            if line and len(line) + len(gap) + len(t) > cols:
                pages.append(line)
                line = t
            else:
                line = (line + gap + t) if line else t
        pages.append(line)
        self._history_page = (self._history_page + 1) % len(pages)
        self.notice("HISTORY %d/%d" % (self._history_page + 1, len(pages)), pages[self._history_page],
                    self.HISTORY_MS)

