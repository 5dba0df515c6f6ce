"""Progressive jackpot pool in integer cents: contributions with carried remainder, ceiling and reserve,
hits paid by the regulations' rules, void rounds carrying the locked bets, state for storage.

    p = Pool(seed_cents, rate_bp, limit_cents, awards, shared=False, fixed_from_pool=True,
             royal_share_each=False)
    cfg = awards.config_for(game, ...); p = Pool(**cfg)     the regulation's award table of a game
    p.contribute(bet_cents) -> cents added to pool + reserve (no allocation: safe under heap_lock)
    p.lock(seat_bets)       -> cents added; seat_bets[i] is seat i+1's progressive bet (0: none)
    p.void_round()          the locked bets stay for the next round, counted once (CSP-11.1, CSP-11.4, F3-17.3)
    p.settle(hits)          -> [(seat, class, amount_cents), ...] in payment order; ends the round
    p.state() / Pool.from_state(cfg, state[, overflow=True]); figure(state, 'paid')
    p.pool, p.reserve, p.carry, p.contributed, p.paid, p.seeded, p.locked, p.carried
Award kinds ('fixed', 'percent', 'pool', 'none': BAC-13.1.4.4.C.3), payment order, shares and the meters'
balance (CSP-10.2, CSP-10.4-10.8, F3-15.3-15.6, BAC-17.6-17.12): docs/rulebook.md, "The progressive pool".
"""
from tablectl import const

from . import MAX_CENTS, MAX_SEATS  # 2**30 - 1 cents; the seats a pool record holds
KINDS = ("fixed", "percent", "pool", "none")
_FIXED = const(0)
_PERCENT = const(1)
_POOL = const(2)
_NONE = const(3)
_STATE_LEN = const(8)  # + MAX_SEATS locked bets
FIGURES = ("pool", "reserve", "carry", "contributed", "paid", "seeded", "carried", "version")  # state()'s order
_STATE_VERSION = const(1)
_FULL = "a meter would reach 2**30 cents: clear the meters"

def _cents(what, value, top=MAX_CENTS):
    # one check for every amount, rate and seat number: fewer messages, less heap on a board
    if not isinstance(value, int) or isinstance(value, bool) or value < 0 or value > top:
        raise ValueError("%s must be 0..%d, got %r" % (what, top, value))
    return value


def figure(state, name):
    """The figure `name` (one of FIGURES) of a saved state(), without building a Pool."""
    return state[FIGURES.index(name)]


def _percent_of(amount, bp):
    """amount * bp // 10000 without a product above 2**30 (a long int would allocate)."""
    q = amount // 10000
    return q * bp + ((amount - q * 10000) * bp) // 10000


