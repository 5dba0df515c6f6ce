"""tablectl.linkwire.Wire: umqtt.simple reads only MQTT packets that arrived whole, so a call into it never waits on the network."""
# mp-heap: 36K
from tablectl.linkwire import Later, Wire
from mptest import raises

PUBLISH = b"\x30\x0a\x00\x03a/b" + b"hello"        # QoS 0 publish: topic a/b, payload hello
PUBACK = b"\x40\x02\x00\x07"
PINGRESP = b"\xd0\x00"


def test_bytes_arrive_in_pieces_and_only_whole_packets_are_read():
    w = Wire()
    data = PUBLISH + PUBACK
    for i in range(len(data)):
        w.received(data[i:i + 1])
        assert w.ready() == (i + 1 >= len(PUBLISH))
        if i + 1 < len(PUBLISH):
            raises(Later, w.read, 1)
    assert w.whole == len(data)
    assert w.read(2) == PUBLISH[:2]
    assert w.read(len(PUBLISH) - 2) == PUBLISH[2:]
    assert w.read(1) == b"\x40"


def test_a_nonblocking_read_with_nothing_whole_is_none_as_a_socket_says():
    w = Wire()
    w.received(PUBACK[:3])
    w.setblocking(False)
    assert w.read(1) is None
    w.setblocking(True)
    raises(Later, w.read, 1)


def test_skip_passes_over_the_rest_of_a_packet_and_keeps_the_buffer_short():
    w = Wire()
    w.received(PUBACK + PINGRESP)
    end = w.end(w.pos)
    assert end == 4 and w.read(1) == b"\x40"
    w.skip(end)
    assert w.read(2) == PINGRESP
    w.skip(w.end(0) if w.pos == 0 else w.pos)
    assert not w.ready() and len(w.buf) == 0 and w.whole == 0


def test_remaining_length_of_several_bytes():
    w = Wire()
    body = b"\x00\x01t" + b"x" * 200      # 203 bytes: length 0xCB 0x01
    w.received(b"\x30\xcb\x01" + body[:100])
    assert not w.ready()
    w.received(body[100:])
    assert w.ready() and w.whole == 3 + len(body)


def test_a_length_past_four_bytes_is_refused():
    w = Wire()
    raises(OSError, w.received, b"\x30\xff\xff\xff\xff\x01")


def test_what_umqtt_writes_is_kept_in_order_with_its_length():
    w = Wire()
    assert w.write(b"\x10\x00\x00", 2) == 2
    assert w.write(b"abc") == 3
    assert bytes(w.out) == b"\x10\x00abc"


def test_a_refused_subscription_is_told_from_a_granted_one():
    w = Wire()
    w.received(b"\x90\x03\x00\x05\x80" + b"\x90\x03\x00\x06\x01" + PUBACK + b"\x40\x02\x00\x80")
    ends = []
    while w.ready():
        end = w.end(w.pos)
        ends.append(w.refused(end))
        w.skip(end)
    assert ends == [True, False, False, False]  # a PUBACK of packet id 0x80 is no refusal
