"""The byte bound of every record a configuration makes, from each record's shape alone (no controller is
loaded): the digits of the largest numbers, the longest names, the seats, the history. Config.change
refuses a configuration whose records at their largest would not fit the flash log (issue 20, defect 7).

    why, cap = check(values, pending, geometry)  # '' or one line naming the record and its bytes, and the
    # JSON bytes a progressive's history may take; geometry: Store.geometry() (usable, room, program unit)
    unload()  # its few KB of code leave the heap: needed only when a configuration is checked
"""
from tablectl.meters import KEEP_HITS
from tablectl.rules import MAX_SEATS, PROGRESSIVE
from tablectl.storage.frame import FHDR, UNIT

ROUND = 8    # digits of a round number: fewer than 10**8 between two RAM clears (95 years at one a 30 s)
COUNT = 9    # digits of a count (rounds, voids, hits of a class, bets: nine seats a round, a link's seq)
CENTS = 10   # digits of an amount (below 2**30, tablectl.rules.MAX_CENTS)
SUM = 19     # digits of a sum of amounts: a meter, the pool's paid and seeded (9 x 10**8 x 2**30 < 10**19)
EP = 10      # digits of a link's epoch (31 bits)
STATE = 10   # '"claiming"', the longest state a round record names
VOID = 6     # '"void"' (tablectl.games.base.VOID) in the history
OUT_BYTES = 2048  # tablectl.link.OUT_BYTES (a test holds them equal: that module is too big to load here)

# the hand classes of each progressive game as tablectl.rules.awards.table names them (a test holds them
# equal): the meters, the last hits, a hit and an award name one
CLASSES = {
    "caribbean_stud": ("flush", "full_house", "four_of_a_kind", "straight_flush", "royal_flush"),
    "fortune3": ("flush", "full_house", "four_of_a_kind", "straight_flush", "royal_flush"),
    "baccarat_a": ("one_pair", "three_of_a_kind", "two_pairs", "four_of_a_kind", "paradise_straight", "royal"),
    "baccarat_b": ("three", "four", "two_threes", "five_of_a_kind", "six_of_a_kind"),
    "baccarat_c": ("three", "four", "two_threes", "five_of_a_kind", "six_of_a_kind", "six_same_colour"),
}
RETURNS = ("fortune3", "baccarat_a", "baccarat_b", "baccarat_c")  # a void kind returns the bets: key 'pre'


def unload():
    """Drop this module from RAM (the caller keeps no name of it; the next check imports it again)."""
    import sys
    sys.modules.pop(__name__, None)
    pkg = sys.modules.get("tablectl")
    if pkg is not None and "bounds" in pkg.__dict__:
        delattr(pkg, "bounds")


def _seq(n, total):
    """JSON bytes of a list of n items taking `total` bytes ('[', ']' and ', ' between)."""
    return total + 2 * n if n else 2


def _list(n, each):
    return _seq(n, n * each)


def _key(name, value, more=0):
    """JSON bytes of '"name": value, ' in a dict (a dict's bytes are its keys' sum: braces for a ', '); more:
    characters the name has beyond `name` (a prefix and a suffix, not made into one string)."""
    return len(name) + more + 6 + value


def size(obj):
    """The bytes json.dumps(obj) takes at most (dict, list, tuple, str, int, bool, None), counted without
    making the text (a configuration's is a kilobyte in one piece)."""
    if isinstance(obj, str):
        n = len(obj) + 2 + obj.count('"') + obj.count("\\")
        for ch in obj:
            if ch < " " or ch > "~":
                n += 11  # '\u001f', or outside ASCII: '\ud83c\udca1' at most
        return n
    if obj is None or obj is True:
        return 4
    if obj is False:
        return 5
    if isinstance(obj, int):
        n = 1 + (obj < 0)
        obj = abs(obj)
        while obj >= 10:  # its digits counted, not written
            obj //= 10
            n += 1
        return n
    if isinstance(obj, dict):
        n = 0
        for k in obj:
            n += size(k) + 4 + size(obj[k])
        return n if obj else 2
    n = 0
    for x in obj:
        n += size(x) + 2
    return n if obj else 2


def frame(name, n, prog):
    """The flash bytes of a frame holding record `name` of n JSON bytes ('{"r": {"name": n}}', header, CRC)."""
    return (FHDR + 13 + len(name) + n + 4 + prog - 1) // prog * prog


def _classes(game):
    names = CLASSES[game]
    longest = 0
    for c in names:
        longest = max(longest, len(c))
    return names, longest + 2


def award_bytes(game):
    """[seat, "class", cents] at its longest."""
    return _seq(3, 1 + _classes(game)[1] + CENTS)


def result_bytes(game, hits=1, each=0):
    """A history item [round, result] at its longest: a progressive round of `hits` awards of `each` bytes
    (award_bytes()) or VOID."""
    if game in PROGRESSIVE:
        r = max(_list(hits, each or award_bytes(game)), VOID)
    elif game == "fantan":
        r = VOID  # a count 1..4 or "void"
    else:
        r = _list(3, 1)  # three dice
    return _seq(2, ROUND + r)


