"""A small MQTT 3.1.1 client on an asyncio Protocol, for simulating thousands of tables in a few processes.

    async with leanmqtt.client(('127.0.0.1', 1883), user, password, 'tablectl-t01', timeout=5) as c:
        await protocol.subscribe(c, 'tablectl/pit1/table/t01/ack', 1)
        await c.publish(topic, payload, qos=1)
        async for msg in c.messages: msg.topic.value, msg.payload

The subset of aiomqtt.Client that jackpot.simtable uses (its errors are aiomqtt.MqttError too), without
paho's per-packet objects, locks, executor connect and once-a-second housekeeping task: profiled at 2,000
tables, those were most of the simulating processes' CPU. A QoS 1 publish is written, not awaited (the
table's record resends what is not answered); an incoming QoS 1 publish is acknowledged at once. A timer
every half keepalive sends PINGREQ when the client wrote or read nothing in that half (never silent a
whole keepalive: the broker drops a client silent for 1.5), and drops a connection that read nothing in
the keepalive after one.
"""
import asyncio
import collections
import ssl
import struct

import aiomqtt

KEEPALIVE = 10


class _Topic:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class Message:
    __slots__ = ("topic", "payload", "qos", "retain")

    def __init__(self, topic, payload, qos, retain):
        self.topic = _Topic(topic)
        self.payload = payload
        self.qos = qos
        self.retain = retain


def _str(s):
    b = s.encode() if isinstance(s, str) else bytes(s)
    return struct.pack("!H", len(b)) + b


def _packet(first, body):
    n = len(body)
    head = bytearray((first,))
    while True:  # the remaining length, 7 bits a byte
        byte, n = n & 0x7F, n >> 7
        head.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(head) + body


class _Messages:
    """client.messages: an async iterator over the publishes received; MqttError once the connection is lost."""

    def __init__(self, proto):
        self.proto = proto

    def __aiter__(self):
        return self

    def __len__(self):
        return len(self.proto.inbox)

    async def __anext__(self):
        p = self.proto
        while not p.inbox:
            if p.lost is not None:
                raise p.lost
            p.wake = p.loop.create_future()
            await p.wake
        return p.inbox.popleft()


class _Protocol(asyncio.Protocol):
    def __init__(self, loop):
        self.loop = loop
        self.buf = bytearray()
        self.inbox = collections.deque()
        self.wake = None        # the future the messages' reader waits on
        self.waiting = {}       # packet id (or 'connack') -> future
        self.lost = None        # the MqttError once the connection is gone
        self.transport = None
        self.read_any = self.wrote_any = False

    def connection_made(self, transport):
        self.transport = transport

    def connection_lost(self, exc):
        self.lost = aiomqtt.MqttError("connection lost: %s" % (exc or "closed by the broker"))
        for fut in list(self.waiting.values()) + [self.wake]:
            if fut is not None and not fut.done():
                fut.set_exception(self.lost)
        self.waiting.clear()

    def write(self, data):
        if self.lost is not None:
            raise self.lost
        self.wrote_any = True
        self.transport.write(data)

    def data_received(self, data):
        self.read_any = True
        buf = self.buf
        buf += data
        while True:
            # the fixed header: a type byte and 1-4 length bytes
            n = shift = 0
            i = 1
            while True:
                if i >= len(buf):
                    return
                byte = buf[i]
                n |= (byte & 0x7F) << shift
                shift += 7
                i += 1
                if not byte & 0x80:
                    break
            if len(buf) < i + n:
                return
            first = buf[0]
            body = bytes(buf[i:i + n])
            del buf[:i + n]
            self._handle(first, body)

    def _handle(self, first, body):
        kind = first >> 4
        if kind == 3:  # PUBLISH
            qos = (first >> 1) & 3
            tlen = struct.unpack_from("!H", body)[0]
            topic = body[2:2 + tlen].decode()
            at = 2 + tlen
            if qos:
                pid = body[at:at + 2]
                at += 2
                self.write(b"\x40\x02" + pid)  # PUBACK (QoS 2 is not used on the link)
            self.inbox.append(Message(topic, body[at:], qos, bool(first & 1)))
            if self.wake is not None and not self.wake.done():
                self.wake.set_result(None)
        elif kind == 2:  # CONNACK
            self._resolve("connack", body[1])
        elif kind == 9:  # SUBACK
            self._resolve(struct.unpack_from("!H", body)[0], list(body[2:]))
        # PUBACK (4) of our QoS 1 publishes, PINGRESP (13): nothing waits on them

    def _resolve(self, key, value):
        fut = self.waiting.pop(key, None)
        if fut is not None and not fut.done():
            fut.set_result(value)


