"""Each record's JSON bytes at most, in closed form from the configuration (issue 20, defect 7): sums and products of
its fields (seats, history_len, the game's class names, the most digits of a count or an amount), so that
Config.change refuses, before anything is written, a configuration whose records could outgrow a frame of the
log's blocks. No controller is loaded and no record or text is made: a record's shape is the one games.base,
games.progressive, tablectl.config and service.shifts write (record 'link' has its own cap: tablectl.link).
"""
from tablectl.rules import MAX_SEATS, PROGRESSIVE

ROUND = 8    # digits of a round number: fewer than 10**8 between two RAM clears
COUNT = 9    # digits of a count (rounds, voids, bets, hits of a class, a shift's number)
CENTS = 10   # digits of an amount: below 2**30 (tablectl.rules.MAX_CENTS)
SUM = 19     # digits of a meter summing amounts
KEEP_HITS = 25  # tablectl.meters.KEEP_HITS (a test holds them equal: meters is not loaded for this)
FRAME = 36   # a frame's header and CRC, '{"r": {"name": ...}}' and a page's rounding left out: see frame()


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
    game, n = values["game"], values["history_len"]
    out = _k(4, len(game) + 2) + _k(5, 10) + _k(5, ROUND) + _k(1, 2 + 3 * _k(1, COUNT) + _k(2, COUNT))
    if game not in PROGRESSIVE:  # the meters' 'h', 'a' and 'l' empty; the dice or fan-tan's number
        out += 3 * _k(1, 2)
        if game == "fantan":
            return out + _k(6, 4) + _k(4, _list(n, _item(6)))
        return out + _k(4, _list(3, 1)) + _k(4, _list(n, _item(_list(3, 1))))
    k, longest, names = classes(game)
    seats = values["seats"]
    award = award_bytes(longest)
    if awards is None:
        awards = max(n, seats)
    hist = n * _item(6) + awards * (award + 2) + 2  # a round's own list, '[]' or "void", counted in _item
    out += _k(1, k * (6 + COUNT) + names + 2) + _k(1, k * (6 + SUM) + names + 2)  # meters 'h' and 'a'
    out += _k(2, _list(KEEP_HITS, ROUND + longest + CENTS + 9))  # the last hits: [round, seat, "class", cents]
    out += _k(4, _list(8 + MAX_SEATS, CENTS))  # the pool and its locked bets
    # a hit: [seat, "class", [cards]]: a poker hand's five cards each, a baccarat coup's six on its first seat's
    cards = _list(6, 2) if game[:8] == "baccarat" else seats * _list(5, 2)
    out += _k(4, _list(seats, longest + 7) + cards)
    out += _k(6, _list(seats, award)) + _k(5, 1) + _k(3, _list(6, CENTS)) + _k(4, hist)
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


def shift_bytes(values):
    """Record 'shift' ({'n', 'at': {label: value}}, service.shifts): the meters' labels, pool figures first."""
    at = _k(6, COUNT) + _k(5, COUNT) + _k(4, COUNT) + _k(13, COUNT)
    game = values["game"]
    if game in PROGRESSIVE:
        k, longest, names = classes(game)
        at += 5 * _k(17, SUM) + _k(10, SUM)  # 'link_contributed_cents' the longest; a linked table's paid
        at += k * (_k(5, COUNT) + _k(11, SUM)) + 2 * names  # 'hits_<class>', 'paid_<class>_cents'
    return _k(1, COUNT) + _k(2, at + 2)


def frame(n, prog):
    """The flash bytes of a frame of n payload bytes, in whole program units."""
    return (n + FRAME + prog - 1) // prog * prog


def check(values, pending, usable, prog):
    """'' or, in one line, the record whose bound a frame of a block (`usable` bytes after its header) cannot
    hold, with its bound and that room: before and after the pending changes apply. (A checkpoint larger than
    a small ring keeps for one is the writer's to refuse: a board's ring keeps hundreds of blocks for one.)"""
    after = dict(values)
    after.update(pending)
    for name, n in (("config", config_bytes(values, pending)), ("round", max(round_bytes(values), round_bytes(after))),
                    ("shift", max(shift_bytes(values), shift_bytes(after)))):
        if frame(n, prog) > usable:
            return ("record '%s' needs %d bytes at its largest, a frame of a flash block holds %d"
                    % (name, n, usable - FRAME))
    return ""