def round_bytes(values, hist):
    """Record 'round' at its largest beside a history of `hist` JSON bytes: every seat's hit with its
    cards, meters and pool at their most digits, the last hits kept."""
    game = values["game"]
    n = _key("game", len(game) + 2) + _key("state", STATE) + _key("round", ROUND) + _key("hist", hist)
    counts = 3 * _key("r", COUNT) + _key("rb", COUNT)
    if game not in PROGRESSIVE:
        if game == "fantan":
            n += _key("number", 1)
        else:
            n += _key("dice", _list(3, 1))
        return n + _key("m", counts + 3 * _key("h", 2))  # 'h', 'a', 'l' empty
    names, longest = _classes(game)
    seats = values["seats"]
    hits = amounts = 0
    for c in names:
        hits += _key(c, COUNT)
        amounts += _key(c, SUM)
    n += _key("m", counts + _key("h", hits) + _key("a", amounts))
    n += _key("ml", _list(KEEP_HITS, _seq(4, ROUND + 1 + longest + CENTS)))
    n += _key("pool", _seq(8 + MAX_SEATS, (4 + MAX_SEATS) * CENTS + 2 * SUM + 2))
    # a poker hit's five cards each; a baccarat coup's six on its first seat's hit only
    cards = _list(6, 2) + 2 * (seats - 1) if game[:9] == "baccarat_" else seats * _list(5, 2)
    n += _key("hits", _seq(seats, seats * _seq(3, 1 + longest) + cards))
    n += _key("awards", _list(seats, award_bytes(game)))
    n += _key("shown", 1)
    if game in RETURNS:
        n += _key("pre", _seq(6, 4 * CENTS + 2 * SUM))
    return n


def link_bytes():
    """Record 'link' (a linked table's outbox: {'ep', 'seq', 'out', 'claim'}, tablectl.link) at its largest."""
    return _key("ep", EP) + _key("seq", COUNT) + _key("out", OUT_BYTES) + _key("claim", COUNT)


def config_bytes(values, pending):
    """Record 'config' ({'v': values, 'p': pending}) at its largest: before or after its pending changes apply."""
    return _key("v", size(values)) + _key("p", 2 * size(pending)) + _key("b", _seq(2, 10))  # the cap saved


def shift_bytes(values):
    """Record 'shift' ({'n': number, 'at': {label: lifetime value}}, tablectl.service.shifts) at its largest."""
    game = values["game"]
    at = _key("rounds", COUNT) + _key("voids", COUNT) + _key("bets", COUNT) + _key("bets_returned", COUNT)
    if game in PROGRESSIVE:
        link = values["link"]
        for name in ("pool", "reserve", "contributed", "paid", "seeded"):
            at += _key(name, SUM, 11 if link else 6)  # 'link_' and '_cents'
        if link:
            at += _key("paid_cents", SUM)
        for c in _classes(game)[0]:
            at += _key(c, COUNT, 5) + _key(c, SUM, 11)  # 'hits_', 'paid_' and '_cents'
    return _key("n", COUNT) + _key("at", at)


def check(values, pending, geometry):
    """('' or why this flash cannot hold the configuration's records, in one line; the JSON bytes a
    progressive's history may take). Record 'round' must fit a block and the checkpoint of every record
    (config, round, epoch, shift) what the ring keeps for one, with a history of history_len one-hit
    rounds and of one round of every seat's hit; the controller drops the oldest results beyond the cap
    (Controller.remember). A dice or fan-tan history at its longest is within it."""
    usable, room, prog = geometry
    cfg = config_bytes(values, pending)
    if frame("config", cfg, prog) > usable:
        return "record 'config' needs %d bytes, a flash block holds %d" % (cfg, usable), 0
    game = values["game"]
    n = values["history_len"]
    others = UNIT + frame("config", cfg, prog) + frame("epoch", _key("n", COUNT), prog) + \
        frame("shift", shift_bytes(values), prog)
    if values["link"]:
        others += frame("link", link_bytes(), prog)  # a block holds it: OUT_BYTES is far below one
    most = min(usable, room - others) // prog * prog - FHDR - 13 - len("round") - 4  # the round's JSON
    base = round_bytes(values, 0)
    need = _list(n, result_bytes(game))
    if game in PROGRESSIVE:
        need = max(need, _list(1, result_bytes(game, values["seats"])))
    if base + need <= most:
        return "", most - base
    return ("record 'round' needs %d bytes at its largest (history_len %d%s), this flash leaves it %d (a block "
            "holds %d, a checkpoint %d)" % (base + need, n, ", seats %d" % values["seats"] if game in PROGRESSIVE
                                            else "", max(most, 0), usable, room)), most - base