class Pool:
    """One table's progressive pool and its meters; see the module docstring."""

    def __init__(self, seed_cents, rate_bp, limit_cents, awards, shared=False, fixed_from_pool=True,
                 royal_share_each=False):
        _cents("limit_cents", limit_cents)
        _cents("seed_cents", seed_cents, limit_cents)
        _cents("rate_bp", rate_bp, 10000)
        if not isinstance(awards, dict) or not awards:
            raise ValueError("awards: class -> (kind, fixed_cents, percent_bp)")
        self._award = {}  # class -> (kind code, fixed cents, percent_bp): one dict, small on a board
        for cls in awards:
            try:
                kind, fixed, bp = awards[cls]
            except (TypeError, ValueError):
                kind = None
            if kind not in KINDS:
                raise ValueError("award of class %r: (kind in %s, fixed_cents, percent_bp)" % (cls, KINDS))
            _cents("fixed_cents", fixed)
            _cents("percent_bp", bp, 10000)
            self._award[cls] = (KINDS.index(kind), fixed, bp)
        self.awards = awards
        self.seed = seed_cents
        self.rate_bp = rate_bp
        self.limit = limit_cents
        self.shared = bool(shared)
        self.fixed_from_pool = bool(fixed_from_pool)
        self.royal_share_each = bool(royal_share_each)
        self.pool = seed_cents
        self.reserve = 0
        self.carry = 0  # ten-thousandths of a cent not yet added
        self.contributed = 0
        self.paid = 0
        self.seeded = seed_cents
        self.locked = [0] * MAX_SEATS
        self.carried = False  # the locked bets came from a void round

    # ---- contributions ---------------------------------------------------------------------------

    def contribute(self, bet_cents):
        # comparisons and small-int arithmetic only: this runs under heap_lock on the board
        if not isinstance(bet_cents, int) or bet_cents < 0 or bet_cents > MAX_CENTS:
            raise ValueError("bet_cents must be 0..%d" % MAX_CENTS)
        rate = self.rate_bp
        q = bet_cents // 10000
        carry = self.carry + (bet_cents - q * 10000) * rate
        add = q * rate + carry // 10000
        carry = carry % 10000
        if self.contributed + add > MAX_CENTS:
            raise ValueError(_FULL)
        room = self.limit - self.pool
        if add > room:
            if self.reserve + add - room > MAX_CENTS:
                raise ValueError(_FULL)
            self.reserve += add - room
            self.pool = self.limit
        else:
            self.pool += add
        self.carry = carry
        self.contributed += add
        return add

    def lock(self, seat_bets):
        """Betting closed: contribute every seat's progressive bet, except bets carried from a void
        round, which were counted when first locked (CSP-11.1)."""
        n = len(seat_bets)
        _cents("seats", n, MAX_SEATS)
        total = 0
        for i in range(n):
            bet = _cents("bet", seat_bets[i])
            if total + bet > MAX_CENTS:
                raise ValueError(_FULL)
            if self.carried and self.locked[i] and bet not in (0, self.locked[i]):
                raise ValueError("seat %d carries %d from the void round" % (i + 1, self.locked[i]))
            if not self.carried and self.locked[i]:
                raise ValueError("already locked: settle or void first")
            total += bet
        most = _percent_of(total, self.rate_bp) + 1  # the carried fraction adds at most one cent
        if self.contributed + most > MAX_CENTS or self.reserve + most > MAX_CENTS:
            raise ValueError(_FULL)
        added = 0
        for i in range(n):
            if seat_bets[i] and not (self.carried and self.locked[i]):
                self.locked[i] = seat_bets[i]
                added += self.contribute(seat_bets[i])
        self.carried = False
        return added

    def void_round(self):
        """The round is void: the locked progressive bets go to the next round (CSP-11.1, CSP-11.4,
        F3-17.3) without being counted again."""
        self.carried = True

    # ---- hits --------------------------------------------------------------------------------------

    def settle(self, hits):
        """Pay one round's hits [(seat, class)], seats 1.. from the dealer's left; ends the round."""
        if self.carried:  # settling now would drop the bets the void round carries (CSP-11.1)
            raise ValueError("void round: lock the next first")
        checked = []
        seen = [False] * (MAX_SEATS + 1)
        any_locked = max(self.locked) > 0
        for hit in hits:
            try:
                seat, cls = hit
            except (TypeError, ValueError):
                raise ValueError("a hit is (seat, class), got %r" % (hit,))
            if _cents("seat", seat, MAX_SEATS) == 0 or seen[seat]:  # seats 1.. from the dealer's left
                raise ValueError("seat %d: no seat or a second hit" % seat)
            if cls not in self._award:
                raise ValueError("no award for class %r" % (cls,))
            if any_locked and not self.locked[seat - 1]:
                raise ValueError("seat %d has no bet locked" % seat)
            seen[seat] = True
            checked.append((seat, cls))
        checked.sort()
        # [(class, [seats])] in payment order (see the module docstring)
        events = []
        for seat, cls in checked:
            if self.shared or self._award[cls][0] == _POOL:  # one award shared by its winners (CSP-10.5, BAC-17)
                for ev in events:
                    if ev[0] == cls:
                        ev[1].append(seat)
                        break
                else:
                    events.append((cls, [seat]))
            else:
                events.append((cls, [seat]))
        if not self.shared:  # CSP-10.7, F3-15.5: straight flushes before the royal
            last_pct = -1
            for i in range(len(events)):
                if self._award[events[i][0]][0] == _PERCENT:
                    last_pct = i
            for i in range(last_pct):
                if self._award[events[i][0]][0] == _POOL:
                    events.insert(last_pct, events.pop(i))
                    break
        pool, reserve, seeded, paid = self.pool, self.reserve, self.seeded, self.paid
        payouts = []
        bases = {}
        for cls, seats in events:
            kind, fix, bp = self._award[cls]
            n = len(seats)
            if kind == _POOL:
                if self.royal_share_each and not self.shared:
                    share = max(fix, pool // n)
                else:
                    share = max(fix, _percent_of(pool, bp)) // n
                total = share * n
                take = min(total, pool)
                pool -= take
                restart = True  # the pool is won: it restarts from its seed (CSP-10.8)
            else:
                if kind == _PERCENT:
                    if cls not in bases:
                        bases[cls] = pool  # every straight flush of a round: one base (CSP-10.6)
                    pct = _percent_of(bases[cls], bp)
                    whole = max(fix, pct)
                    from_pool = self.fixed_from_pool or pct >= fix
                else:
                    whole, from_pool = fix, self.fixed_from_pool
                share = whole // n if self.shared else whole
                total = share * n
                take = min(total, pool) if from_pool else 0
                pool -= take
                restart = from_pool and total > 0 and pool == 0  # fully paid out (CSP-10.8, F3-15.6)
            seeded += total - take  # the house pays what the pool cannot
            paid += total
            if restart:
                from_reserve = min(reserve, self.seed)
                reserve -= from_reserve
                seeded += self.seed - from_reserve
                pool += self.seed
                if pool > self.limit:
                    reserve += pool - self.limit
                    pool = self.limit
            for seat in seats:
                payouts.append((seat, cls, share))
            if paid > MAX_CENTS or seeded > MAX_CENTS or reserve > MAX_CENTS:
                raise ValueError(_FULL)
        self.pool, self.reserve, self.seeded, self.paid = pool, reserve, seeded, paid
        for i in range(MAX_SEATS):
            self.locked[i] = 0
        self.carried = False
        return payouts

    # ---- storage -----------------------------------------------------------------------------------

    def state(self):
        return (self.pool, self.reserve, self.carry, self.contributed, self.paid, self.seeded,
                1 if self.carried else 0, _STATE_VERSION) + tuple(self.locked)

    @classmethod
    def from_state(cls, config, state, overflow=False):
        """A pool with config (Pool's keyword arguments) and a saved state(); ValueError for a state
        that is malformed or breaks pool + reserve + paid == seeded + contributed. overflow=True: the
        parameters changed (a limit lowered below the pool), so the cents above the new limit move to
        the reserve, as a contribution above the limit would (the balance still holds, to the cent);
        without it a pool above its limit is refused."""
        p = cls(**config)
        # the first 16 characters of each message are what a 16-column display shows of a tilt
        if not isinstance(state, (tuple, list)) or len(state) != _STATE_LEN + MAX_SEATS:
            raise ValueError("pool record bad: not %d ints" % (_STATE_LEN + MAX_SEATS))
        for v in state:
            _cents("pool record bad: a figure", v)
        pool, reserve, carry, contributed, paid, seeded, carried, version = state[:_STATE_LEN]
        # a wrong version, a fraction of a cent >= 1, a pool above its limit or meters that do not
        # add up: the record is not this pool's, and inventing one is worse than halting (docs/storage.md)
        if (version != _STATE_VERSION or carry >= 10000 or carried > 1 or (pool > p.limit and not overflow)
                or pool + reserve + paid != seeded + contributed):
            raise ValueError("pool record bad: %r" % (state[:_STATE_LEN],))
        if pool > p.limit:
            if reserve + pool - p.limit > MAX_CENTS:
                raise ValueError(_FULL)
            reserve += pool - p.limit
            pool = p.limit
        p.pool, p.reserve, p.carry, p.contributed, p.paid, p.seeded = pool, reserve, carry, contributed, paid, seeded
        p.carried = carried == 1
        p.locked = list(state[_STATE_LEN:])
        return p
