"""The server's ledger (SQLite, or PostgreSQL for a casino: jackpot.ledgerdb): each link's pool, and every table message under its idempotent id with the answer it got.

    led = Ledger(path_or_uri, links={'pit1': {'game': 'caribbean_stud', 'rate_bp': 2000, ...}}, tables={'t01': 'pit1'})
    with led.batch():                                  # one transaction, one fsync, for many messages
        ack, changed = led.handle('t01', 'contrib', body, now)
    status(led.db)                                     # what /status serves (web reads with its own connection)

A link's parameters are the table configuration's keys (tablectl.config: game, seed_cents, rate_bp,
limit_cents, fixed_<class>, six_of_a_kind_bp), validated and turned into the pool by the firmware's own
code (tablectl.config.pool_params, tablectl.rules.pool.Pool): the arithmetic of contributions, awards,
the order of simultaneous hits, the ceiling and reserve, the reseed is the rules core's, not a copy.

Exactly once: a message is (table, epoch, seq). The server takes a table's messages in sequence order:
seq == next is applied and stored with its answer in the same transaction as the pool it changed;
seq < next is a duplicate (a QoS 1 redelivery, a table that resent after a lost ack): it gets the
stored answer again and changes nothing; seq > next waits (no answer: the table resends from the gap).
A refused message (a malformed or impossible one) is stored with its error: it is answered, not retried.
A refund (a void that returned the bets) takes a round's contributions back out as this ledger recorded them.
Several servers may share one ledger and take the same messages: a batch locks its links' rows and
reads the pools and sequences afresh, so a message another server applied is a duplicate here.

The pool's meters are small ints in the core (below 2**30 cents, as on a board); a link lives longer, so
when one passes 2**29 the period is closed: its contributions, awards and fresh seed money go to the
link row's closed_* totals (SQLite integers) and the pool's meters start again from pool + reserve.
Totals are closed + current, and pool + reserve + paid == seeded + contributed holds for them, always.
"""
import contextlib
import json

from jackpot.ledgerdb import connect
from tablectl import config as _config
from tablectl.games.hitentry import pays
from tablectl.games.progressive import VOIDS
from tablectl.rules import awards as _awards
from tablectl.rules import pool as _pool

ROLLOVER = 1 << 29
LAST_HITS = 12
METER = ("contributed", "bets", "hits", "awarded", "messages", "duplicates", "refused")  # a table's, summed


class LedgerError(ValueError):
    pass


def link_params(cfg):
    """(validated configuration, Pool keyword arguments) of a link's configuration dict; LedgerError naming
    the key otherwise. The link must be a progressive game."""
    try:
        values = _config.validate(cfg)
        if values["game"] not in _config.PROGRESSIVE:
            raise ValueError("game: a link is a progressive game (%s), got %r"
                             % (", ".join(_config.PROGRESSIVE), values["game"]))
        return values, _config.pool_params(values)
    except ValueError as e:
        raise LedgerError(str(e))


class Link:
    """One link's pool in memory (the row is its copy on disk)."""

    def __init__(self, lid, values, params, pool, ver, pending, closed):
        self.id = lid
        self.game = values["game"]
        self.values = values
        self.params = params
        self.pool = pool
        self.ver = ver
        self.pending = pending
        self.closed = closed  # [contributed, paid, seeded] of closed periods
        ids, kinds, _ = _awards.table(self.game)
        self.class_ids = ids
        self.kinds = kinds
        # a void of this game may return the bets (BAC-10, F3-17.1(2)/(3)); Caribbean Stud's carry them (CSP-11.1)
        self.returns = any(v[2] for v in VOIDS["baccarat" if self.game[:9] == "baccarat_" else self.game])

    def totals(self):
        p = self.pool
        c = self.closed
        return {"pool": p.pool, "reserve": p.reserve, "contributed": c[0] + p.contributed,
                "paid": c[1] + p.paid, "seeded": c[2] + p.seeded}

    def copy_pool(self):
        return _pool.Pool.from_state(self.params, self.pool.state())


