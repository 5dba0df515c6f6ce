"""Blackjack round engine (56/2004 as amended by 42/2007): deal, validated player decisions, dealer, settlement.

A Round deals from anything with draw() (rulebook.cards.Shoe, seeded or replayed) to one or more
boxes ("seats", each with a main stake and at most one side bet) and the dealer, then takes the
players' decisions pokerkit-style: can_x() answers, verify_x() raises RuleError with the reason,
x() acts. Decisions apply to the current hand (boxes from the dealer's left, hands in order, BJ-6.3);
insurance and even money name the seat. When no player hand is left to act, dealer_play() draws the
dealer's cards (BJ-6.1, 7.1) and settle() returns each seat's net money per bet.

Dealing order (BJ-5.1: one card at a time from the left): every box's first card, the dealer's face-up
card, every box's second card; with `dealing`=`box` (BJ-5.2.1.2) the dealer's face-down card comes
next, otherwise (shoe, BJ-5.2.1.1) the dealer's second card is drawn in dealer_play(). A split hand
gets its second card when it becomes the hand in play. The dealer always completes the hand by the
drawing rule, even when every box has busted (BJ-6.1 and 7.1 make no exception).

Shared boxes (BJ-20, shared.py): a seat made with Seat.shared(bettors) names its bettors;
the Round finds the box's decider by the option shared_box before dealing, every decision on that
box must then name it (by=who) and anyone else is refused (BJ-20.1, 20.2), and settle_bettors()
splits the box's result pro rata to the stakes.

Interpretations (see game.py for the list and the options that select another reading).
"""
from fractions import Fraction

from .cards import ACE, card_value, hand_total
from .shared import box_decider, check_bettors, settle_shared
from ..errors import RuleError

SIDE_BETS = ("any_pair", "sevens", "over13", "under13")


def is_blackjack(cards):
    """BJ-10.1: an ace and a ten or picture as the first two cards."""
    return len(cards) == 2 and hand_total(cards)[0] == 21


def dealer_hits(total, soft, ncards, opts):
    """BJ-6.1: hit 16 or less and soft 17, stand on 17 or more; BJ-6.6 names only A+6 as soft 17
    (option soft17_scope: `all` soft 17s, the Interpretation, or `six_ace`, a two-card A+6 only)."""
    if total < 17:
        return True
    if total == 17 and soft and opts["dealer_hits_soft17"]:
        return opts["soft17_scope"] == "all" or ncards == 2
    return False


def dealer_must_hit(cards, opts):
    total, soft = hand_total(cards)
    return dealer_hits(total, soft, len(cards), opts)


def bonus_hand(cards):
    """BJ-15: exactly three cards, a suited 6-7-8 or three 7s."""
    if len(cards) != 3:
        return False
    ranks = sorted(c.rank for c in cards)
    if ranks == [7, 7, 7]:
        return True
    return ranks == [6, 7, 8] and len(set(c.suit for c in cards)) == 1


def _amount(value, what):
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)) or value <= 0:
        raise RuleError("%s must be a positive whole number or fraction of units, got %r" % (what, value))
    return Fraction(value)


class Hand:
    """One hand of a box: its cards and stake; at_once holds the net of a hand settled before the dealer."""

    def __init__(self, cards, stake, split=False):
        self.cards = list(cards)
        self.stake = stake
        self.split = split          # came from a split: 21 is not a blackjack (BJ-10.6)
        self.doubled = False
        self.stood = False
        self.at_once = None         # surrender, even money, bonus, five-card: paid/lost at once

    @property
    def total(self):
        return hand_total(self.cards)[0]

    @property
    def blackjack(self):
        return not self.split and is_blackjack(self.cards)

    @property
    def split_aces(self):
        return self.split and self.cards[0].rank == ACE

    def __repr__(self):
        return "Hand(%s, stake=%s)" % (",".join(str(c) for c in self.cards), self.stake)


