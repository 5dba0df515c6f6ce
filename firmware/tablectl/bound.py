"""Each record's JSON bytes at most, in closed form from the configuration (issue 20, defect 7): sums and products of
its fields (seats, history_len, the game's class names, the most digits of a count or an amount), so that
Config.change refuses, before anything is written, a configuration whose records could outgrow a frame of the
log's blocks. No controller is loaded and no record or text is made: a record's shape is the one games.base,
games.progressive, tablectl.config and service.shifts write; a linked table's outbox (record 'link') is capped
by what a step's frame leaves (outbox()), and a checkpoint of them all by what the ring keeps for one.
"""
from tablectl.rules import MAX_SEATS, PROGRESSIVE

ROUND = 8    # digits of a round number: fewer than 10**8 between two RAM clears
COUNT = 9    # digits of a count (rounds, voids, bets, hits of a class, a shift's number)
CENTS = 10   # digits of an amount: below 2**30 (tablectl.rules.MAX_CENTS)
SUM = 19     # digits of a meter summing amounts
KEEP_HITS = 25  # tablectl.meters.KEEP_HITS (a test holds them equal: meters is not loaded for this)
FRAME = 36   # a frame's header and CRC, '{"r": {"name": ...}}' and a page's rounding left out: see frame()
STEP = 16    # a frame's header and CRC alone: a step's payload is counted whole (steps())
TIME = 10    # digits of an entry's time (seconds since 2000)
TEXT = 48    # tablectl.journal.MAX_TEXT
END = 256    # a checkpoint's end frame: tablectl.storage.frame.UNIT, as Log._fits counts it
EPOCH = 16   # record 'epoch', {'n': the RAM clears' count}


def _k(name, value):
    """'"name": value, ' in a dict: a dict's bytes are its keys' sum (the last ', ' pays for the braces)."""
    return name + 6 + value


def _list(n, each):
    """A list of n items of `each` bytes at most."""
    return n * (each + 2) + 2


def classes(game):
    """(how many hand classes the progressive `game` has, the longest name's bytes, their names' sum)."""
    from tablectl.rules import awards
    n = longest = total = 0
    for c in awards.table(game)[1]:
        n += 1
        longest = max(longest, len(c))
        total += len(c)
    return n, longest + 2, total


def award_bytes(longest):
    """[seat, "class", cents], an award (games.progressive) as the history and the round keep it."""
    return longest + CENTS + 7


def _item(result):
    """A history's [round, result] item with its ', ' (result: its bytes)."""
    return ROUND + result + 6


def round_bytes(values, awards=None):
    """Record 'round' at its largest ({'game', 'state', 'round', 'hist', 'm', ...}). A progressive's history
    holds history_len rounds of `awards` awards in all at most (default max(history_len, seats): the controller
    drops its oldest rounds beyond, games.progressive.HistoryCap)."""
    return sum(_round_keys(values, awards).values())


def _round_keys(values, awards=None):
    """{key of record 'round': its '"key": value, ' bytes at its largest} (a step's frame carries some of them)."""
    game, n = values["game"], values["history_len"]
    out = {"game": _k(4, len(game) + 2), "state": _k(5, 10), "round": _k(5, ROUND),
           "m": _k(1, 2 + 3 * _k(1, COUNT) + _k(2, COUNT))}  # the counts: rounds, voids, bets, bets returned
    if game not in PROGRESSIVE:  # the meters' 'h', 'a' and 'l' empty; the dice or fan-tan's number
        out["m"] += 3 * _k(1, 2)
        if game == "fantan":
            out["beans"] = _k(6, 4)
            out["hist"] = _k(4, _list(n, _item(6)))
        else:
            out["dice"] = _k(4, _list(3, 1))
            out["hist"] = _k(4, _list(n, _item(_list(3, 1))))
        return out
    k, longest, names = classes(game)
    seats = values["seats"]
    award = award_bytes(longest)
    if awards is None:
        awards = max(n, seats)
    hist = n * _item(6) + awards * (award + 2) + 2  # a round's own list, '[]' or "void", counted in _item
    out["mh"] = _k(1, k * (6 + COUNT) + names + 2) + _k(1, k * (6 + SUM) + names + 2)  # meters 'h' and 'a'
    out["ml"] = _k(2, _list(KEEP_HITS, ROUND + longest + CENTS + 9))  # the last hits: [round, seat, "class", cents]
    out["pool"] = _k(4, _list(8 + MAX_SEATS, CENTS))  # the pool and its locked bets
    # a hit: [seat, "class", [cards]]: a poker hand's five cards each, a baccarat coup's six on its first seat's
    cards = _list(6, 2) if game[:8] == "baccarat" else seats * _list(5, 2)
    out["hits"] = _k(4, _list(seats, longest + 7) + cards)
    out["awards"] = _k(6, _list(seats, award))
    out["shown"] = _k(5, 1)
    out["pre"] = _k(3, _list(6, CENTS))
    out["hist"] = _k(4, hist)
    return out