class Ledger:
    def __init__(self, target, links, tables):
        self.db = connect(target)
        self.tables = dict(tables)
        self.links = {}
        self._next = {}  # (table, epoch) -> next sequence number
        self._dirty = set()
        self._meters = {}  # table -> the batch's additions to its meters (METER), its link, last message time
        for lid in sorted(links):
            self._open_link(lid, links[lid])
        for t, lid in self.tables.items():
            if lid not in self.links:
                raise LedgerError("table %s: no link %r in the configuration" % (t, lid))

    def _open_link(self, lid, cfg):
        values, params = link_params(cfg)
        row = self._link_row(lid)
        if row is None:
            pool = _pool.Pool(**params)
            # ON CONFLICT: a second server may create the row at the same moment; then its row is the one
            self.db.execute("INSERT INTO link (id, game, params, state, ver, pending) VALUES (?, ?, ?, ?, 0, '[]') "
                            "ON CONFLICT (id) DO NOTHING",
                            (lid, values["game"], json.dumps(values, sort_keys=True), json.dumps(pool.state())))
            row = self._link_row(lid)
        stored = json.loads(row[0])
        if stored != values:
            diff = ", ".join("%s %r -> %r" % (k, stored.get(k), values.get(k))
                             for k in sorted(set(stored) | set(values)) if stored.get(k) != values.get(k))
            raise LedgerError("link %s: the configuration differs from the ledger's (%s); a live pool's "
                              "parameters are not changed by a restart" % (lid, diff))
        try:
            pool = _pool.Pool.from_state(params, json.loads(row[1]))
        except ValueError as e:
            raise LedgerError("link %s: the stored pool is not valid (%s)" % (lid, e))
        self.links[lid] = Link(lid, values, params, pool, row[2], json.loads(row[3]), list(row[4:7]))

    def _link_row(self, lid):
        return self.db.execute("SELECT params, state, ver, pending, closed_contributed, closed_paid, closed_seeded "
                               "FROM link WHERE id = ?", (lid,)).fetchone()

    # -- transactions ---------------------------------------------------------------------------
    @contextlib.contextmanager
    def batch(self):
        """One transaction for many messages: the pools changed in it are written once, at the end."""
        self.db.begin()
        kept = {}
        try:
            self._refresh()
            kept = dict((lid, (link.pool, link.ver, list(link.pending), link.closed))
                        for lid, link in self.links.items())  # as the ledger has them now
            yield self
            for lid in self._dirty:
                link = self.links[lid]
                self.db.execute("UPDATE link SET state = ?, ver = ?, pending = ?, closed_contributed = ?, "
                                "closed_paid = ?, closed_seeded = ? WHERE id = ?",
                                (json.dumps(link.pool.state()), link.ver, json.dumps(link.pending), link.closed[0],
                                 link.closed[1], link.closed[2], lid))
            if self._meters:
                self._write_meters()
            self.db.commit()
        except BaseException:
            self._meters.clear()
            self._dirty.clear()
            self._next.clear()
            try:
                self.db.rollback()
            except self.db.Error:
                pass  # the connection is gone (a primary killed): the next batch reconnects
            for lid, (pool, ver, pending, closed) in kept.items():  # memory as the ledger holds it (no
                link = self.links[lid]  # query: the ledger may be down)
                link.pool, link.ver, link.pending, link.closed = pool, ver, pending, closed
            raise
        self._dirty.clear()
        self._meters.clear()

    def _refresh(self):
        """Memory as the ledger has it, under the batch's lock: another server on the same ledger may have
        applied messages since this one's last batch (each server applies every message; the unique
        (table, epoch, seq) makes each count once)."""
        self._next.clear()
        ids = sorted(self.links)
        rows = self.db.execute("SELECT id, ver FROM link WHERE id IN (%s) ORDER BY id%s"
                               % (", ".join("?" * len(ids)), self.db.LOCK), ids).fetchall()
        for lid, ver in rows:
            if ver != self.links[lid].ver:
                self._open_link(lid, self.links[lid].values)

    def next_seq(self, table, ep):
        key = (table, ep)
        if key not in self._next:
            row = self.db.execute("SELECT MAX(seq) FROM message WHERE tbl = ? AND ep = ?", key).fetchone()
            self._next[key] = (row[0] or 0) + 1
        return self._next[key]

    # -- messages -------------------------------------------------------------------------------
    def handle(self, table, kind, body, now):
        """A table's checked message (protocol.decode) inside batch(): (answer or None, link id whose pool
        changed or None, 'new' | 'duplicate' | 'early')."""
        lid = self.tables.get(table)
        if lid is None:
            return {"seq": body.get("seq"), "error": "table %s is on no link of this server" % table}, None, "refused"
        ep, seq = body["ep"], body["seq"]
        nxt = self.next_seq(table, ep)
        if seq > nxt:
            return None, None, "early"
        if seq < nxt:
            row = self.db.execute("SELECT answer FROM message WHERE tbl = ? AND ep = ? AND seq = ?",
                                  (table, ep, seq)).fetchone()
            self._meter(table, lid)[METER.index("duplicates")] += 1
            return json.loads(row[0]), None, "duplicate"
        link = self.links[lid]
        cents = bets = hits = awarded = 0
        changed = None
        try:
            if kind == "contrib":
                answer, cents, bets = self._contrib(link, table, body)
                changed = lid
            elif kind == "hit":
                answer, awarded, hits = self._hit(link, table, body)
                changed = lid
            elif kind == "refund":
                answer, cents, bets = self._refund(link, table, body)  # cents < 0: contributions taken back
                changed = lid
            else:
                answer = self._paid(link, table, body)
                changed = lid if answer.pop("_changed", False) else None
            ok = 1
        except self.db.Error:
            raise  # the ledger cannot be written: the batch is not applied, nor answered
        except Exception as e:  # any other failure is this message's refusal (the pool was not touched)
            answer, ok = {"seq": seq, "error": str(e).splitlines()[0][:200] if isinstance(e, ValueError)
                          else "%s: %s" % (kind, type(e).__name__)}, 0
        if changed:
            self._dirty.add(lid)
        self.db.execute("INSERT INTO message (tbl, ep, seq, link, kind, round, body, answer, ok, cents, at) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (table, ep, seq, lid, kind, body.get("round"), json.dumps(body), json.dumps(answer), ok,
                         cents or awarded, now))
        meter = self._meter(table, lid, now)
        for i, n in enumerate((cents, bets, hits, awarded, 1, 0, 1 - ok)):
            meter[i] += n
        self._next[(table, ep)] = nxt + 1
        return answer, changed, "new"

    def seen(self, table, now):
        """A heartbeat: the table's last message time (no money)."""
        lid = self.tables.get(table)
        if lid is not None:
            self._meter(table, lid, now)

    def _meter(self, table, lid, now=None):
        """The batch's additions to a table's meters (METER order), written once at its end: one statement
        a table a batch, not two a message."""
        meter = self._meters.get(table)
        if meter is None:
            meter = self._meters[table] = [0] * len(METER) + [lid, None]
        if now is not None:
            meter[-1] = now
        return meter

    def _write_meters(self):
        add = ", ".join("%s = tablemeter.%s + excluded.%s" % (m, m, m) for m in METER)
        self.db.executemany("INSERT INTO tablemeter (%s, link, last_at, tbl) VALUES (%s) ON CONFLICT (tbl) DO UPDATE "
                            "SET %s, last_at = COALESCE(excluded.last_at, tablemeter.last_at)"
                            % (", ".join(METER), ", ".join("?" * (len(METER) + 3)), add),
                            [m + [t] for t, m in sorted(self._meters.items())])

    def _working_pool(self, link):
        """A copy of the link's pool to apply a message to (kept only if the message is), and the closed
        totals to go with it: the period is closed first when a meter passed 2**29 cents."""
        pool = link.copy_pool()
        if max(pool.contributed, pool.paid, pool.seeded) < ROLLOVER:
            return pool, link.closed
        carried_in = pool.pool + pool.reserve
        closed = [link.closed[0] + pool.contributed, link.closed[1] + pool.paid,
                  link.closed[2] + pool.seeded - carried_in]
        state = list(pool.state())
        state[3], state[4], state[5] = 0, 0, carried_in  # contributed, paid, seeded
        return _pool.Pool.from_state(link.params, state), closed

    def _contrib(self, link, table, body):
        # the link's own limits, not the table's word: its seats, its bet per seat, one contribution a round
        seats, most = link.values["seats"], link.values["bet_cents"]
        for s in body["locked"]:
            if s > seats:
                raise ValueError("contrib: seat %d, the link has %d seats a table" % (s, seats))
        for seat, cents in body["bets"]:
            if cents > most:
                raise ValueError("contrib: seat %d bets %d cents, the link's bet is at most %d" % (seat, cents, most))
        if self.db.execute("SELECT 1 FROM message WHERE tbl = ? AND ep = ? AND round = ? AND kind = 'contrib' "
                           "AND ok = 1", (table, body["ep"], body["round"])).fetchone():
            raise ValueError("contrib: round %d of table %s has its contribution already" % (body["round"], table))
        pool, closed = self._working_pool(link)
        added = 0
        reserve = pool.reserve
        for seat, cents in body["bets"]:
            added += pool.contribute(cents)  # CSP-10.1: each accepted bet feeds the pool once
        link.pool, link.closed = pool, closed
        link.ver += 1
        answer = {"seq": body["seq"], "ok": "contrib", "cents": added, "pool": pool.pool, "ver": link.ver}
        if pool.reserve != reserve:  # the part above the ceiling: a refund takes it back from the reserve
            answer["to_reserve"] = pool.reserve - reserve
        return answer, added, len(body["bets"])

    def _hit(self, link, table, body):
        ep, rnd = body["ep"], body["round"]
        row = self.db.execute("SELECT body FROM message WHERE tbl = ? AND ep = ? AND round = ? AND kind = 'contrib' "
                              "AND ok = 1 ORDER BY seq DESC LIMIT 1", (table, ep, rnd)).fetchone()
        if row is None:
            raise ValueError("hit: table %s locked no bets in round %d" % (table, rnd))
        locked = json.loads(row[0])["locked"]
        why = self._settled(table, ep, rnd)
        if why:  # paid once; and bets returned are not in play
            raise ValueError("hit: round %d of table %s was %s already" % (rnd, table, why))
        claims = []
        for seat, cls in body["hits"]:
            if cls not in link.class_ids[1:]:
                raise ValueError("hit: %s has no class %r" % (link.game, cls))
            code = link.class_ids.index(cls)
            if not pays(link.pool.awards[code]):
                raise ValueError("hit: %s pays nothing at this link" % cls)
            if seat not in locked:
                raise ValueError("hit: seat %d locked no bet in round %d" % (seat, rnd))
            claims.append((seat, code))
        pool, closed = self._working_pool(link)
        paid = pool.settle(claims)  # the regulation's order and awards (CSP-10.4..10.8, F3-15, BAC-17)
        awards = [[seat, link.class_ids[code], cents] for seat, code, cents in paid]
        for seat, cls, cents in awards:
            if link.kinds[cls][0] == "pool":  # a top award: the other tables show JACKPOT PENDING until paid
                link.pending.append({"table": table, "ep": ep, "claim": body["seq"], "seat": seat, "class": cls,
                                     "cents": cents})
        link.pool, link.closed = pool, closed
        link.ver += 1
        answer = {"seq": body["seq"], "ok": "hit", "awards": awards, "pool": pool.pool, "ver": link.ver}
        return answer, sum(a[2] for a in awards), len(awards)

    def _settled(self, table, ep, rnd):
        """Round rnd of the table's epoch was paid (an ok hit) or its bets returned (an ok refund, of it or of
        a later round that carried its bets): '' if neither, else which."""
        if self.db.execute("SELECT 1 FROM message WHERE tbl = ? AND ep = ? AND round = ? AND kind = 'hit' AND ok = 1",
                           (table, ep, rnd)).fetchone():
            return "settled"
        for (answer,) in self.db.execute("SELECT answer FROM message WHERE tbl = ? AND ep = ? AND round >= ? "
                                         "AND kind = 'refund' AND ok = 1", (table, ep, rnd)).fetchall():
            if rnd in json.loads(answer)["rounds"]:
                return "refunded"
        return ""

    def _returned(self, table, ep, rnd):
        """[(round, its contribution's answer, its bets)] a refund of round rnd takes back: the round's own
        contribution, and those of the void rounds just before it whose bets it carried (F3-17.3 keeps them for
        the next round; a void that then returns the bets returns those too, as the lone table does)."""
        out = []
        while True:
            row = self.db.execute("SELECT body, answer FROM message WHERE tbl = ? AND ep = ? AND round = ? "
                                  "AND kind = 'contrib' AND ok = 1", (table, ep, rnd)).fetchone()
            why = self._settled(table, ep, rnd) if row else ""
            if row is None or why:
                if out:
                    return out  # an earlier round not carried into this one: not this refund's
                raise ValueError("refund: round %d of table %s %s" % (
                    rnd, table, "was %s already" % why if why else "contributed nothing"))
            body = json.loads(row[0])
            out.append((rnd, json.loads(row[1]), len(body["bets"])))
            if set(body["locked"]) <= set(s for s, _ in body["bets"]):
                return out  # no seat carried from the round before
            rnd -= 1

    def _refund(self, link, table, body):
        """A void that returned the bets (BAC-10, F3-17.1(2)/(3)): the round's contributions out of the link's
        pool, as the ledger recorded them (never the table's word): each one's reserve part from the reserve and
        the rest from the pool, neither below what it may hold (the reserve 0, the pool its seed: after an award
        it restarts from the seed, CSP-10.8, F3-15.6); what they no longer hold (an award paid it out) the house
        pays, booked as seed money, as settle() books what the pool cannot pay. Answer, -cents, -bets."""
        if not link.returns:
            raise ValueError("refund: no void of %s returns the bets (they are carried, CSP-11.1)" % link.game)
        returned = self._returned(table, body["ep"], body["round"])
        pool, closed = self._working_pool(link)
        cents = bets = 0
        for _, contributed, n in returned:
            part = contributed.get("to_reserve", 0)
            from_reserve = min(part, pool.reserve)
            from_pool = min(contributed["cents"] - part, max(0, pool.pool - pool.seed))
            pool.reserve -= from_reserve
            pool.pool -= from_pool
            pool.seeded += contributed["cents"] - from_reserve - from_pool
            cents += contributed["cents"]
            bets += n
        # contributed before a rollover: the closed period contributed that much less and carried that much less
        # into this one (its seed), and its seed money net of what it carried out grows by as much: both balance
        before = max(0, cents - pool.contributed)
        pool.contributed -= cents - before
        pool.seeded -= before
        closed = [closed[0] - before, closed[1], closed[2] + before]  # new: the batch keeps the old for a rollback
        link.pool, link.closed = _pool.Pool.from_state(link.params, pool.state()), closed
        link.ver += 1
        return ({"seq": body["seq"], "ok": "refund", "cents": cents, "rounds": [r[0] for r in returned],
                 "pool": pool.pool, "ver": link.ver}, -cents, -bets)

    def _paid(self, link, table, body):
        before = len(link.pending)
        link.pending = [p for p in link.pending
                        if not (p["table"] == table and p["ep"] == body["ep"] and p["claim"] == body["claim"])]
        changed = len(link.pending) != before
        if changed:
            link.ver += 1
        return {"seq": body["seq"], "ok": "paid", "_changed": changed}