class Seat:
    """A box: main stake, optional side bet {id: stake} (BJ-13 allows one), its hands and insurance;
    bettors (BJ-20) when players are named: see Seat.shared."""

    def __init__(self, main, side=None, bettors=None):
        self.main = _amount(main, "the main bet")
        self.bettors = None
        self.decider = None         # who decides, set by the Round (BJ-20.1); None: an unnamed player
        if bettors is not None:
            self.bettors = check_bettors(bettors)
            total = sum(Fraction(b.stake) for b in self.bettors)
            if total != self.main:
                raise RuleError("the box's main bet %s is not its bettors' stakes added up (%s)"
                                % (self.main, total))
            if side and len(self.bettors) > 1:
                raise RuleError("side bets on a shared box are not modelled: each bettor's side bet "
                                "has no owner here (BJ-20 is silent on them)")
        side = dict(side or {})
        if len(side) > 1:
            raise RuleError("BJ-13: a box takes one side bet besides the main bet and insurance, got %s"
                            % ", ".join(sorted(side)))
        for bet, stake in side.items():
            if bet not in SIDE_BETS:
                raise RuleError("unknown side bet %r (side bets: %s)" % (bet, ", ".join(SIDE_BETS)))
            side[bet] = _amount(stake, "the %s bet" % bet)
        self.side = side
        self.hands = []
        self.first_two = []
        self.sevens_third = None    # BJ-13.2.2: first card dealt after the first split of 7,7
        self.split_pairs = 0        # BJ-13.1.2: split hands whose first two cards form another pair
        self.insurance = Fraction(0)
        self.acted = False          # any hit/stand/double/split/surrender/five decision made
        self.resplits = 0           # re-splits of a non-ace pair used (BJ-16.5)
        self.declined_resplit = False
        self.doubled = False

    @classmethod
    def shared(cls, bettors, side=None):
        """A box bet by the named players (Bettor(who, stake, seated, distance) or such tuples), its
        main bet their stakes added up (BJ-20)."""
        bettors = check_bettors(bettors)
        return cls(sum(Fraction(b.stake) for b in bettors), side, bettors)

    @property
    def split(self):
        return len(self.hands) > 1


def _checks(name):
    """Round.can_<name>(by=None) -> bool and Round.verify_<name>(by=None), which raises RuleError saying
    why the decision is not open (to `by`, on a box with named bettors, BJ-20)."""
    def can(self, by=None):
        return self._can(name, by)

    def verify(self, by=None):
        self._verify(name, by)

    return can, verify


