"""Progressive jackpot controller (Caribbean Stud 61/2004, Fortune 3 2025, baccarat 55/2004 jackpots A/B/C).

    betting --LOCK--> locked --HIT ... ENTER (tablectl.games.hitentry)--> locked --CONFIRM--> paying
    paying --CONFIRM...--> betting        locked --CONFIRM with no hit--> betting
    locked --VOID_LONG, kind, ENTER--> betting: the bets carried (CSP-11.1/11.4, F3-17.3) or returned
                                               (F3-17.1(2)/(3), BAC-10), the kind's article journalled

Seats are numbered 1..seats from the dealer's left (CSP-10.4, F3-15.3). While betting is open the seat
sensors are read and each seat's lamp follows its sensor; LOCK freezes them before the first card
(CSP-6.3, F3-10.3): every seat with a chip (or a bet carried from a void round) is locked, and each
newly accepted bet adds its contribution to the pool, once. The locked seats, the pool and the meters
are saved in one record, so after a power cut a locked round is still locked and no bet is counted
twice (a hit half typed is typed again: the display says so). Handlers change the state and commit it;
render() then draws the display, the seat lamps and the betting lamp (restore() calls it too).

A hit is the round's cards, checked by tablectl.games.hitentry (the keypad's and hit()'s one check):
unique across seats in a one-deck game, Fortune 3's community cards the round's, a baccarat coup entered
once for every locked seat, required for an award out of the pool or of hit_cards_cents or more, the
top award confirmed by the supervisor (configuration 'supervisor'). CONFIRM settles every hit of the
round at once through the core's pool, in the regulation's order (CSP-10.4..10.7, F3-15.3..15.6,
BAC-17.6..17.12); the display shows each seat with its class and the award in turn, then the new pool. Pending
pool-parameter changes apply after a hit (a lowered limit moves the excess to the reserve, journalled
'pool_to_reserve'; one that cannot apply stays pending, 'cfg_error'). The jackpot digits count up from
the pool they showed to the new pool; an award, or the pool after it, is shown at once.
"""
from tablectl.games.base import SERVICE, Controller, drop_dice_table
from tablectl.games import hitentry as _hitentry  # with the controller: imported mid-session, in a
# fragmented heap, it can fail
from tablectl.games.hitentry import short
from tablectl.hw.lamps import BET, WIN
from tablectl.meters import money
from tablectl.rules import cards as _cards
from tablectl.rules import awards as _awards
from tablectl.rules import pool as _pool
from tablectl.rules import SEATS

# the void kinds the dealer picks (keypad number = index + 1): (words, article, bets returned). CSP-11.1
# and 11.4 keep the progressive bets for the next round, as F3-17.3 does for F3-17.1(1) and F3-17.2;
# F3-17.1(2)/(3) and BAC-10 return every bet, the progressive's too (their contributions taken back)
VOIDS = {
    "caribbean_stud": (("DEALING ERROR", "CSP-11.1", False), ("SHUFFLER FAULT", "CSP-11.4", False)),
    "fortune3": (("DEALING BREACH", "F3-17.1.1", False), ("DEALER CARD UP", "F3-17.1.2", True),
                 ("PLAYER CARDS UP", "F3-17.1.3", True), ("SHUFFLER FAULT", "F3-17.2", False)),
    "baccarat": (("MISDEAL", "BAC-10", True),),
}
_PAYING = "PAYING: CONFIRM"
_FULL = "METERS FULL"  # the pool refuses a meter reaching 2**30 cents: a technician clears them


def refunded(pool, before, params):
    """The pool once the round's bets go back to the players (F3-17.1(2)/(3), BAC-10): its pool, reserve,
    carried fraction and contributions as `before` holds them (the first six figures of its state()
    before these bets, and any carried into the round with them, were locked), no bet locked. ValueError
    unless `before` is such a figure of this pool (nothing paid or seeded since)."""
    now = pool.state()
    if not isinstance(before, tuple) or len(before) != 6 or before[4:] != now[4:6] or before[3] > now[3]:
        raise ValueError("refund: not this round's state before its lock")
    return _pool.Pool.from_state(params, before + now[6:8] + (0,) * (len(now) - 8))