def config_bytes(values, pending):
    """Record 'config' ({'v': values, 'p': pending}, tablectl.config)."""
    return _k(1, _dict(values)) + _k(1, _dict(pending))


def _dict(d):
    n = 2
    for key in d:
        v = d[key]
        if v is True or v is False or v is None:
            b = 5
        elif isinstance(v, int):
            b = 1 + (v < 0)
            v = abs(v)
            while v >= 10:
                v //= 10
                b += 1
        else:  # a text: each character escaped at most ('\\u00e9' for one outside ASCII)
            b = 6 * len(v) + 2
        n += _k(len(key), b)
    return n


def _labels(values):
    """(how many meter labels record 'shift' keeps, their names' bytes, their values' digits) (service.shifts)."""
    n, names, digits = 4, 6 + 5 + 4 + 13, 4 * COUNT  # rounds, voids, bets, bets_returned
    if values["game"] in PROGRESSIVE:
        k, longest, total = classes(values["game"])
        # five pool figures ('link_contributed_cents' the longest name), a linked table's paid
        n, names, digits = n + 6 + 2 * k, names + 5 * 17 + 10 + 16 * k + 2 * total, digits + 6 * SUM + k * (COUNT + SUM)
    return n, names, digits


def shift_bytes(values):
    """Record 'shift' ({'n', 'at': {label: value}}, service.shifts): the meters' labels, pool figures first."""
    n, names, digits = _labels(values)
    return _k(1, COUNT) + _k(2, n * 6 + names + digits + 2)


def entry(event, a, b, text):
    """A journal entry's bytes, [seq, round, "event", a, b, "text", time, epoch] (each argument: its field's)."""
    return 20 + COUNT + ROUND + event + a + b + text + TIME + COUNT


def _entries(total, n):
    """'"j": [...], "c": "chain", ' for n entries of `total` bytes together."""
    return _k(1, total + 2 * n + 2) + _k(1, 66)


def steps(values, pending):
    """{step: its frame's payload bytes at its largest}: the keys of record 'round' the step changes (a patch
    'p' and the meters' changed keys 'q'), its journal entries, the configuration where the step writes it
    (a hit's settlement applies the pending pool changes); a torn write's acknowledgement ('v') in any. A step of
    a round the table cannot write would leave the round unfinished. Not counted: a linked table's outbox (record
    'link'), which may ride in any of them: outbox() leaves it what the largest leaves."""
    keys = _round_keys(values)
    ack = _k(1, COUNT)

    def part(names, meters, extra=0):  # 'p': {'round': {these keys}}, 'q': {'round': {'m': these of its keys}}
        return _k(1, _k(5, sum(keys[k] for k in names) + extra)) + _k(1, _k(5, _k(1, meters))) + ack

    out = {"shift_close": _k(1, _k(5, shift_bytes(values))) + ack + _shift_entries(values)}
    if values["game"] not in PROGRESSIVE:  # the whole record (a round's first save) and three entries at most
        out["round"] = _k(1, _k(5, sum(keys.values()))) + ack + _entries(3 * entry(16, COUNT, COUNT, TEXT), 3)
        return out
    k, longest, names = classes(values["game"])
    seats = values["seats"]
    counts = keys["m"] - 7  # the meters' counts alone ('"m": ' and its ', ' left out); 'h', 'a' change at a settlement
    # a hit entered: its list, the state; 'hit_fix', 'hit_in' (or 'coup_in') and 'supervisor'
    out["hit"] = part(("hits", "state"), 2) + _entries(3 * entry(10, 1, COUNT, TEXT), 3)
    # LOCK: the pool with its locked bets and the pool before them (a void returns to it), the bets counted
    out["lock"] = part(("state", "pool", "pre"), counts) + _entries(entry(4, COUNT, COUNT, TEXT), 1)
    # the round's end (CONFIRM, a void): the history, the pool, the hits and awards emptied, 'pre' null;
    # 'void_kind' and 'void' (or 'confirm'); a linked table's void that returns the bets, 'link_refund' (its
    # message sent: Caribbean Stud's voids carry the bets, CSP-11.1/11.4, the other games' may return them)
    refund = values.get("link") and values["game"] != "caribbean_stud"
    out["finish"] = part(("state", "round", "hist", "pool", "shown"), counts, _k(4, 2) + _k(6, 2) + _k(3, 4)) + \
        _entries(entry(9, 1, 1, TEXT) + entry(7, 1, 1, 0) + (entry(11, COUNT, 1, 4) if refund else 0),
                 3 if refund else 2)
    # the hit settled: the awards, the pool, the last hits; 'pay' a seat; the pending pool changes applied
    # with the configuration they make and their 'cfg_applied', the limit's excess to the reserve
    n = seats
    total = seats * entry(3, 1, CENTS, longest - 2)
    settle = part(("state", "awards", "pool", "shown", "ml"), counts + keys["mh"])
    if pending and not values.get("link"):  # a linked table's pool parameters are the server's
        for key in pending:
            total += entry(11, 1, 1, min(TEXT, len(key) + 3 + 2 * CENTS))
        total += entry(15, CENTS, CENTS, 6 + CENTS)
        n += len(pending) + 1
        # 'q': {'config': {'v': the changed keys}}, 'p': {'config': {'p': {}}} (Config.apply_pending)
        settle += _k(1, _k(6, _k(1, sum(_k(len(key), CENTS) for key in pending) + 2))) + _k(1, _k(6, _k(1, 2)))
    out["settle"] = settle + _entries(total, n)
    return out


