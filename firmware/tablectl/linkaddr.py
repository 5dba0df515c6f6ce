"""The linked progressive's address in the configuration: link_parts(url) -> (tls, table, password, brokers, link);
message_bytes(seats, longest), an outbox message at its longest.

Below tablectl.config (which checks the key), tablectl.bound (which sizes the outbox) and tablectl.link (which
connects): docs/link.md.
"""
from tablectl.valid import NAME_CHARS, name_ok

BROKERS_MAX = 5    # broker addresses a link names at most (a cluster's nodes)


def _ident(what, text):
    if not 1 <= len(text) <= 32:
        raise ValueError("link: the %s must be 1-32 characters" % what)
    if not name_ok(text, NAME_CHARS + "-"):
        raise ValueError("link: the %s %r takes a-z, 0-9, _ and - only" % (what, text))
    return text


def link_parts(url):
    """(tls, table, password, [(host, port), ...], link) of 'mqtt[s]://TABLE:PASSWORD@HOST:PORT[,...]/LINK';
    ValueError naming what is wrong."""
    if not isinstance(url, str):
        raise ValueError("link: a text mqtt://TABLE:PASSWORD@HOST:PORT/LINK, got %r" % (url,))
    scheme, sep, rest = url.partition("://")
    if not sep or scheme not in ("mqtt", "mqtts"):
        raise ValueError("link: starts mqtt:// or mqtts:// (mqtt://TABLE:PASSWORD@HOST:PORT/LINK)")
    account, sep, rest = rest.rpartition("@")
    table, sep2, password = account.partition(":")
    if not sep or not sep2 or not password:
        raise ValueError("link: TABLE:PASSWORD@ before the broker's address")
    where, sep, link = rest.partition("/")
    if not sep:
        raise ValueError("link: HOST:PORT/LINK after the @ (port 1..65535)")
    brokers = []
    for address in where.split(","):
        host, sep2, port = address.rpartition(":")
        if not sep2 or not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError("link: broker %r is not HOST:PORT (port 1..65535)" % address)
        if (host, int(port)) in brokers:
            raise ValueError("link: broker %s named twice" % address)
        brokers.append((host, int(port)))
    if len(brokers) > BROKERS_MAX:
        raise ValueError("link: %d brokers, at most %d" % (len(brokers), BROKERS_MAX))
    return scheme == "mqtts", _ident("table id", table), password, brokers, _ident("link id", link)


def message_bytes(seats, longest):
    """A message of the outbox ([seq, "kind", "the body's JSON, its quotes escaped"]) at its longest, its
    numbers at their most digits (a round 8, cents 10, the epoch 10, seq 9): a contribution of every seat,
    or a claim of every seat's hit of a class of `longest` characters (a 'paid' is shorter)."""
    head = 55  # '"round": ' and 8 digits, '"ep": ' and 10, '"seq": ' and 9, each with its ', '
    contrib = head + 20 * seats + 32  # '"bets": [[7, 10 digits], ...]', '"locked": [7, ...]', 10 quotes escaped
    claim = head + (longest + 11) * seats + 18  # '"hits": [[7, "class"], ...]', 8 + 2 a seat escaped
    return max(contrib, claim) + 26  # 9 digits of seq, '"contrib"', the text's quotes, '[', ', ', ']'


def round_bytes(seats, longest):
    """What one round adds to the outbox at most: its contribution and its claim, each with its ', ' (the 'paid'
    at its end comes after the claim's answer took the claim out, and is shorter)."""
    return 2 * (message_bytes(seats, longest) + 2)