def hit_text(hit):
    """A hit's class and cards by name as dealt, for surveillance to check against the video (at most 35
    characters: 'royal_flush As Ks Qs Js Ts')."""
    return " ".join([hit[1]] + [_cards.name(c) for c in hit[2]])


def seats_text(seats):
    """[1, 2, 3, 5] -> '1-3 5': a run of three seats or more as first-last, the others one by one (at
    most 9 columns for 7 seats: '1 2 4 5 7')."""
    out = []
    i = 0
    while i < len(seats):
        j = i
        while j + 1 < len(seats) and seats[j + 1] == seats[j] + 1:
            j += 1
        if j - i >= 2:
            out.append("%d-%d" % (seats[i], seats[j]))
        else:
            for s in seats[i:j + 1]:
                out.append(str(s))
        i = j + 1
    return " ".join(out)


class ProgressiveController(Controller):
    IDLE = "betting"
    HISTORY_GAP = " / "  # results of words: 'NO HIT / S3 FLUSH', not 'NO HIT S3 FLUSH'
    LEGEND = (("bet placed", BET), ("seat won", WIN))

    def __init__(self, app):
        Controller.__init__(self, app)
        drop_dice_table()
        cfg = self.cfg
        self.game = cfg["game"]
        self.class_ids = _awards.table(self.game)[0]  # the core's class codes: index = code, 0 = none
        self.classes = self.class_ids[1:]            # keypad class 1 = the lowest award
        self.seats = cfg["seats"]
        self.pool = _pool.Pool(**self._pool_params())
        self.sensed = 0      # seat bit mask read from the sensors while betting (bit 0 = seat 1)
        self.hits = []       # [[seat, class id, [cards]]] entered this round
        self.awards = []     # [[seat, class id, cents]] settled, being shown (state 'paying')
        self.shown_award = 0
        self.by_coup = self.game[:9] == "baccarat_"  # a baccarat hit is the coup, once a round
        self.hit_entry = None  # the keypad's HIT sequence while one is typed (not saved)
        self.voiding = 0     # the void kind being picked (1..), 0: none (not saved)
        self.pre = None      # the pool's first six figures before this round's bets were locked (a void
        self.returns = False  # returns them), kept only where a void kind returns the bets
        self.lit = None      # (seat mask, betting lamp) the lamps show: render() draws only a change
        self.digits = -1     # the cents the jackpot digits show now; -1: nothing yet
        self.digits_pool = False  # they show the pool (not an award): it may count up from there
        for kind in self.void_kinds():
            self.returns = self.returns or kind[2]
        self.lamp_of = self.wire(tuple("seat_%d" % s for s in range(1, SEATS + 1)))
        self.render_lamps()  # betting is open until LOCK (the display: the app's boot draws it)

    @property
    def step(self):
        """The hit entry's step ('' when no hit is being typed)."""
        return self.hit_entry.step if self.hit_entry is not None else ""

    def entry_done(self):
        """No hit is being typed."""
        self.hit_entry = None

    def _pool_params(self):
        """The core pool's parameters from the configuration (amounts posted on the table, CSP-10.3)."""
        return self.cfg.pool_params()

    @property
    def locked(self):
        """Seat bit mask of the bets locked in the pool this round (or carried from a void round)."""
        mask = 0
        for s in range(self.seats):
            if self.pool.locked[s]:
                mask |= 1 << s
        return mask

    @property
    def carried(self):
        return self.locked if self.pool.carried else 0

    def busy(self):
        """Why the technician must wait ('' if not): a round, or bets carried from a void round."""
        why = Controller.busy(self)
        carried = self.carried
        if why or not carried:
            return why
        return ("bets carried from void round %d (seats %s) wait for the next round: lock and confirm "
                "it first" % (self.round_no - 1, ", ".join(str(s) for s in self.seat_list(carried))))

    def status(self):
        st = Controller.status(self)
        st.update({"busy": bool(st["busy"]), "pool_cents": self.pool.pool,
                   "locked": self.seat_list(self.locked), "carried": self.seat_list(self.carried),
                   "hits": [tuple(h[:2]) for h in self.hits], "hit_step": self.step,
                   "voiding": self.voiding, "void_kinds": [k[0] for k in self.void_kinds()]})
        if self.game == "fortune3":  # the round's community cards once a hit has them (the page's guide)
            shared = _hitentry.community(self)
            st["community"] = " ".join(_cards.name(c) for c in shared) if shared else ""
        return st

    def seat_list(self, mask):
        return [s for s in range(1, self.seats + 1) if mask & (1 << (s - 1))]

    # -- display ------------------------------------------------------------------------------
    def prompt(self):
        st = self.state
        if st == "betting":
            n = len(self.seat_list(self.sensed | self.carried))
            return "POOL " + money(self.pool.pool), "BETS %d  LOCK" % n
        if st == "locked":
            if self.voiding:
                kinds = self.void_kinds()
                return "VOID %d/%d ENTER" % (self.voiding, len(kinds)), kinds[self.voiding - 1][0]
            if self.step:
                return self.hit_entry.prompt(self.entry)
            return "LOCKED " + seats_text(self.seat_list(self.locked)), "HITS %d CONFIRM" % len(self.hits)
        # the seat and its class in words on one line, the amount on the other: the two never share
        # 16 columns (an amount takes up to 11, a class up to 13)
        seat, cls, cents = self.awards[self.shown_award]
        return "S%d %s" % (seat, short(cls)), "PAY " + money(cents)

    def animate(self, now):
        """Jackpot digits: while paying, the award being paid; otherwise the pool. They count up in steps
        only from a pool figure to a larger one (the contributions of the bets just locked); any other
        change (the award, the pool after it is paid or reseeded, a lowered limit) is shown at once, so
        the pool never seems to rise from a low figure after a hit."""
        pool = self.state != "paying"
        target = self.pool.pool if pool else self.awards[self.shown_award][2]
        d = self.digits
        if d == target and pool == self.digits_pool:
            return
        if pool and self.digits_pool and 0 <= d < target:
            step = (target - d) // 8
            d = d + step if step > 0 else target
        else:
            d = target
        self.digits, self.digits_pool = d, pool
        jp = self.board.jackpot
        if jp is not None:
            jp.show_cents(d)

    def redraw_digits(self):
        """The jackpot digits were overwritten (service.display_test): the display task draws them afresh."""
        self.digits = -1

    # -- seat sensors --------------------------------------------------------------------------
    def read_seats(self):
        """The seat bit mask the sensors read now (bit 0 = seat 1)."""
        mask = 0
        pins = self.board.seats
        for s in range(self.seats):
            if pins[s].value():
                mask |= 1 << s
        return mask

    def tick(self, now):
        Controller.tick(self, now)
        if self.state != "betting":
            return  # CSP-6.3, F3-10.3: frozen from the lock on
        mask = self.read_seats()
        if mask != self.sensed:
            self.sensed = mask
            self.render()

    def render(self):
        """Draw what the state says, after its frame is committed: the display, the seat lamps (the
        sensed and carried bets while betting, the locked ones from the lock on) and the betting lamp
        (lit until LOCK). Every handler ends here; restore() too, so a resumed table shows what play did."""
        self.redraw()
        self.render_lamps()

    def render_lamps(self):
        """The seat lamps and the betting lamp of render(), drawn only when they change."""
        betting = self.state == "betting"
        mask = (self.sensed if betting else self.locked) | self.carried
        won = 0
        for h in self.hits:  # a seat with a hit: its lamp turns from bet to won
            won |= 1 << (h[0] - 1)
        if self.lit == (mask, won, betting):
            return
        self.lit = (mask, won, betting)
        lamps = self.board.lamps
        lamps.clear()
        self.light((s for s in range(self.seats) if mask & ~won & (1 << s)), BET)
        self.light((s for s in range(self.seats) if won & (1 << s)), WIN)
        lamps.show()
        self.betting_lamp(betting)

    # -- events --------------------------------------------------------------------------------
    def reason(self, event):
        st, step, entry = self.state, self.step, self.entry
        if self.voiding:
            if event in ("ENTER", "CLEAR", "HISTORY"):
                return ""
            if len(event) == 1 and "1" <= event <= str(len(self.void_kinds())):
                return ""
            return "VOID: 1-%d ENTER" % len(self.void_kinds())
        if event == "LOCK":
            if st != "betting":
                return "ALREADY LOCKED" if st == "locked" else _PAYING
            if self.app.key_on():
                return SERVICE  # no round starts while a technician may be changing the table
            return "" if self.read_seats() | self.carried else "NO BETS TO LOCK"
        if event == "HIT":
            if st != "locked":
                return "LOCK FIRST" if st == "betting" else _PAYING
            return "FINISH THE HIT" if step else ""
        if len(event) == 1 and "0" <= event <= "9" or event == "ENTER":
            if st != "locked" or not step:
                if event == "ENTER":
                    return "NOTHING TO ENTER"
                return "PRESS HIT FIRST" if st == "locked" else "KEYS NOT IN USE"
            return self.hit_entry.reason(event, entry)
        if event == "CONFIRM":
            if step:
                return "FINISH THE HIT"
            return "LOCK FIRST" if st == "betting" else ""
        if event == "VOID_LONG":
            if st != "locked":
                return _PAYING if st == "paying" else "NOTHING TO VOID"
            return ""
        return Controller.reason(self, event)

    def handle(self, event):
        if event == "CLEAR" and (self.step or self.voiding):
            if self.voiding:
                self.voiding = 0  # the void is not taken
            else:
                self.entry = self.hit_entry.clear(self.entry)
                if not self.hit_entry.step:
                    self.entry_done()
            return self.accepted()
        taken = Controller.handle(self, event)
        if taken:
            self.render()
        return taken

    def on_lock(self):
        self.sensed = self.read_seats()
        carried = self.carried
        bets = self.sensed | carried
        stake = self.cfg["bet_cents"]
        seat_bets = [stake if bets & (1 << s) else 0 for s in range(self.seats)]
        for s in range(self.seats):
            if carried & (1 << s):
                seat_bets[s] = self.pool.locked[s]  # the carried bet as it was locked
        before = self.pool.state()[:6] if self.returns else None
        try:
            # CSP-10.1: each accepted bet feeds the pool once; carried bets are not counted again
            added = self.pool.lock(seat_bets)
        except ValueError:  # the seat bets are the config's stake or the carried ones: only a full meter
            return self.refuse(_FULL)
        if not carried:  # a carried round's bets were first locked with the state saved then
            self.pre = before
        n = len(self.seat_list(bets & ~carried))
        self.app.meters.bet(n)
        self.set_state("locked", "lock", bets, added, "%d new" % n)
        return True

    def on_hit(self):
        self.hit_entry = _hitentry.HitEntry(self)
        self.hit_entry.start()
        return self.accepted()

    def on_digit(self, d):
        if self.voiding:
            self.voiding = int(d)
            return self.accepted()
        if self.step in ("seat", "class"):
            self.entry = ""  # one digit: the next replaces it
        return self.type_digit(d)

    def on_enter(self):
        if self.voiding:
            return self.void(self.voiding)
        hits = self.hit_entry.enter(self.entry)
        self.entry = ""
        if hits is None:
            return self.accepted()
        return self.record_hits(hits, "keypad " + self.cfg["supervisor"])

    def hit(self, seat, cls, cards=None, supervisor=""):
        """Record a poker hit of this round (the technician's, a link's or a test's; the keypad's checks):
        cards, card ints or names ('As'), must make `cls` (None: the class they make). A hit on a seat
        that has one corrects it. supervisor: 'key' (the service key on now) or the supervisor code, for
        a top award when the configuration asks for one. ValueError (nothing changed, its message fits
        the 16-column display) otherwise."""
        if self.state != "locked":
            raise ValueError("NO LOCKED ROUND")
        if self.by_coup:
            raise ValueError("ENTER THE COUP")
        cls, cards = _hitentry.check(self, seat, cls, cards)
        self.second(cls, supervisor)
        return self.record_hits([[seat, cls, cards]], "call " + self.cfg["supervisor"])

    def coup(self, cards, supervisor=""):
        """Record a baccarat coup (its cards in dealing order): every locked seat wins the class it makes
        (BAC-17.6-17.12); a second coup corrects the first. ValueError as hit()."""
        if self.state != "locked":
            raise ValueError("NO LOCKED ROUND")
        if not self.by_coup:
            raise ValueError("HIT IS BY SEAT")
        cls, cards = _hitentry.check_coup(self, cards)
        self.second(cls, supervisor)
        return self.record_hits([[s, cls, cards] for s in self.seat_list(self.locked)],
                                "call " + self.cfg["supervisor"])

    def second(self, cls, supervisor):
        """ValueError unless the supervisor confirmation a top award of `cls` takes is given."""
        why = _hitentry.second(self, cls, supervisor)
        if why:
            raise ValueError(why)

    def record_hits(self, hits, how):
        """The checked hits saved and journalled in one frame: 'hit_in' each (its class and the cards by
        name, for surveillance to check against the video), 'hit_fix' with what a hit replaces, and the
        supervisor's confirmation of a top award."""
        top = self.cfg["supervisor"] != "none" and _hitentry.top(self, hits[0][1])
        self.entry_done()
        journal = self.app.journal
        with self.app.log.atomic():
            if self.by_coup:  # one coup a round: its cards once, on the first seat's hit
                if self.hits:
                    journal.append("hit_fix", self.round_no, 0, 0, "was " + hit_text(self.hits[0]))
                journal.append("coup_in", self.round_no, self.locked, len(hits), hit_text(hits[0]))
                for hit in hits[1:]:
                    hit[2] = []
                self.hits = hits
                hits = ()
            for hit in hits:
                text = hit_text(hit)
                for i in range(len(self.hits)):
                    if self.hits[i][0] == hit[0]:
                        journal.append("hit_fix", self.round_no, hit[0], 0, "was " + hit_text(self.hits[i]))
                        self.hits.pop(i)
                        break
                self.hits.append(hit)
                self.hits.sort()
                journal.append("hit_in", self.round_no, hit[0], len(self.hits), text)
            first = self.hits[-1] if not hits else hits[0]
            if top:
                journal.append("supervisor", self.round_no, first[0], 0, how + " " + first[1])
            self.save()
        return self.accepted()

    def void_kinds(self):
        return VOIDS["baccarat" if self.by_coup else self.game]

    def on_void_long(self):
        self.entry_done()
        self.entry = ""
        self.voiding = 1  # the first kind preselected; the digits pick another, ENTER takes it
        return self.accepted()

    def void(self, kind):
        """Void the locked round as void kind `kind` (1..: VOIDS) says: its article journalled; the
        progressive bets carried to the next round (CSP-11.1, CSP-11.4, F3-17.3) or returned with
        their contributions taken back (F3-17.1(2)(3), BAC-10)."""
        words, article, returned = self.void_kinds()[kind - 1]
        self.voiding = 0
        if returned:
            n = len(self.seat_list(self.locked))
            try:
                self.refund()
            except ValueError:  # the state before the lock is not this round's: a technician's case
                return self.refuse("CALL TECHNICIAN")
            self.pre = None
            self.app.meters.bets_back(n)
        else:
            self.pool.void_round()
        self.hits = []
        self.sensed = 0
        with self.app.log.atomic():
            self.app.journal.append("void_kind", self.round_no, kind, 1 if returned else 0,
                                    article + (" bets returned" if returned else " bets carried"))
            self.finish_round("void", True)
        return True

    def refund(self):
        """The round's bets back to the players: the pool as it was before they were locked (ValueError if the
        state kept is not this round's)."""
        self.pool = refunded(self.pool, self.pre, self._pool_params())

    def on_confirm(self):
        if self.state == "paying":
            if self.shown_award + 1 < len(self.awards):
                self.shown_award += 1
                self.save()
                return self.accepted()
            return self._next_round()
        if not self.hits:
            return self._next_round()
        # one call settles the whole round in the regulation's order (CSP-10.4..10.7, F3-15.3..15.5,
        # BAC-17: winners of one award share it)
        try:
            paid = self.pool.settle([(h[0], self.class_ids.index(h[1])) for h in self.hits])
        except ValueError:  # the hits were checked when entered: only a full meter is left
            return self.refuse(_FULL)
        self.paying([[seat, self.class_ids[code], cents] for seat, code, cents in paid])
        return self.accepted()

    def paying(self, awards):
        """Show and pay the round's settled awards [[seat, class, cents], ...] (here or by a link's server)."""
        self.awards = awards
        for seat, cls, cents in awards:
            self.app.meters.hit(self.round_no, seat, cls, cents)
        self.shown_award = 0
        self.state = "paying"
        # the settled round, its pay entries and the pool changes the hit lets apply: one frame on flash
        with self.app.log.atomic():
            self.save()
            for seat, cls, cents in awards:
                self.app.journal.append("pay", self.round_no, seat, cents, cls)
            self.apply_pending()

    def apply_pending(self):
        """Pool parameters changed by the technician take effect after a hit (see tablectl.config): the
        new pool is built first, and only if it can be does the configuration change, so the two agree."""
        cfg = self.app.config
        if not cfg.pending:
            return
        try:
            pool = _pool.Pool.from_state(cfg.pool_params(after=True), self.pool.state(), True)
        except ValueError as e:  # a reserve at 2**30 cents: the change waits for the next hit
            self.app.journal.append("cfg_error", self.round_no, text=str(e)[:48])
            return
        with self.app.log.atomic():  # the configuration and the pool it makes change in one frame
            cfg.apply_pending(self.round_no)
            moved = pool.reserve - self.pool.reserve
            self.pool = pool
            if moved:
                self.moved_to_reserve(moved)
            else:
                self.save()

    def moved_to_reserve(self, cents):
        """A limit lowered below the pool: the excess went to the reserve, which funds the restarts
        (tablectl.rules.pool); saved and journalled with the reserve after it, in one frame."""
        with self.app.log.atomic():
            self.save()
            self.app.journal.append("pool_to_reserve", self.round_no, cents, self.pool.reserve,
                                    "limit %d" % self.pool.limit)

    def result_text(self, awards):
        return " ".join(self.result_items(awards))

    def result_items(self, awards):
        """A round in the history: NO HIT; a coup's class (every locked seat won it); else each hit's seat
        and class, the round's second hit and on marked '+' ('S3 STR FLUSH', '+S5 FULL HOUSE')."""
        if not awards:
            return ("NO HIT",)
        if self.by_coup:
            return (short(awards[0][1]),)
        return tuple(("+S%d %s" if i else "S%d %s") % (awards[i][0], short(awards[i][1]))
                     for i in range(len(awards)))

    def remember(self, result):
        Controller.remember(self, result)
        # rounds of many hits: the oldest go first once the history holds more awards than history_len
        # one-hit rounds or one round of every seat's would, so that record 'round' stays within the bound
        # its configuration was accepted with (tablectl.bound; the journal keeps every result)
        results = self.results
        most = max(self.cfg["history_len"], self.seats)
        n = 0
        for r in results:
            if type(r[1]) is tuple:
                n += len(r[1])
        while n > most:
            r = results.pop(0)
            if type(r[1]) is tuple:
                n -= len(r[1])

    def _next_round(self):
        if self.state == "locked":
            self.pool.settle([])  # no hit: the round ends, the locked bets are done with
        self.remember(tuple(tuple(a) for a in self.awards))
        self.hits = []
        self.awards = []
        self.shown_award = 0
        self.sensed = 0
        self.pre = None
        return self.finish_round("confirm", False)

    # -- persistence ---------------------------------------------------------------------------
    def extra(self, rec):
        # the last hits apart from the counts: they change only when a hit is paid, so a round's patch
        # leaves them out (a baccarat coup pays every locked seat: 25 of them would ride in every frame)
        rec["ml"] = rec["m"].pop("l")
        rec["pool"] = self.pool.state()  # a new tuple each time; the locked and carried bets are part of it
        rec["hits"] = list(self.hits)  # new lists: the store keeps what a save gave it
        rec["awards"] = list(self.awards)
        rec["shown"] = self.shown_award
        if self.returns:
            rec["pre"] = list(self.pre) if self.pre else None  # a new list each save, as the store wants

    def restore(self, rec):
        Controller.restore(self, rec)
        saved = tuple(rec["pool"])
        # overflow: a power cut after a lowered limit_cents was saved and before the pool was (see
        # tablectl.config); the move to the reserve is finished here, journalled and saved once
        self.pool = _pool.Pool.from_state(self._pool_params(), saved, True)
        self.hits = rec.get("hits", [])
        self.awards = rec.get("awards", [])
        self.shown_award = rec.get("shown", 0)
        if self.state == "paying" and not self.awards:
            raise ValueError("record 'round': paying with no awards")
        pre = rec.get("pre")
        self.pre = tuple(pre) if pre else None
        self.lit = None
        self.render()
        if self.state == "locked":  # a hit being typed when the power went was not saved
            self.notice("POWER RESTORED", "RETYPE HIT ENTRY")
        if self.pool.reserve != saved[1]:
            self.moved_to_reserve(self.pool.reserve - saved[1])
