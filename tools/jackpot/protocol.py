"""The link's MQTT protocol: topics, JSON payloads and their checks (docs/link.md is the same, for a third party).

L is a link id, T a table id (also the table's MQTT user name). Money is integer cents; seats 1..9 from
the dealer's left; E is the table's epoch (a number it draws when its link record is created, so a
table whose records were cleared starts a new sequence), N its sequence number, persisted before it
sends, one counter for every message that changes money: (T, E, N) is the message's idempotent id.

    tablectl/L/table/T/contrib  table->server QoS 1  {"ep":E,"seq":N,"round":R,"bets":[[seat,cents],..],"locked":[seats]}
    tablectl/L/table/T/hit      table->server QoS 1  {"ep":E,"seq":N,"round":R,"hits":[[seat,"class"],..]}
    tablectl/L/table/T/paid     table->server QoS 1  {"ep":E,"seq":N,"claim":N'}
    tablectl/L/table/T/refund   table->server QoS 1  {"ep":E,"seq":N,"round":R}
    tablectl/L/table/T/beat     table->server QoS 0  {"ep":E,"n":K}   5 s unanswered, 15-30 s answered
    tablectl/L/table/T/ack      server->table QoS 1  {"seq":N,"ok":kind,...} | {"seq":N,"error":"..."} | {"beat":K,"now":S,...}
    tablectl/L/beat             server->tables QoS 0  {"beat":K,"pool":P,"ver":V,"pending":[..]}  every 0.5 s
    tablectl/L/pool             server->all   QoS 1, retained   the pool (pool_payload)
    tablectl/L/hits             server->signs QoS 1, retained   {"link":L,"hits":[[t_ms,T,seat,"class",cents],..]}
    tablectl/server             server        QoS 1, retained   "online", or "offline" (its will)

contrib: `bets` are the bets locked this round that feed the pool (a bet carried from a void round is
not sent again); `locked` every seat locked this round, carried ones too (a hit needs one). hit: every
winning hand of one round, settled at once in the regulation's order by the server. paid: the awards
of claim N' are paid. refund: round R was void and its bets returned (BAC-10, F3-17.1(2)/(3)): the
server takes its contributions out of the pool, as its ledger recorded them. The server handles a table's messages in sequence order: a message after a gap
waits for the table to send the gap again (it is not acknowledged), an old one is acknowledged again
with the result it had. Every message the server refuses gets {"seq":N,"error":"one line"}. A heartbeat's answer carries the
server's clock, S seconds since 2000-01-01 UTC: a table whose clock is not set, or is more than two
seconds off, sets it from there (journalled).
"""
import json
import logging
import socket
import ssl

import aiomqtt

_SINCE_1970 = 946684800  # 2000-01-01 in unix seconds: the tables count from 2000


def now():
    """The server's clock as a table's journal counts it (a heartbeat answer's "now")."""
    import time
    return int(time.time()) - _SINCE_1970

# for aiomqtt clients: small messages go at once (Nagle's algorithm with delayed ACKs holds them 40 ms)
NODELAY = ((socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),)

PREFIX = "tablectl"
SERVER_TOPIC = PREFIX + "/server"
KINDS = ("contrib", "hit", "paid", "refund", "beat")  # what a table publishes
MAX_SEATS = 9
MAX_CENTS = (1 << 30) - 1
MAX_PAYLOAD = 2048
MAX_DEPTH = 3  # {"bets": [[seat, cents]]}: an object, a list, a list; deeper is refused before decoding


def table_topic(link, table, kind):
    return "%s/%s/table/%s/%s" % (PREFIX, link, table, kind)


def pool_topic(link):
    return "%s/%s/pool" % (PREFIX, link)


def link_beat_topic(link):
    return "%s/%s/beat" % (PREFIX, link)


def hits_topic(link):
    return "%s/%s/hits" % (PREFIX, link)


def parse_table_topic(topic):
    """(link, table, kind) of a topic a table publishes; ValueError otherwise."""
    parts = topic.split("/")
    if len(parts) != 5 or parts[0] != PREFIX or parts[2] != "table" or parts[4] not in KINDS:
        raise ValueError("topic %r is not tablectl/<link>/table/<table>/{%s}" % (topic, "|".join(KINDS)))
    return parts[1], parts[3], parts[4]


def _int(body, key, lo=0, hi=MAX_CENTS):
    v = body.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ValueError("%s must be an integer %d..%d, got %r" % (key, lo, hi, v))
    return v


def _seat(v, what):
    if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= MAX_SEATS:
        raise ValueError("%s: seat must be 1..%d, got %r" % (what, MAX_SEATS, v))
    return v


def depth(payload):
    """How deep the payload's brackets nest, strings skipped (a byte scan: the decoder's recursion is
    never reached by a payload that nests deeper than MAX_DEPTH)."""
    deepest = level = 0
    in_str = escaped = False
    for b in payload:
        if in_str:
            if escaped:
                escaped = False
            elif b == 0x5C:  # backslash
                escaped = True
            elif b == 0x22:
                in_str = False
        elif b == 0x22:
            in_str = True
        elif b in (0x5B, 0x7B):  # [ {
            level += 1
            deepest = max(deepest, level)
        elif b in (0x5D, 0x7D):
            level -= 1
    return deepest