class Round:
    """One round; see the module docstring for the order of play."""

    def __init__(self, opts, shoe, seats):
        if not seats:
            raise RuleError("a round needs at least one box with a bet (BJ-5.1)")
        if opts["dealing"] == "box" and opts["decks"] != 1:
            raise RuleError("BJ-5.2.1.2/BJ-1.3: the metal dealing box holds one deck, not %d" % opts["decks"])
        self.opts = opts
        self.shoe = shoe
        self.seats = [s if isinstance(s, Seat) else Seat(*s) if isinstance(s, tuple) else Seat(s)
                      for s in seats]
        for i, seat in enumerate(self.seats):    # BJ-20.1, before any card is dealt
            if seat.bettors is not None:
                try:
                    seat.decider = seat.bettors[box_decider(seat.bettors, opts["shared_box"],
                                                            opts["shared_box_max_bettors"])].who
                except RuleError as err:
                    raise RuleError("box %d: %s" % (i, err)) from None
        self.dealer = []
        self.offer_open = True      # insurance is offered before anyone plays (BJ-12.1)
        self.dealer_done = False
        self.burned = []
        firsts = [shoe.draw() for _ in self.seats]
        self.dealer.append(shoe.draw())
        for seat, first in zip(self.seats, firsts):
            seat.first_two = [first, shoe.draw()]
            seat.hands = [Hand(seat.first_two, seat.main)]
        if opts["dealing"] == "box":
            self.dealer.append(shoe.draw())
        self.seat_i, self.hand_i = 0, 0
        self._advance()

    # ---- state -------------------------------------------------------------------------------
    @property
    def up(self):
        return self.dealer[0]

    @property
    def current(self):
        """(seat index, hand index) of the hand to act, or None when the players are done."""
        if self.seat_i >= len(self.seats):
            return None
        return self.seat_i, self.hand_i

    def in_play(self):
        """(seat, hand) of the hand to act; RuleError when the players have finished."""
        if self.current is None:
            raise RuleError("no player hand is in play: the players have finished")
        return self.seats[self.seat_i], self.seats[self.seat_i].hands[self.hand_i]

    def legal(self, by=None):
        """Names of the decisions open to the current hand ([] when none is in play); `by` names the
        player asking (needed on a box with named bettors, BJ-20)."""
        if self.current is None:
            return []
        return [name for name in ("hit", "stand", "double", "split", "surrender", "five")
                if getattr(self, "can_" + name)(by)]

    def decider(self, seat_i=None):
        """Who decides for box seat_i (default the box in play): the BJ-20.1 decider, None if unnamed."""
        if seat_i is None:
            seat_i = self.seat_i
        if not self._seat_exists(seat_i):
            raise RuleError(self._no_seat(seat_i))
        return self.seats[seat_i].decider

    def _who_reason(self, seat_i, by):
        """Why `by` may not decide for box seat_i, or None (BJ-20.1, BJ-20.2)."""
        seat = self.seats[seat_i]
        if seat.bettors is None:
            if by is not None:
                return "box %d's bettors are not named, so %r cannot be checked: leave `by` out" % (seat_i, by)
            return None
        if by == seat.decider:
            return None
        names = [b.who for b in seat.bettors]
        if by is None:
            return "box %d is bet by %s: name the player deciding (by=%r, BJ-20.1)" \
                % (seat_i, ", ".join(map(repr, names)), seat.decider)
        if by in names:
            return "box %d's decisions are %r's under shared_box=%s (BJ-20.1), not %r's" \
                % (seat_i, seat.decider, self.opts["shared_box"], by)
        return "%r does not bet on box %d: players on other boxes must not interfere (BJ-20.2)" % (by, seat_i)

    def _reason(self, name, by=None):
        """Why `by` may not take decision `name` for the current hand, or None."""
        if self.current is None:
            return "no player hand is in play: the players have finished"
        return self._who_reason(self.seat_i, by) or self._hand_reason(name)

    def _hand_reason(self, name):
        """Why `name` is illegal for the current hand whoever asks, or None."""
        if self.current is None:
            return "no player hand is in play: the players have finished"
        seat, hand = self.seats[self.seat_i], self.seats[self.seat_i].hands[self.hand_i]
        total = hand.total
        if name == "stand":
            return None
        if name == "hit":
            if hand.doubled or hand.split_aces:
                return "a doubled hand or a split ace takes one card only (BJ-6.4.2, 6.4.3)"
            if total >= 21:
                return "no hitting on a Blackjack or 21 (BJ-6.4.1)"
            return None
        if name == "double":
            if len(hand.cards) != 2 or hand.doubled:
                return "doubling is on the first two cards of a hand only (BJ-17.1)"
            if hand.split_aces:
                return "no doubling after splitting aces (BJ-17.1.2)"
            if total >= 21:
                return "no doubling on a Blackjack or 21 (BJ-6.4.1)"
            if self.opts["double"] == "first_two" and hand.split:
                return "this table doubles only on a box's first two cards, not after a split (BJ-17.1.1)"
            if self.opts["double"] == "eleven" and total != 11:
                return "this table doubles only when the first two cards total 11 (BJ-17.1.3), not %d" % total
            return None
        if name == "split":
            if len(hand.cards) != 2 or hand.cards[0].rank != hand.cards[1].rank:
                return "only two cards of the same rank can be split (BJ-16.1, 13.1.1)"
            if len(seat.hands) >= self.opts["max_split_hands"]:
                return "the box already has %d hands, the most this table allows (BJ-16.1)" % len(seat.hands)
            if hand.split and hand.cards[0].rank != ACE:
                if seat.declined_resplit:
                    return "a re-split is lost once the player has declined one (BJ-16.5)"
                if seat.resplits >= self.opts["resplit_non_aces"]:
                    return "a pair other than aces may be re-split only %d time(s) (BJ-16.5)" \
                        % self.opts["resplit_non_aces"]
            return None
        if name == "surrender":
            if not self.opts["surrender"]:
                return "this table does not offer surrender (BJ-21.2)"
            if self.up.rank == ACE:
                return "no surrender against a dealer's ace (BJ-18.1)"
            if seat.acted or seat.split or len(hand.cards) != 2:
                return "surrender is the first decision on the box's first two cards (BJ-18.2)"
            return None
        if name == "five":
            if self.up.rank == ACE:
                return "no five-card payout against a dealer's ace (BJ-19.2)"
            if len(hand.cards) != 5 or total > 21:
                return "the five-card payout needs exactly five cards totalling 21 or less (BJ-19.1)"
            return None
        raise RuleError("unknown decision %r" % name)

    def _verify(self, name, by=None):
        why = self._reason(name, by)
        if why is not None:
            raise RuleError("cannot %s: %s" % (name, why))

    def _can(self, name, by=None):
        return self._reason(name, by) is None

    can_hit, verify_hit = _checks("hit")
    can_stand, verify_stand = _checks("stand")
    can_double, verify_double = _checks("double")
    can_split, verify_split = _checks("split")
    can_surrender, verify_surrender = _checks("surrender")
    can_five, verify_five = _checks("five")

    # ---- player decisions ---------------------------------------------------------------------
    def _acting(self, name, by):
        self._verify(name, by)
        seat, hand = self.in_play()
        seat.acted = True
        self.offer_open = False
        if name != "split" and hand.split and len(hand.cards) == 2 and self._hand_reason("split") is None:
            seat.declined_resplit = True   # BJ-16.5: played on instead of re-splitting
        return seat, hand

    def hit(self, by=None):
        seat, hand = self._acting("hit", by)
        self._deal_to(hand)
        self._advance()

    def stand(self, by=None):
        seat, hand = self._acting("stand", by)
        hand.stood = True
        self._next_hand()

    def double(self, by=None):
        """BJ-17: the stake is doubled and exactly one more card is dealt (BJ-17.2)."""
        seat, hand = self._acting("double", by)
        hand.stake *= 2
        hand.doubled = seat.doubled = True
        self._deal_to(hand)
        self._advance()

    def split(self, by=None):
        """BJ-16: the pair becomes two hands of the original stake; the first gets its card now."""
        seat, hand = self._acting("split", by)
        if hand.split and hand.cards[0].rank != ACE:
            seat.resplits += 1
        first_split = not seat.split
        new = Hand([hand.cards.pop()], seat.main, split=True)
        hand.split = True
        hand.stake = seat.main
        seat.hands.insert(self.hand_i + 1, new)
        self._deal_second(seat, hand)
        if first_split and hand.cards[0].rank == 7:
            seat.sevens_third = hand.cards[1]
        self._advance()

    def surrender(self, by=None):
        """BJ-18: half the stake is lost at once and the decision is final."""
        seat, hand = self._acting("surrender", by)
        hand.at_once = -hand.stake / 2
        self._next_hand()

    def five(self, by=None):
        """BJ-19.1: five cards totalling 21 or less are paid half the stake at once (Interpretation:
        the hand is then settled and leaves play)."""
        seat, hand = self._acting("five", by)
        hand.at_once = hand.stake / 2
        self._next_hand()

    def can_insure(self, seat_i, amount=None, by=None):
        return self._insure_reason(seat_i, amount, by) is None

    def _box_reason(self, seat_i, by):
        """Why `by` may not act for box seat_i at all (no such box, BJ-20.1/20.2), or None."""
        if not self._seat_exists(seat_i):
            return self._no_seat(seat_i)
        return self._who_reason(seat_i, by)

    def _insure_reason(self, seat_i, amount, by=None):
        why = self._box_reason(seat_i, by)
        if why is not None:
            return why
        seat = self.seats[seat_i]
        if self.up.rank != ACE:
            return "insurance is offered only against a dealer's ace (BJ-12.1)"
        if not self.offer_open:
            return "insurance is offered before the players play (BJ-12.1)"
        if seat.insurance:
            return "box %d is already insured" % seat_i
        if amount is not None:
            try:
                amount = _amount(amount, "the insurance")
            except RuleError as err:
                return str(err)
            if not seat.main / 2 <= amount <= seat.main:
                return "insurance is from half to all of the original stake %s (BJ-12.1), not %s" \
                    % (seat.main, amount)
        return None

    def insure(self, seat_i, amount=None, by=None):
        """BJ-12: an insurance bet of `amount` (default the whole original stake) paying 2:1."""
        why = self._insure_reason(seat_i, amount, by)
        if why is not None:
            raise RuleError("cannot insure: " + why)
        seat = self.seats[seat_i]
        seat.insurance = seat.main if amount is None else Fraction(amount)

    def can_even_money(self, seat_i, by=None):
        return self._even_reason(seat_i, by) is None

    def _even_reason(self, seat_i, by=None):
        why = self._box_reason(seat_i, by)
        if why is not None:
            return why
        seat = self.seats[seat_i]
        hand = seat.hands[0]
        if seat.split or not hand.blackjack:
            return "even money is for a box holding a Blackjack (BJ-10.3)"
        if card_value(self.up) not in (1, 10):
            return "even money is offered only against a dealer's ace, ten or picture (BJ-10.3)"
        if hand.at_once is not None:
            return "box %d is already settled" % seat_i
        if self.dealer_done:
            return "the dealer has played: too late for even money"
        return None

    def even_money(self, seat_i, by=None):
        """BJ-10.3: the Blackjack is paid 1:1 at once instead of waiting for the dealer."""
        why = self._even_reason(seat_i, by)
        if why is not None:
            raise RuleError("cannot take even money: " + why)
        hand = self.seats[seat_i].hands[0]
        hand.at_once = hand.stake

    def _seat_exists(self, seat_i):
        return isinstance(seat_i, int) and not isinstance(seat_i, bool) and 0 <= seat_i < len(self.seats)

    def _no_seat(self, seat_i):
        return "no box %r at this table (boxes 0-%d)" % (seat_i, len(self.seats) - 1)

    # ---- dealing and flow ---------------------------------------------------------------------
    def _deal_to(self, hand):
        hand.cards.append(self.shoe.draw())
        if self.opts["bonus"] and hand.at_once is None and bonus_hand(hand.cards):
            hand.at_once = 3 * hand.stake   # BJ-15: paid at once, even against a dealer's ace

    def _deal_second(self, seat, hand):
        """A split hand's second card; a pair again counts for the any_pair bet (BJ-13.1.2)."""
        self._deal_to(hand)
        if hand.cards[0].rank == hand.cards[1].rank:
            seat.split_pairs += 1

    def _next_hand(self):
        self.hand_i += 1
        self._advance()

    def _advance(self):
        """Move past hands with nothing left to decide; give a split hand its second card on arrival."""
        while self.seat_i < len(self.seats):
            seat = self.seats[self.seat_i]
            if self.hand_i >= len(seat.hands):
                self.seat_i, self.hand_i = self.seat_i + 1, 0
                continue
            hand = seat.hands[self.hand_i]
            if len(hand.cards) == 1:
                self._deal_second(seat, hand)
            if hand.at_once is None and not hand.stood and hand.total <= 21 \
                    and any(self._hand_reason(n) is None for n in ("hit", "double", "split", "five")):
                return
            self.hand_i += 1

    def dealer_play(self):
        """BJ-6.1/7.1: the dealer's second card (shoe dealing) and hits by the drawing rule."""
        if self.current is not None:
            raise RuleError("the dealer plays after every box has finished; box %d hand %d is in play "
                            "(decisions: %s)" % (self.seat_i, self.hand_i, ", ".join(self.legal())))
        if self.dealer_done:
            raise RuleError("the dealer has already played")
        if len(self.dealer) == 1:
            if self.opts["burn_before_dealer_second"]:
                self.burned.append(self.shoe.draw())   # BJ-4.2
            self.dealer.append(self.shoe.draw())
        while not is_blackjack(self.dealer) and dealer_must_hit(self.dealer, self.opts):
            self.dealer.append(self.shoe.draw())
        self.dealer_done = True

    # ---- settlement ---------------------------------------------------------------------------
    def dealer_blackjack(self):
        return is_blackjack(self.dealer)

    def _compare(self, hand):
        """Net of an open hand against a dealer without a Blackjack (BJ-7.2, 9, 10.2, 10.4, 10.5, 11)."""
        player = hand.total
        if player > 21:
            return -hand.stake
        if hand.blackjack:
            return hand.stake * 3 / 2
        dealer = hand_total(self.dealer)[0]
        if dealer > 21 or player > dealer:
            return hand.stake
        return Fraction(0) if player == dealer else -hand.stake

    def settle_seat(self, seat):
        """{'main': net, 'insurance': net, side bet: net} in money for one box."""
        from .sidebets import side_nets
        dealer_bj = self.dealer_blackjack()
        main, open_loss = Fraction(0), Fraction(0)
        for hand in seat.hands:
            if hand.at_once is not None:
                main += hand.at_once
            elif dealer_bj:
                if not hand.blackjack:       # BJ-11.1: two Blackjacks tie
                    open_loss += hand.stake  # BJ-12.2: the dealer takes the rest
            else:
                main += self._compare(hand)
        if open_loss:
            # BJ-16.6 / 17.3 (and BJ-10.7 by option): only the original stake is lost to a dealer
            # Blackjack; Interpretation: that caps the whole box, busted hands included.
            refund = seat.split or (seat.doubled and (self.opts["double"] != "eleven"
                                                      or self.opts["dealer_bj_refunds_double"]))
            main -= min(open_loss, seat.main) if refund else open_loss
        out = {"main": main}
        if seat.insurance:
            out["insurance"] = 2 * seat.insurance if dealer_bj else -seat.insurance   # BJ-12.2/12.3
        per_unit = side_nets(seat.first_two, seat.sevens_third, self.opts, seat.split_pairs)
        for bet, stake in seat.side.items():
            out[bet] = per_unit[bet] * stake
        return out

    def settle(self):
        """Every box's nets, in box order; the dealer must have played."""
        if not self.dealer_done:
            raise RuleError("settle after dealer_play()")
        return [self.settle_seat(seat) for seat in self.seats]

    def settle_bettors(self, seat_i):
        """{who: {'main': net[, 'insurance': net]}} for a box with named bettors: the box's result
        shared pro rata to their stakes (BJ-20), exact; the dealer must have played."""
        if not self.dealer_done:
            raise RuleError("settle after dealer_play()")
        if not self._seat_exists(seat_i):
            raise RuleError(self._no_seat(seat_i))
        seat = self.seats[seat_i]
        if seat.bettors is None:
            raise RuleError("box %d's bettors are not named: use settle() for its nets" % seat_i)
        stakes = {b.who: Fraction(b.stake) for b in seat.bettors}
        out = {who: {} for who in stakes}
        for bet, net in self.settle_seat(seat).items():
            for who, share in settle_shared(net / seat.main, stakes).items():
                out[who][bet] = share
        return out
