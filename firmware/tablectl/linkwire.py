"""The table's MQTT connection: micropython-lib's umqtt.simple driven by an asyncio task, so that no call waits on the network.

    conn = Connection(host, port, client_id, user, password, ssl_context, on_message)
    await conn.open(timeout_ms)          # TCP (or TLS), CONNECT, CONNACK; OSError when refused or late
    conn.subscribe(topic)                # QoS 1
    conn.publish(topic, payload, qos)
    await conn.receive(ms)               # what came within ms: every whole packet to umqtt (on_message)
    await conn.flush(ms)                 # what umqtt wrote, onto the network; OSError if it cannot go
    conn.close()
umqtt writes into a Wire and reads only packets that arrived whole (Later: the rest comes later); why, and
what this adds to umqtt (framing, the CONNACK and SUBACK checks): docs/link.md, "Why umqtt.simple".
"""
import asyncio

_CONNACK = 0x20


def _umqtt():
    from umqtt import simple  # imported with the first connection: the Wire alone is tested without it
    return simple


class Later(Exception):
    """umqtt asked for bytes that have not arrived whole."""


class Wire:
    """The socket umqtt.simple reads and writes: bytes to send, and the bytes received, handed out by whole packets."""

    def __init__(self):
        self.buf = bytearray()  # received
        self.pos = 0            # next byte umqtt reads
        self.whole = 0          # end of the last packet received whole
        self.out = bytearray()  # written by umqtt, not sent yet
        self.blocking = True

    # -- what umqtt calls (a socket's methods) -------------------------------------------------------
    def write(self, data, n=-1):
        if n < 0:
            n = len(data)
        self.out.extend(memoryview(data)[:n])
        return n

    def read(self, n):
        if self.pos + n > self.whole:
            if not self.blocking:  # check_msg(): nothing there is its ordinary answer
                return None
            raise Later()
        data = bytes(memoryview(self.buf)[self.pos:self.pos + n])
        self.pos += n
        return data

    def setblocking(self, flag):
        self.blocking = flag

    def settimeout(self, t):
        pass

    def connect(self, addr):
        pass

    def close(self):
        pass

    # -- the task's side ---------------------------------------------------------------------------------
    def received(self, data):
        self.buf.extend(data)
        while True:
            end = self.end(self.whole)
            if end < 0:
                break
            self.whole = end

    def end(self, at):
        """Where the packet starting at `at` ends, or -1 if it has not arrived whole (MQTT's fixed header:
        a type byte, then the remaining length in 1-4 bytes of 7 bits, low first)."""
        buf = self.buf
        n = 0
        shift = 0
        i = at + 1
        while i < len(buf):
            b = buf[i]
            n |= (b & 0x7F) << shift
            i += 1
            if not b & 0x80:
                return i + n if i + n <= len(buf) else -1
            shift += 7
            if shift > 21:
                raise OSError("bad MQTT packet length")
        return -1

    def ready(self):
        """A packet has arrived whole and umqtt has not read it yet."""
        return self.pos < self.whole

    def refused(self, end):
        """The packet at pos (ending at `end`) is a SUBACK refusing a subscription (return code 0x80): a nats
        node whose JetStream has no leaders yet takes the login and refuses the QoS 1 subscription; a table
        that passed over it would wait, deaf, for answers that never come."""
        return self.buf[self.pos] & 0xF0 == 0x90 and self.buf[end - 1] == 0x80  # one topic a SUBSCRIBE

    def skip(self, end):
        """Past the packet umqtt started (it reads an acknowledgement's type and leaves the rest); keeps the
        buffer short."""
        self.pos = end
        if self.pos >= 512 or self.pos == len(self.buf):
            self.buf = self.buf[self.pos:]
            self.whole -= self.pos
            self.pos = 0


class _Sockets:
    """What umqtt's connect() takes for the socket module while it runs: the connection's Wire."""

    def __init__(self, wire):
        self.wire = wire

    def socket(self, *args):
        return self.wire

    def getaddrinfo(self, host, port, *args):
        return [(0, 0, 0, "", (host, port))]