def decode(kind, payload):
    """The checked body of a table's message (a dict); ValueError, one line, for anything malformed:
    size and depth are bounded before the JSON decoder sees it."""
    if not isinstance(payload, (bytes, bytearray)):
        raise ValueError("%s: payload is not bytes" % kind)
    if len(payload) > MAX_PAYLOAD:
        raise ValueError("%s: payload of %d bytes (at most %d)" % (kind, len(payload), MAX_PAYLOAD))
    if depth(payload) > MAX_DEPTH:
        raise ValueError("%s: payload nests deeper than %d" % (kind, MAX_DEPTH))
    try:
        body = json.loads(bytes(payload).decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ValueError("%s: payload is not JSON" % kind)
    if not isinstance(body, dict):
        raise ValueError("%s: payload is not a JSON object" % kind)
    _int(body, "ep", 0, (1 << 31) - 1)
    if kind == "beat":
        _int(body, "n", 0, (1 << 31) - 1)
        return body
    _int(body, "seq", 1, (1 << 31) - 1)
    if kind == "paid":
        _int(body, "claim", 1, (1 << 31) - 1)
        return body
    _int(body, "round", 0, (1 << 31) - 1)
    if kind == "refund":
        return body  # the round names the contributions; their amounts are the ledger's own record
    if kind == "contrib":
        bets, locked = body.get("bets"), body.get("locked")
        if not isinstance(bets, list) or not isinstance(locked, list) or len(locked) > MAX_SEATS:
            raise ValueError("contrib: bets [[seat, cents], ...] and locked [seats] are lists")
        seen = set()
        for b in bets:
            if not isinstance(b, list) or len(b) != 2:
                raise ValueError("contrib: a bet is [seat, cents], got %r" % (b,))
            seat = _seat(b[0], "contrib")
            if seat in seen:
                raise ValueError("contrib: seat %d bets twice" % seat)
            seen.add(seat)
            _int({"cents": b[1]}, "cents", 1)
        for s in locked:
            _seat(s, "contrib locked")
        if not seen <= set(locked):
            raise ValueError("contrib: a seat with a bet is not in locked")
        return body
    hits = body.get("hits")
    if not isinstance(hits, list) or not 1 <= len(hits) <= MAX_SEATS:
        raise ValueError("hit: hits is a list of 1..%d [seat, class]" % MAX_SEATS)
    seats = set()
    for h in hits:
        if not isinstance(h, list) or len(h) != 2 or not isinstance(h[1], str):
            raise ValueError("hit: a hit is [seat, class], got %r" % (h,))
        if _seat(h[0], "hit") in seats:
            raise ValueError("hit: seat %d has two hits" % h[0])
        seats.add(h[0])
    return body


def encode(obj):
    return json.dumps(obj, separators=(",", ":")).encode()


def pool_payload(link, game, totals, ver, pending, t_ms):
    """What the pool topic carries: the pool, the reserve and the link's meters (contributed, paid,
    seeded: pool + reserve + paid = seeded + contributed), a version that grows with every change of the
    pool (an answer names the version its change is in), the top awards waiting to be paid."""
    body = {"link": link, "game": game, "ver": ver, "pending": pending, "t": t_ms}
    body.update(totals)
    return body


def quiet_logger():
    """For aiomqtt clients: paho's complaints about a connection the broker dropped are not printed (the
    server and the tables say what a lost connection means for them)."""
    log = logging.getLogger("tablectl.mqtt")
    if not log.handlers:
        log.addHandler(logging.NullHandler())
        log.propagate = False
    return log


def brokers(text):
    """[(host, port), ...] of 'HOST:PORT[,HOST:PORT...]' (a cluster's nodes, tried in turn); ValueError
    naming the address that is wrong."""
    out = []
    for where in text.split(","):
        host, _, port = where.strip().rpartition(":")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError("broker address is HOST:PORT (port 1-65535), got %r" % where)
        out.append((host, int(port)))
    return out


def client(broker, user, password, identifier, ca_file=None, clean=False, **kw):
    """An aiomqtt client to broker (host, port) as the server and the CPython tables connect: a persistent
    session (clean_session False: the broker keeps their QoS 1 messages while they are away), TLS with
    ca_file's CA when given, keepalive 10 s; kw: aiomqtt.Client's other arguments. clean: a clean session, for
    a client whose subscriptions are all QoS 0 (nothing to keep; on nats a persistent session is a JetStream
    record written at every login, which a node's death holds up for seconds)."""
    tls = ssl.create_default_context(cafile=str(ca_file)) if ca_file else None
    return aiomqtt.Client(broker[0], broker[1], username=user, password=password, identifier=identifier,
                          clean_session=clean, tls_context=tls, keepalive=10, logger=quiet_logger(),
                          socket_options=NODELAY, **kw)


async def subscribe(client, topic, qos):
    """client.subscribe, and aiomqtt.MqttError when the broker refuses it (SUBACK 0x80): a nats node whose
    JetStream has no leaders yet refuses a QoS 1 subscription, and a client that took that for a
    subscription would wait for ever for what it never gets; the caller connects again (its retry)."""
    granted = await client.subscribe(topic, qos=qos)
    if any(getattr(g, "value", g) >= 0x80 for g in granted):
        raise aiomqtt.MqttError("the broker refused the subscription to %s" % topic)
    return granted
