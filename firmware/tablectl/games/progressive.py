"""Progressive jackpot controller (Caribbean Stud 61/2004, Fortune 3 2025, baccarat 55/2004 jackpots A/B/C).

    betting --LOCK--> locked --HIT (seat, class, [cards])...--> locked --CONFIRM--> paying --CONFIRM...--> betting
    locked --CONFIRM with no hit--> betting        locked --VOID_LONG--> betting, locked bets carried

Seats are numbered 1..seats from the dealer's left (CSP-10.4, F3-15.3). While betting is open the
seat sensors are read and each seat's lamp follows its sensor; LOCK freezes them before the first
card (CSP-6.3, F3-10.3): every seat with a chip (or a bet carried from a void round) is locked, and
each newly accepted bet adds its contribution to the pool, once. The betting-open lamp is lit until
LOCK. The locked seats, the pool and the meters are saved in one record, so after a power cut a
locked round is still locked and no bet is counted twice (a hit half typed is typed again: the
display says so). The jackpot digits count up from the pool they showed to the new pool; after a hit
they show each award being paid, then the pool as it stands (reseeded after a pool award), at once.

A hit is entered on the keypad: HIT, the seat number, ENTER, the class number (1 = lowest class of
the game, see CLASSES in tablectl.config), ENTER, then optionally the cards, ENTER. A card is three
digits: the rank 02..14 (11 J, 12 Q, 13 K, 14 A) then the suit 1..4 (spades, hearts, clubs, diamonds);
Caribbean Stud takes the player's 5 cards, Fortune 3 the player's 3 then the 2 community cards
(F3-15.1), baccarat the 4 to 6 cards of the coup in the order dealt. The core classifies the cards
and the hit is refused unless it agrees with the class entered. CONFIRM settles every hit of the
round at once through the core's pool, which pays them in the regulation's order (CSP-10.4..10.7,
F3-15.3..15.5, BAC-17.6..17.12); the display shows "WIN", the seat and each award in turn (CONFIRM
after paying each), then the new pool. Pending pool-parameter changes are applied after a hit: the
pool is rebuilt with them, and if a lowered limit_cents leaves the pool above it, the excess moves to
the reserve (journalled 'pool_to_reserve', to the cent), as a contribution above the limit does; a
change that cannot be applied stays pending (journalled 'cfg_error'), so config and pool always agree.
A class whose award is 0 at this table (jackpot C five of a kind, BAC-17.12; a fixed amount set to 0)
is refused when entered. Every display line fits 16 columns; refusals name the keypad class number.
A void round (CSP-11.1, CSP-11.4, F3-17.3; BAC-10 says nothing of the jackpot: carried too) keeps
the locked bets for the next round without contributing again.
"""
from tablectl.games.base import SERVICE, Controller, drop_dice_table
from tablectl.hw.lamps import BET, WIN
from tablectl.meters import money
from tablectl.rules import cards as _cards
from tablectl.rules import hands
from tablectl.rules import awards as _awards
from tablectl.rules import pool as _pool
from tablectl.rules import SEATS

_CARD_DIGITS = 3
_PAYING = "PAYING: CONFIRM"
_FULL = "METERS FULL"  # the pool refuses a meter reaching 2**30 cents: a technician clears them


def label(cls):
    """A class id as display words, at most 16 columns ('paradise_straight' -> 'PARADISE STR')."""
    words = cls.replace("_", " ").upper()
    return words if len(words) <= 16 else words.replace("STRAIGHT", "STR")


def pays(award):
    """False for an award (kind, fixed_cents, percent_bp) that is 0 whatever the pool: a fixed amount
    of 0 ('fixed', or 'none': BAC-17.12 gives jackpot C five of a kind no award) and no percentage."""
    kind, fixed, bp = award
    return fixed > 0 or (kind in ("percent", "pool") and bp > 0)


def initials(cls):
    """'royal_flush' -> 'RF' (history and award lines where the words do not fit)."""
    return "".join(w[0] for w in cls.split("_")).upper()


def card_from_digits(text):
    """'141' -> As: rank 02..14 then suit 1..4 (spades, hearts, clubs, diamonds); ValueError otherwise."""
    r = int(text[:2])
    s = int(text[2])
    if not (2 <= r <= 14 and 1 <= s <= 4) or len(text) != 3:
        raise ValueError("card %r: rank 02-14 then suit 1-4" % text)
    return ((r - 2) << 2) | (s - 1)


