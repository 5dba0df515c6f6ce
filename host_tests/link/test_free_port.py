"""The ports the rig gives its servers are outside the kernel's ephemeral range, where no outgoing connection
of a parallel test can take one between the choice and the bind (a server's EADDRINUSE under load)."""
import socket

from jackpot.broker import ephemeral_ports, free_port


def test_a_free_port_is_below_the_ephemeral_range_and_bindable():
    low, high = ephemeral_ports()
    ports = {free_port() for _ in range(50)}
    assert all(p < low for p in ports) and len(ports) > 40  # random, not one port handed to every caller
    for port in ports:
        with socket.socket() as s:
            s.bind(("127.0.0.1", port))


def test_a_port_in_use_is_never_given():
    taken = []
    try:
        for _ in range(200):
            s = socket.socket()
            s.bind(("127.0.0.1", free_port()))
            s.listen()
            taken.append(s)
        ports = {s.getsockname()[1] for s in taken}
        assert len(ports) == 200  # each call found a port no listener holds
    finally:
        for s in taken:
            s.close()
