"""The linked progressive's address in the configuration: link_parts(url) -> (tls, table, password, brokers, link).

Below both tablectl.config (which checks the key) and tablectl.link (which connects): docs/link.md.
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