def _shift_entries(values):
    """shift_close's entries: 'shift_close', a 'shift_meter' a label (its value in a, its name the text), 'shift_open'."""
    n, names, digits = _labels(values)
    return _entries(entry(11, COUNT, 1, 13 + COUNT) + entry(10, COUNT, 1, 6 + COUNT) +
                    n * entry(11, 0, COUNT, 0) + names + digits, n + 2)


def link(out):
    """Record 'link' ({'ep', 'seq', 'out', 'claim'}, tablectl.link) with an outbox of `out` bytes: an epoch below
    2**31, seq and claim of nine digits."""
    return _k(2, 10) + _k(3, COUNT) + _k(3, out) + _k(5, COUNT)


def outbox(values, pending, usable):
    """The bytes a linked table's outbox may hold (tablectl.link's out_bytes()): a step of a round writes it
    beside the round's changed keys when it changed since the last save, so a block's frame holds the largest
    step's with record 'link' ('"r": {"link": ...}, '), 2,048 at most (a checkpoint restates it, however large
    the block); 0 for a table not linked. (Names are few here: each stays interned once the module is dropped.)"""
    if not values["link"]:
        return 0
    frames = steps(values, pending)
    del frames["shift_close"]  # service.shifts writes no round key, nor the outbox
    return min(2048, usable - STEP - max(frames.values()) - _k(1, _k(4, link(0))))


def checkpoint(values, pending, prog, out):
    """A checkpoint's bytes with every record at its largest (Log.checkpoint: a frame a record, a torn write's
    acknowledgement before them, the end frame): 'config', 'round', 'shift', 'epoch' and, with an outbox of
    `out` bytes, 'link'. (A tilted table's 'halt' is left out: it plays no round.)"""
    after = dict(values)
    after.update(pending)
    n = END + frame(_k(1, COUNT), prog) + frame(config_bytes(values, pending), prog) + frame(EPOCH, prog)
    n += frame(max(round_bytes(values), round_bytes(after)), prog) + frame(max(shift_bytes(values),
                                                                                shift_bytes(after)), prog)
    if values["link"]:
        n += frame(link(out), prog)
    return n


def frame(n, prog):
    """The flash bytes of a frame of n payload bytes, in whole program units."""
    return (n + FRAME + prog - 1) // prog * prog


def check(values, pending, usable, prog, room=None):
    """'' or, in one line, the record whose bound a frame of a block (`usable` bytes after its header) cannot
    hold, with its bound and that room: before and after the pending changes apply; then the step of a round
    whose frame at its largest a block cannot hold (steps()); a linked table's outbox that the largest step
    leaves no room for one round's messages (outbox()); a checkpoint at its largest that the ring's `room`
    (Log.room(): on a ring of 5 to 11 blocks, one block) cannot hold."""
    after = dict(values)
    after.update(pending)
    for name, n in (("config", config_bytes(values, pending)), ("round", max(round_bytes(values), round_bytes(after))),
                    ("shift", max(shift_bytes(values), shift_bytes(after)))):
        if frame(n, prog) > usable:
            return ("record '%s' needs %d bytes at its largest, a frame of a flash block holds %d"
                    % (name, n, usable - FRAME))
    frames = steps(values, pending)
    for name in sorted(frames):
        n = frames[name]
        if (n + STEP + prog - 1) // prog * prog > usable:
            return ("a step's frame ('%s'%s) needs %d bytes at its largest, a flash block holds %d"
                    % (name, ", %d pool changes pending" % len(pending) if name == "settle" and pending else "",
                       n, usable - STEP))
    out = outbox(values, pending, usable)
    if values["link"]:
        from tablectl.linkaddr import round_bytes as messages
        need = messages(values["seats"], classes(values["game"])[1] - 2)
        if out < need:
            return ("the link's outbox has %d bytes beside a step's frame at its largest, one round's messages "
                    "need %d" % (max(out, 0), need))
    if room is not None:
        n = checkpoint(values, pending, prog, out)
        if n > room:
            return "the ring keeps %d bytes for a checkpoint, the records at their largest need %d" % (room, n)
    return ""