class ProgressiveController(Controller):
    IDLE = "betting"
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
        self.step = ""       # hit entry: '', 'seat', 'class', 'cards'
        self.hit_seat = 0
        self.hit_class = ""
        self.digits = -1     # the cents the jackpot digits show now; -1: nothing yet
        self.digits_pool = False  # they show the pool (not an award): it may count up from there
        self.lamp_of = self.wire(tuple("seat_%d" % s for s in range(1, SEATS + 1)))
        self.betting_lamp(True)  # betting is open until LOCK

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
                   "hits": [tuple(h[:2]) for h in self.hits]})
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
            if self.step == "seat":
                return "HIT: SEAT?", "SEAT " + (self.entry or "_")
            if self.step == "class":
                name = label(self.classes[int(self.entry) - 1]) if self.entry else ""
                return "S%d CLASS %s (1-%d)" % (self.hit_seat, self.entry or "_", len(self.classes)), name
            if self.step == "cards":
                return "S%d CARDS/ENTER" % self.hit_seat, self.cards_text()
            return "LOCKED %s" % "".join(str(s) for s in self.seat_list(self.locked)), \
                "HITS %d CONFIRM" % len(self.hits)
        seat, cls, cents = self.awards[self.shown_award]
        return "WIN SEAT %d" % seat, self.award_line(money(cents), cls)

    def award_line(self, amount, cls):
        """'250030.00 ROYAL': the amount and as many whole words of the class as fit 16 columns, unless
        another class of the game starts with the same words (SIX: six of a kind or six of one colour?);
        then the initials, which always fit (at most 11 + 1 + 4 columns)."""
        room = 15 - len(amount)
        name = ""
        for word in label(cls).split(" "):
            more = name + " " + word if name else word
            if len(more) > room:
                break
            name = more
        for other in self.classes:
            if not name or (other != cls and label(other).startswith(name)):
                name = initials(cls)
                break
        return amount + " " + name

    def cards_text(self):
        """The cards typed so far by name (the last three) and the digits of the one being typed."""
        e = self.entry
        whole = len(e) - len(e) % _CARD_DIGITS
        names = []
        for i in range(max(0, whole - 3 * _CARD_DIGITS), whole, _CARD_DIGITS):
            try:
                names.append(_cards.name(card_from_digits(e[i:i + _CARD_DIGITS])))
            except ValueError:
                names.append("??")
        return "%d: %s %s" % (whole // _CARD_DIGITS, " ".join(names), e[whole:])

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
            self.show_seats(mask | self.carried)
            self.redraw()

    def show_seats(self, mask):
        lamps = self.board.lamps
        lamps.clear()
        won = 0
        for h in self.hits:
            won |= 1 << (h[0] - 1)
        self.light((s for s in range(self.seats) if mask & ~won & (1 << s)), BET)
        self.light((s for s in range(self.seats) if won & (1 << s)), WIN)
        lamps.show()

    # -- events --------------------------------------------------------------------------------
    def reason(self, event):
        st, step, entry = self.state, self.step, self.entry
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
        if len(event) == 1 and "0" <= event <= "9":
            if st != "locked" or not step:
                return "PRESS HIT FIRST" if st == "locked" else "KEYS NOT IN USE"
            if step == "seat":
                return "" if "1" <= event <= str(self.seats) else "SEAT 1-%d" % self.seats
            if step == "class":
                return "" if "1" <= event <= str(len(self.classes)) else "CLASS 1-%d" % len(self.classes)
            return "" if len(entry) < 6 * _CARD_DIGITS else "%d DIGITS MAX" % (6 * _CARD_DIGITS)
        if event == "ENTER":
            if st != "locked" or not step:
                return "NOTHING TO ENTER"
            if not entry and step != "cards":
                return "TYPE THE " + step.upper()
            if step == "seat":
                return self.seat_reason(int(entry))
            if step == "class":
                return self.class_reason(self.classes[int(entry) - 1])
            try:
                cards = self.typed_cards()
            except ValueError as e:
                return str(e)
            return self.cards_reason(self.hit_class, cards) if cards else ""
        if event == "CONFIRM":
            if step:
                return "FINISH THE HIT"
            return "LOCK FIRST" if st == "betting" else ""
        if event == "VOID_LONG":
            if st != "locked":
                return _PAYING if st == "paying" else "NOTHING TO VOID"
            return ""
        return Controller.reason(self, event)

    def on_lock(self):
        self.sensed = self.read_seats()
        carried = self.carried
        bets = self.sensed | carried
        stake = self.cfg["bet_cents"]
        seat_bets = [stake if bets & (1 << s) else 0 for s in range(self.seats)]
        for s in range(self.seats):
            if carried & (1 << s):
                seat_bets[s] = self.pool.locked[s]  # the carried bet as it was locked
        try:
            # CSP-10.1: each accepted bet feeds the pool once; carried bets are not counted again
            added = self.pool.lock(seat_bets)
        except ValueError:  # the seat bets are the config's stake or the carried ones: only a full meter
            return self.refuse(_FULL)
        n = len(self.seat_list(bets & ~carried))
        self.app.meters.bet(n)
        self.show_seats(bets)
        self.betting_lamp(False)
        self.set_state("locked", "lock", bets, added, "%d new" % n)
        return True

    def on_hit(self):
        self.step = "seat"
        return self.accepted()

    def handle(self, event):
        if event == "CLEAR" and self.step:
            if self.entry:
                self.entry = ""
            else:  # a second CLEAR abandons the hit being entered
                self.step = ""
            return self.accepted()
        taken = Controller.handle(self, event)
        if not taken and event == "ENTER" and self.step == "cards":
            self.entry = ""  # refused cards are typed again from the first; the display says why
        return taken

    def on_digit(self, d):
        if self.step in ("seat", "class"):
            self.entry = ""  # one digit: the next replaces it
        return self.type_digit(d)

    def on_enter(self):
        if self.step == "seat":
            self.hit_seat = int(self.entry)
            self.step = "class"
            self.entry = ""
            return self.accepted()
        if self.step == "class":
            self.hit_class = self.classes[int(self.entry) - 1]
            self.step = "cards"
            self.entry = ""
            return self.accepted()
        return self.hit(self.hit_seat, self.hit_class, self.typed_cards() or None)

    def typed_cards(self):
        """The cards typed so far as card ints ([] if none); ValueError with the display's message."""
        e = self.entry
        if len(e) % _CARD_DIGITS:
            raise ValueError("3 DIGITS A CARD")
        try:
            return [card_from_digits(e[i:i + _CARD_DIGITS]) for i in range(0, len(e), _CARD_DIGITS)]
        except ValueError:
            raise ValueError("BAD CARD")

    def seat_reason(self, seat):
        """'' if a hit can be entered on `seat`, else why not (display words)."""
        if not isinstance(seat, int) or not 1 <= seat <= self.seats or not self.locked & (1 << (seat - 1)):
            return "NO BET SEAT %s" % seat  # CSP-10.1: only a locked bet can win
        for h in self.hits:
            if h[0] == seat:
                return "SEAT %d HAS A HIT" % seat
        return ""

    def cards_reason(self, cls, cards):
        """'' if `cards` (ints or names) are a hand the core classifies as `cls`, else why not."""
        try:
            cards = self.check_cards(cards)
        except ValueError as e:
            return str(e)
        found = self.classify(cards)
        if found != cls:  # the keypad number of what the cards make, the dealer's vocabulary
            return "CARDS = " + ("CLASS %d" % (self.classes.index(found) + 1) if found in self.classes else "NO CLASS")
        return ""

    def hit(self, seat, cls, cards=None):
        """Record a hit of this round (the keypad's HIT sequence ends here; links and tests may call it).
        cards: card ints or names ('As'); if given, the core must classify them as `cls`. ValueError
        (nothing changed, its message fits the 16-column display) for a seat without a locked bet, a
        second hit on a seat, an unknown class or one that pays nothing here, bad cards, or cards that
        make another class: the checks reason('ENTER') makes of the keypad's entry."""
        if self.state != "locked":
            raise ValueError("NO LOCKED ROUND")
        why = self.seat_reason(seat) or self.class_reason(cls) or (self.cards_reason(cls, cards) if cards else "")
        if why:
            raise ValueError(why)
        if cards:
            cards = self.check_cards(cards)
        self.hits.append([seat, cls, cards or []])
        self.step = ""
        # the cards as dealt, by name, for surveillance to check the hit against the video (at most 35 characters)
        self.set_state("locked", "hit_in", seat, len(self.hits),
                       " ".join([cls] + [_cards.name(c) for c in cards or ()]))
        self.show_seats(self.locked | self.carried)  # the winner's lamp turns from bet to won
        return True

    def class_reason(self, cls):
        """'' unless `cls` is not a class of this game with an award here (BAC-17.12 gives jackpot C
        five of a kind none; a fixed amount configured as 0 pays nothing either): then why."""
        if cls not in self.classes:
            return "NO CLASS %s" % cls
        if not pays(self.pool.awards[self.class_ids.index(cls)]):
            return "CLASS %d NO AWARD" % (self.classes.index(cls) + 1)
        return ""

    def check_cards(self, cards):
        """The cards of a hit as ints, their count and (one-deck poker) distinctness checked, with
        display-sized messages; the core checks them again."""
        poker = self.game in ("caribbean_stud", "fortune3")
        out = []
        for c in cards:
            try:
                c = _cards.parse(c) if isinstance(c, str) else c
                _cards.name(c)  # ValueError for anything but a card int 0..51
            except ValueError:
                raise ValueError("BAD CARD %d" % (len(out) + 1))
            if poker and c in out:
                raise ValueError("CARD %s TWICE" % _cards.name(c))
            out.append(c)
        if poker and len(out) != 5:
            raise ValueError("NEED 3+2 CARDS" if self.game == "fortune3" else "NEED 5 CARDS")
        if not poker and not 4 <= len(out) <= 6:
            raise ValueError("NEED 4-6 CARDS")
        return out

    def classify(self, cards):
        """The core's class id for the cards of a hit (CSP-10.2, F3-15.1, BAC-13.1.4.4)."""
        g = self.game
        if g == "caribbean_stud":
            return hands.CLASS_IDS[hands.classify5(cards)]
        if g == "fortune3":
            return hands.CLASS_IDS[hands.classify_3_plus_2(cards[:3], cards[3:])]
        scheme = g[-1]
        # P, B, P, B, then the player's third card before the banker's (BAC-7.1). With five cards the
        # class does not depend on whose third card the fifth is (pairs use the first two cards of a
        # hand, scheme A's royal the first five dealt, B and C every card), so it goes to the player.
        player = [cards[0], cards[2]] + ([cards[4]] if len(cards) > 4 else [])
        banker = [cards[1], cards[3]] + ([cards[5]] if len(cards) > 5 else [])
        code = hands.baccarat_class(scheme, cards, player, banker)
        return hands.BACCARAT_CLASS_IDS[scheme][code]

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
        """A round in the history: '-' without a hit, else seat and class initials (S3RF = royal flush)."""
        if not awards:
            return "-"
        return "+".join("S%d%s" % (a[0], initials(a[1])) for a in awards)

    def _next_round(self):
        if self.state == "locked":
            self.pool.settle([])  # no hit: the round ends, the locked bets are done with
        self.remember(tuple(tuple(a) for a in self.awards))
        self.hits = []
        self.awards = []
        self.shown_award = 0
        self.sensed = 0
        self.lamps_off()
        self.betting_lamp(True)
        return self.finish_round("confirm", False)

    def on_void_long(self):
        # CSP-11.1, CSP-11.4, F3-17.3: the progressive bets stay for the next round, not contributed again
        self.pool.void_round()
        self.hits = []
        self.step = ""
        self.sensed = 0
        self.show_seats(self.carried)
        self.betting_lamp(True)
        return self.finish_round("void", True)

    # -- persistence ---------------------------------------------------------------------------
    def extra(self, rec):
        rec["pool"] = self.pool.state()  # a new tuple each time; the locked and carried bets are part of it
        rec["hits"] = list(self.hits)  # new lists: the store keeps what a save gave it
        rec["awards"] = list(self.awards)
        rec["shown"] = self.shown_award

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
        self.show_seats(self.locked | self.carried)
        self.betting_lamp(self.state == "betting")
        if self.state == "locked":  # a hit being typed when the power went was not saved
            self.notice("POWER RESTORED", "RETYPE HIT ENTRY")
        if self.pool.reserve != saved[1]:
            self.moved_to_reserve(self.pool.reserve - saved[1])
