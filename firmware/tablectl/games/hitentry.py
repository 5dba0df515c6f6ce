"""The jackpot hit entry: the keypad's HIT sequence and the one check every hit passes (keypad or hit()).

    entry = HitEntry(ctl)        entry.step: '' (none), 'seat', 'class', 'cards', 'coup', 'super'
    entry.reason(event, typed)   '' or the refusal of a digit, ENTER or CLEAR in the current step
    entry.enter(typed)           -> None (the next step) or the checked hits [[seat, class, cards]]
    check(ctl, seat, cls, cards) -> (class, card ints); ValueError with a display-sized message
    check_coup(ctl, cards)       -> (class, card ints) of a baccarat coup (every locked seat makes it)
    second(ctl, cls, given)      '' or why the top award's supervisor confirmation is missing
Poker: HIT, seat, ENTER, class (none: the cards say), ENTER, the cards, ENTER; baccarat: HIT, the coup's
cards in dealing order, ENTER. A top award then takes the supervisor (key or code), ENTER. docs/dealers.md.
"""
from tablectl.rules import cards as _cards
from tablectl.rules import hits

CARD_DIGITS = 3
_CODE_MAX = 6
# whose card a coup takes next, by the cards typed (BAC-7.1: player, banker, player, banker; then the
# third cards the drawing rules deal, BAC-9, if any: ENTER ends the coup)
_COUP_NEXT = ("PLAYER", "BANKER", "PLAYER", "BANKER", "3RD CARD?", "3RD CARD?", "ENTER")


def card_from_digits(text):
    """'141' -> As: rank 02..14 then suit 1..4 (spades, hearts, clubs, diamonds); ValueError otherwise."""
    if len(text) != CARD_DIGITS:
        raise ValueError("card %r: rank 02-14 then suit 1-4" % text)
    r = int(text[:2])
    s = int(text[2])
    if not (2 <= r <= 14 and 1 <= s <= 4):
        raise ValueError("card %r: rank 02-14 then suit 1-4" % text)
    return ((r - 2) << 2) | (s - 1)