# -- reading (the web's own connection; also the tests') --------------------------------------------
def last_hits(db, lid, n=LAST_HITS):
    """[[t_ms, table, seat, class, cents]] newest first."""
    out = []
    for at, tbl, answer in db.execute("SELECT at, tbl, answer FROM message WHERE link = ? AND kind = 'hit' AND ok = 1 "
                                      "ORDER BY at DESC, %s DESC LIMIT ?" % db.ORDER, (lid, n)):
        for seat, cls, cents in json.loads(answer)["awards"]:
            out.append([int(at * 1000), tbl, seat, cls, cents])
    return out[:n]


def link_view(db, lid):
    """One link's figures as stored: None for an unknown link."""
    row = db.execute("SELECT game, state, ver, pending, closed_contributed, closed_paid, closed_seeded FROM link "
                     "WHERE id = ?", (lid,)).fetchone()
    if row is None:
        return None
    state = json.loads(row[1])
    pool, reserve, _, contributed, paid, seeded = state[:6]
    view = {"link": lid, "game": row[0], "pool": pool, "reserve": reserve, "ver": row[2],
            "pending": json.loads(row[3]), "contributed": row[4] + contributed, "paid": row[5] + paid,
            "seeded": row[6] + seeded}
    view["balance_off"] = view["pool"] + view["reserve"] + view["paid"] - view["seeded"] - view["contributed"]
    return view


def feed(db, lid):
    """One link's figures and its last hits (the sign's feed): None for an unknown link."""
    view = link_view(db, lid)
    if view is not None:
        view["last_hits"] = last_hits(db, lid)
    return view


def status(db):
    """Every link's pool, reserve, meters and balance, its tables' meters and last message time, its last hits."""
    links = {}
    for (lid,) in db.execute("SELECT id FROM link ORDER BY id").fetchall():
        view = feed(db, lid)
        view["tables"] = {}
        links[lid] = view
    for row in db.execute("SELECT tbl, link, contributed, bets, hits, awarded, messages, duplicates, refused, last_at "
                          "FROM tablemeter ORDER BY tbl"):
        if row[1] in links:
            links[row[1]]["tables"][row[0]] = dict(zip(
                ("contributed", "bets", "hits", "awarded", "messages", "duplicates", "refused", "last_at"), row[2:]))
    return {"links": links}
