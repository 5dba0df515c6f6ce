"""Table and progressive meters: rounds, voids, bets, hits and amounts per class, the last 25 hits.

    m = Meters()                      # or Meters.from_state(store.load(...)['m'])
    m.round_done(); m.void(); m.bet(3); m.bets_back(2)  # two bets a void returned (F3-17.1, BAC-10)
    m.hit(round_no, seat, 'royal_flush', 12345600)
    m.state()                         # JSON-able dict for the store (small: ints and short lists)
    m.report(pool)                    # [(label, value)] a technician reads; pool figures come from
                                      # the Pool itself (contributed, paid, seeded, reserve, pool), so
                                      # the money is counted in one place only

The pool's own meters (contributions, pool, reserve/overflow, paid, seeded) live in
tablectl.rules.pool.Pool and are reported from there; these meters count what the pool does not:
rounds, voids, progressive bets accepted, hits and amounts per class and the last hits (as
progressive controllers keep them). Every count and amount is an int; amounts are cents < 2**30 each.
"""
from tablectl.rules import MAX_CENTS as MONEY_MAX
from tablectl.valid import is_int

KEEP_HITS = 25
POOL_METERS = ("pool", "reserve", "contributed", "paid", "seeded")


def money(cents):
    """Integer cents as dollars.cents text, '-1234.05' (no floats)."""
    return "%s%d.%02d" % ("-" if cents < 0 else "", abs(cents) // 100, abs(cents) % 100)


def _count(label, n):
    if not is_int(n) or n < 0:
        raise ValueError("%s must be an int >= 0, got %r" % (label, n))
    return n


class Meters:
    """Counters of one table since the last RAM clear."""

    def __init__(self):
        self.rounds = 0
        self.voids = 0
        self.bets = 0
        self.returned = 0  # of those, returned by a void (F3-17.1(2)/(3), BAC-10): their contributions too
        self.hits = {}  # class -> number of hits
        self.amounts = {}  # class -> cents paid (can exceed 2**30 over a table's life: MicroPython ints grow)
        self.last = []  # [round_no, seat, class, cents], oldest first, at most KEEP_HITS

    def round_done(self):
        self.rounds += 1

    def void(self):
        self.voids += 1

    def bet(self, n=1):
        """n progressive bets accepted (locked) in a round."""
        self.bets += _count("bets", n)

    def bets_back(self, n):
        """n locked progressive bets returned to the players by a void round."""
        self.returned += _count("bets returned", n)

    def hit(self, round_no, seat, cls, cents):
        """One award paid: counted per class and kept among the last KEEP_HITS."""
        _count("round_no", round_no)
        _count("seat", seat)
        _count("amount", cents)
        if cents > MONEY_MAX:
            raise ValueError("amount %d is not below 2**30" % cents)
        if not isinstance(cls, str) or not cls:
            raise ValueError("hand class must be a non-empty string, got %r" % (cls,))
        self.hits[cls] = self.hits.get(cls, 0) + 1
        self.amounts[cls] = self.amounts.get(cls, 0) + cents
        self.last.append([round_no, seat, cls, cents])
        if len(self.last) > KEEP_HITS:
            self.last.pop(0)

    def state(self):
        # a hit's list is never changed once made: the record shares them (a new outer list each time)
        return {"r": self.rounds, "v": self.voids, "b": self.bets, "rb": self.returned, "h": dict(self.hits),
                "a": dict(self.amounts), "l": list(self.last)}

    @classmethod
    def from_state(cls, d, last=None):
        """Meters from state() (its last hits in `last` when the record keeps them apart: a progressive
        table's, so that a round's frame does not carry them); ValueError if it is not a meters state."""
        m = cls()
        try:
            m.rounds = _count("rounds", d["r"])
            m.voids = _count("voids", d["v"])
            m.bets = _count("bets", d["b"])
            m.returned = _count("bets returned", d.get("rb", 0))  # 0 in a record saved before it was kept
            for k in d["h"]:
                m.hits[k] = _count("hits", d["h"][k])
            for k in d["a"]:
                m.amounts[k] = _count("amounts", d["a"][k])
            for rec in (d.get("l", []) if last is None else last)[-KEEP_HITS:]:
                if len(rec) != 4 or not isinstance(rec[2], str):
                    raise ValueError("bad hit record %r" % (rec,))
                for x in (rec[0], rec[1], rec[3]):
                    _count("hit record", x)
                m.last.append(list(rec))
        except (KeyError, TypeError) as e:
            raise ValueError("not a meters state (%s)" % e)
        return m

    def report(self, pool=None):
        """[(label, value)] in a fixed order; pool figures first when a pool is given."""
        out = []
        if pool is not None:
            for name in POOL_METERS:
                if hasattr(pool, name):
                    out.append((name + "_cents", getattr(pool, name)))
        out.append(("rounds", self.rounds))
        out.append(("voids", self.voids))
        out.append(("bets", self.bets))
        out.append(("bets_returned", self.returned))
        for cls in sorted(self.hits):
            out.append(("hits_" + cls, self.hits[cls]))
            out.append(("paid_" + cls + "_cents", self.amounts.get(cls, 0)))
        return out

    def last_hits(self, n=KEEP_HITS):
        """The last n hits, newest first, as (round_no, seat, class, cents)."""
        out = [tuple(x) for x in self.last[-n:]] if n > 0 else []
        out.reverse()
        return out