def typed_cards(text):
    """The cards typed as card ints ([] if none); ValueError naming the card to fix."""
    if len(text) % CARD_DIGITS:
        raise ValueError("CARD %d: 3 DIGITS" % (len(text) // CARD_DIGITS + 1))
    out = []
    for i in range(0, len(text), CARD_DIGITS):
        try:
            out.append(card_from_digits(text[i:i + CARD_DIGITS]))
        except ValueError:
            raise ValueError("CARD %d IS BAD" % (i // CARD_DIGITS + 1))
    return out


def award(ctl, cls):
    """(kind, fixed_cents, percent_bp) of class id `cls` at this table."""
    return ctl.pool.awards[ctl.class_ids.index(cls)]


def needs_cards(ctl, cls):
    """An award paid out of the pool (a percentage or the pool: CSP-10.2.1/10.2.2, F3-16.3.1/16.3.2,
    BAC-17.6/17.7/17.10/17.11) or of hit_cards_cents or more takes the cards that make it."""
    kind, fixed, bp = award(ctl, cls)
    return kind in ("percent", "pool") or fixed >= ctl.cfg["hit_cards_cents"]


def top(ctl, cls):
    """The whole pool (royal, A's royal, B's six of a kind, C's six of one rank and colour)."""
    return award(ctl, cls)[0] == "pool"


def second(ctl, cls, given):
    """'' if the supervisor confirmation the class needs is `given` ('key': the service key is on now;
    else the supervisor code typed), else why not (display words)."""
    how = ctl.cfg["supervisor"]
    if how == "none" or not top(ctl, cls):
        return ""
    if how == "key":
        return "" if given == "key" and ctl.app.key_on() else "TURN THE KEY"
    return "" if given == str(ctl.cfg["supervisor_code"]) else ("WRONG CODE" if given else "SUPERVISOR CODE")


def seat_reason(ctl, seat):
    """'' if a hit can be entered on `seat` (a correction if it has one), else why not."""
    if not isinstance(seat, int) or not 1 <= seat <= ctl.seats or not ctl.locked & (1 << (seat - 1)):
        return "NO BET SEAT %s" % seat  # CSP-10.1: only a locked bet can win
    return ""


def label(cls):
    """A class id as display words, at most 16 columns ('paradise_straight' -> 'PARADISE STR')."""
    words = cls.replace("_", " ").upper()
    return words if len(words) <= 16 else words.replace("STRAIGHT", "STR")


_COUNTS = ("ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX")


def short(cls):
    """A class id in whole words of at most 13 columns, to stand beside a seat or an amount: a count of
    cards alike as a digit ('four_of_a_kind' -> '4 OF A KIND', 'six_same_colour' -> '6 SAME COLOUR'),
    STRAIGHT as STR ('STR FLUSH', 'PARADISE STR'); the others as label() says them."""
    words = cls.upper().split("_")
    if len(words) > 2 and words[1] in ("OF", "SAME") and words[0] in _COUNTS:
        words[0] = str(_COUNTS.index(words[0]) + 1)
    return " ".join(words).replace("STRAIGHT", "STR")


def pays(award):
    """False for an award (kind, fixed_cents, percent_bp) that is 0 whatever the pool: a fixed amount
    of 0 ('fixed', or 'none': BAC-17.12 gives jackpot C five of a kind no award) and no percentage."""
    kind, fixed, bp = award
    return fixed > 0 or (kind in ("percent", "pool") and bp > 0)


def class_reason(ctl, cls):
    """'' unless `cls` is not a class of this game with an award here (BAC-17.12 gives jackpot C
    five of a kind none; a fixed amount configured as 0 pays nothing either): then why."""
    if cls not in ctl.classes:
        return "NO CLASS %s" % cls
    if not pays(award(ctl, cls)):
        return "CLASS %d NO AWARD" % (ctl.classes.index(cls) + 1)
    return ""


def community(ctl, seat=0):
    """Fortune 3: the round's two community cards (F3-11.3, F3-15.1), from a hit already entered on
    another seat than `seat`; None before the first hit with cards."""
    for h in ctl.hits:
        if h[0] != seat and h[2]:
            return h[2][3:]
    return None


def _ints(cards):
    out = []
    for c in cards:
        try:
            c = _cards.parse(c) if isinstance(c, str) else c
            _cards.name(c)  # ValueError for anything but a card int 0..51
        except ValueError:
            raise ValueError("CARD %d IS BAD" % (len(out) + 1))
        out.append(c)
    return out


def _class_of(ctl, cls, cards):
    """The class the cards make, refused unless it is `cls` (when given) and pays here."""
    try:
        found = hits.classify_hit(ctl.game, cards)
    except ValueError as e:
        text = str(e)
        if "BAC-9" in text:  # the drawing rules take another count: the number, the dealer's words
            raise ValueError("NEED %s CARDS" % text.split(" take ")[1][0])
        raise ValueError("NEED 4-6 CARDS")
    if found not in ctl.classes:
        raise ValueError("NO WINNING HAND")
    if cls is not None and found != cls:  # what the cards make, by name (not the class typed)
        raise ValueError("HAND " + short(found))
    if not pays(award(ctl, found)):  # the cards' class, not a keypad number the dealer never typed
        raise ValueError("HAND: NO AWARD")
    return found


def check(ctl, seat, cls, cards):
    """The poker hit (seat, class or None, cards or None) checked against the seat, the award table and
    the round's other hits: -> (class, card ints). One deck (CSP-1, F3-2.1): no card twice in the
    round, the refusal names the seat that holds it; Fortune 3's community cards are the round's."""
    why = seat_reason(ctl, seat) or (class_reason(ctl, cls) if cls is not None else "")
    if why:
        raise ValueError(why)
    if not cards:
        if cls is None or needs_cards(ctl, cls):
            raise ValueError("TYPE THE CARDS")
        return cls, []
    cards = _ints(cards)
    if ctl.game == "fortune3":
        shared = community(ctl, seat)
        if shared is not None and len(cards) == 3:
            cards = cards + shared
        if len(cards) != 5:
            raise ValueError("NEED 3 CARDS" if shared is not None else "NEED 3+2 CARDS")
        if shared is not None and sorted(cards[3:]) != sorted(shared):  # F3-11.3: one pair a round
            raise ValueError("COMMUNITY %s %s" % (_cards.name(shared[0]), _cards.name(shared[1])))
        own = 3
    else:
        if len(cards) != 5:
            raise ValueError("NEED 5 CARDS")
        own = 5
    for i in range(1, 5):
        if cards[i] in cards[:i]:
            raise ValueError("CARD %s TWICE" % _cards.name(cards[i]))
    for h in ctl.hits:
        if h[0] != seat:
            for c in cards[:own]:
                if c in h[2]:  # another seat's cards, Fortune 3's community included
                    raise ValueError("CARD %s SEAT %d" % (_cards.name(c), h[0]))
    return _class_of(ctl, cls, cards), cards


def check_coup(ctl, cards):
    """A baccarat coup's cards in dealing order (BAC-7.1, BAC-9) -> (class, card ints): the class every
    locked seat makes (BAC-17.6-17.12 split each award among them)."""
    if not ctl.locked:
        raise ValueError("NO BETS LOCKED")
    if not cards:
        raise ValueError("TYPE THE CARDS")
    cards = _ints(cards)
    if not 4 <= len(cards) <= 6:
        raise ValueError("NEED 4-6 CARDS")
    return _class_of(ctl, None, cards), cards


class HitEntry:
    """The keypad's sub-machine of a hit (see the module docstring); the controller holds the digits."""

    def __init__(self, ctl):
        self.ctl = ctl
        self.coup = ctl.game[:9] == "baccarat_"
        self.step = ""
        self.seat = 0
        self.cls = None      # the class typed; None: the cards say
        self.held = None     # the checked hits waiting for the supervisor

    def start(self):
        self.step = "coup" if self.coup else "seat"
        self.seat, self.cls, self.held = 0, None, None

    def reason(self, event, typed):
        ctl = self.ctl
        step = self.step
        if event == "CLEAR":
            return ""
        if event != "ENTER":  # a digit
            if step == "seat":
                return "" if "1" <= event <= str(ctl.seats) else "SEAT 1-%d" % ctl.seats
            if step == "class":
                n = len(ctl.classes)
                return "" if "1" <= event <= str(n) else "CLASS 1-%d" % n
            if step == "super":
                if ctl.cfg["supervisor"] == "key":
                    return "TURN KEY, ENTER"
                return "" if len(typed) < _CODE_MAX else "%d DIGITS MAX" % _CODE_MAX
            return "" if len(typed) < 6 * CARD_DIGITS else "%d DIGITS MAX" % (6 * CARD_DIGITS)
        if step == "seat":
            return seat_reason(ctl, int(typed)) if typed else "TYPE THE SEAT"
        if step == "class":
            return class_reason(ctl, ctl.classes[int(typed) - 1]) if typed else ""
        if step == "super":
            return second(ctl, self.held[0][1], "key" if ctl.cfg["supervisor"] == "key" else typed)
        try:
            self._checked(typed)
        except ValueError as e:
            return str(e)
        return ""

    def _checked(self, typed):
        """The hits the typed cards make: [[seat, class, cards]], every locked seat's for a coup."""
        ctl = self.ctl
        cards = typed_cards(typed)
        if self.coup:
            cls, cards = check_coup(ctl, cards)
            return [[s, cls, cards] for s in ctl.seat_list(ctl.locked)]
        cls, cards = check(ctl, self.seat, self.cls, cards)
        return [[self.seat, cls, cards]]

    def enter(self, typed):
        """ENTER, its reason() ''. None: on to the next step; else the hits to record."""
        ctl = self.ctl
        if self.step == "seat":
            self.seat, self.step = int(typed), "class"
            return None
        if self.step == "class":
            self.cls = ctl.classes[int(typed) - 1] if typed else None
            self.step = "cards"
            return None
        if self.step == "super":
            hits, self.held = self.held, None
            self.step = ""
            return hits
        hits = self._checked(typed)
        if ctl.cfg["supervisor"] != "none" and top(ctl, hits[0][1]):
            self.held = hits
            self.step = "super"
            return None
        self.step = ""
        return hits

    def clear(self, typed):
        """CLEAR: the card being typed (or the last whole card), the seat or class typed; on an empty
        field, back one step (the supervisor to the cards, the cards to the class, the class to the
        seat); on an empty seat (or coup) the hit is abandoned. -> the digits left."""
        if typed:
            if self.step in ("cards", "coup"):
                cut = len(typed) % CARD_DIGITS or CARD_DIGITS
                return typed[:-cut]
            return ""
        back = {"super": "coup" if self.coup else "cards", "cards": "class", "class": "seat"}
        self.held = None
        self.step = back.get(self.step, "")
        return ""

    def prompt(self, typed):
        """The display's two lines in the current step."""
        ctl = self.ctl
        step = self.step
        if step == "seat":
            return "HIT: SEAT?", "SEAT " + (typed or "_")
        if step == "class":
            if not typed:
                return "S%d CLASS? (1-%d)" % (self.seat, len(ctl.classes)), "ENTER: BY CARDS"
            return "S%d CLASS %s" % (self.seat, typed), label(ctl.classes[int(typed) - 1])
        if step == "super":
            if ctl.cfg["supervisor"] == "key":
                return "TOP AWARD", "SUPERVISOR KEY"
            return "SUPERVISOR CODE", "*" * len(typed) or "_"
        if step == "coup":
            return "COUP: " + _COUP_NEXT[min(len(typed) // CARD_DIGITS, 6)], cards_text(typed)
        shared = community(ctl, self.seat) if ctl.game == "fortune3" else None
        if ctl.game == "fortune3":
            if shared is None:
                return "S%d 3+2 CARDS" % self.seat, cards_text(typed)
            return "S%d 3 CARDS+%s%s" % (self.seat, _cards.name(shared[0]), _cards.name(shared[1])), \
                cards_text(typed)
        return "S%d 5 CARDS" % self.seat, cards_text(typed)


def cards_text(typed):
    """The cards typed so far by name (the last three) and the digits of the one being typed."""
    whole = len(typed) - len(typed) % CARD_DIGITS
    names = []
    for i in range(max(0, whole - 3 * CARD_DIGITS), whole, CARD_DIGITS):
        try:
            names.append(_cards.name(card_from_digits(typed[i:i + CARD_DIGITS])))
        except ValueError:
            names.append("??")
    return "%d: %s %s" % (whole // CARD_DIGITS, " ".join(names), typed[whole:])