KEEPALIVE_S = 30  # umqtt sends no PINGREQ: the table's own heartbeats keep it (tablectl.link.KEEP_MS below 1.5 of it)


class Connection:
    def __init__(self, host, port, client_id, user, password, ssl_context, on_message, keepalive=KEEPALIVE_S):
        self.host = host
        self.port = port
        self.ssl = ssl_context
        self.wire = Wire()
        self.umqtt = _umqtt()
        self.client = self.umqtt.MQTTClient(client_id, host, port, user, password, keepalive)
        self.client.set_callback(on_message)
        self.stream = None

    async def open(self, timeout_ms):
        if self.ssl is None:
            opening = asyncio.open_connection(self.host, self.port)
        else:
            opening = asyncio.open_connection(self.host, self.port, ssl=self.ssl)
        try:
            self.stream = (await asyncio.wait_for_ms(opening, timeout_ms))[1]
        except asyncio.TimeoutError:
            raise OSError("no connection to %s:%d within %d ms" % (self.host, self.port, timeout_ms))
        try:  # small packets go at once (Nagle's algorithm would hold a lock behind an unanswered heartbeat)
            self.stream.s.setsockopt(6, 1, 1)  # IPPROTO_TCP, TCP_NODELAY
        except (AttributeError, OSError, TypeError):
            pass  # a TLS socket, or a port without the option: slower, not wrong
        umqtt = self.umqtt
        saved = umqtt.socket
        umqtt.socket = _Sockets(self.wire)
        try:
            # clean_session False: the broker keeps what the server answers while this table is away
            self.client.connect(False)
        except Later:
            pass  # CONNECT is written; CONNACK comes later
        finally:
            umqtt.socket = saved
        await self.flush(timeout_ms)
        while not self.wire.ready():
            await self.receive(timeout_ms, False)
            if not self.wire.ready():
                raise OSError("no CONNACK from %s:%d within %d ms" % (self.host, self.port, timeout_ms))
        end = self.wire.end(self.wire.pos)
        ack = self.wire.read(4)
        self.wire.skip(end)
        if ack[0] != _CONNACK or ack[3]:
            raise OSError("broker refused the connection (CONNACK code %d)" % ack[3])

    def _call(self, fn, *args):
        """A umqtt call that would wait for an acknowledgement: the packets already whole go first (umqtt
        reads what comes while it waits, and an acknowledgement it does not expect would break it)."""
        self.deliver()
        try:
            fn(*args)
        except Later:
            pass

    def subscribe(self, topic):
        self._call(self.client.subscribe, topic, 1)

    def publish(self, topic, payload, qos=0):
        self._call(self.client.publish, topic, payload, False, qos)

    def deliver(self):
        """Every whole packet to umqtt: publishes to on_message (umqtt answers QoS 1 with PUBACK); the
        acknowledgements of our own packets are only passed over (the link's answers come from the server)."""
        wire = self.wire
        while wire.ready():
            end = wire.end(wire.pos)
            if wire.refused(end):  # the run's failure: it connects again, to the next node
                raise OSError("the broker refused a subscription")
            self.client.check_msg()
            wire.skip(end)

    async def receive(self, ms, deliver=True):
        try:
            data = await asyncio.wait_for_ms(self.stream.read(512), ms)
        except asyncio.TimeoutError:
            return
        if not data:
            raise OSError("the broker closed the connection")
        self.wire.received(data)
        if deliver:
            self.deliver()

    async def flush(self, ms):
        out = self.wire.out
        if not out:
            return
        self.wire.out = bytearray()
        self.stream.write(out)
        try:
            await asyncio.wait_for_ms(self.stream.drain(), ms)
        except asyncio.TimeoutError:
            raise OSError("the network took nothing for %d ms" % ms)

    def close(self):
        if self.stream is not None:
            try:
                self.stream.close()
            except OSError:
                pass
            self.stream = None