class Client:
    def __init__(self, broker, user, password, identifier, ca_file=None, clean=False, timeout=5, keepalive=KEEPALIVE):
        self.broker = broker
        self.user = user
        self.password = password
        self.identifier = identifier
        self.ca_file = ca_file
        self.clean = clean
        self.timeout = timeout
        self.keepalive = keepalive
        self.proto = None
        self._pid = 0
        self._timer = None
        self._pinged = 0  # half keepalives since a PINGREQ, nothing read since (0: none waits)

    @property
    def messages(self):
        return _Messages(self.proto)

    async def __aenter__(self):
        loop = asyncio.get_running_loop()
        tls = ssl.create_default_context(cafile=str(self.ca_file)) if self.ca_file else None
        try:
            _, self.proto = await asyncio.wait_for(loop.create_connection(
                lambda: _Protocol(loop), self.broker[0], self.broker[1], ssl=tls), self.timeout)
        except (OSError, asyncio.TimeoutError) as e:
            raise aiomqtt.MqttError("cannot connect to %s:%d: %s" % (self.broker[0], self.broker[1], e)) from None
        flags = (0x80 if self.user is not None else 0) | (0x40 if self.password is not None else 0) | \
                (0x02 if self.clean else 0)
        body = _str("MQTT") + bytes((4, flags)) + struct.pack("!H", self.keepalive) + _str(self.identifier)
        if self.user is not None:
            body += _str(self.user)
        if self.password is not None:
            body += _str(self.password)
        code = await self._ask("connack", _packet(0x10, body))
        if code:
            self.proto.transport.close()
            raise aiomqtt.MqttError("the broker refused the connection (CONNACK %d)" % code)
        self._timer = loop.call_later(self.keepalive / 2, self._tick)
        return self

    async def __aexit__(self, *exc):
        if self._timer:
            self._timer.cancel()
        p = self.proto
        if p.lost is None:
            p.write(b"\xe0\x00")  # DISCONNECT
            p.transport.close()

    def _tick(self):
        """Each half keepalive, on that half's reads and writes. A table answered beats only every 15-30 s
        (tablectl/link.py's KEEP_MS): with a tick a keepalive it could write nothing for two, and the broker
        dropped it (690 timeouts in 30 s of 500 tables idle)."""
        p = self.proto
        if p.lost is not None:
            return
        if p.read_any:
            self._pinged = 0
        if self._pinged:
            self._pinged += 1
            if self._pinged > 2:  # a PINGREQ a keepalive ago and nothing read since (a broker stopped): gone
                p.transport.abort()
                return
        elif not p.read_any or not p.wrote_any:
            p.write(b"\xc0\x00")
            self._pinged = 1
        p.read_any = p.wrote_any = False
        self._timer = p.loop.call_later(self.keepalive / 2, self._tick)

    async def _ask(self, key, packet):
        p = self.proto
        fut = p.waiting[key] = p.loop.create_future()
        p.write(packet)
        try:
            return await asyncio.wait_for(fut, self.timeout)
        except asyncio.TimeoutError:
            p.waiting.pop(key, None)
            p.transport.abort()
            raise aiomqtt.MqttError("no answer from the broker within %s s" % self.timeout) from None

    def _next_pid(self):
        self._pid = self._pid % 0xFFFF + 1
        return self._pid

    async def subscribe(self, topic, qos=0):
        pid = self._next_pid()
        return await self._ask(pid, _packet(0x82, struct.pack("!H", pid) + _str(topic) + bytes((qos,))))

    async def publish(self, topic, payload=b"", qos=0, retain=False):
        self.publish_nowait(topic, payload, qos, retain)

    def publish_nowait(self, topic, payload=b"", qos=0, retain=False):
        """publish, written now: a caller need not wait for its loop's next turn to have it on the socket."""
        if isinstance(payload, str):
            payload = payload.encode()
        t = _str(topic)
        if qos:
            body = t + struct.pack("!H", self._next_pid()) + payload
        else:
            body = t + payload
        if self.proto is None:
            raise aiomqtt.MqttError("not connected")
        self.proto.write(_packet(0x30 | (qos << 1) | (1 if retain else 0), body))


def client(broker, user, password, identifier, ca_file=None, clean=False, timeout=5, keepalive=KEEPALIVE, **kw):
    """protocol.client's signature: a Client to broker (host, port); aiomqtt's other arguments are ignored."""
    return Client(broker, user, password, identifier, ca_file, clean, timeout, keepalive)
