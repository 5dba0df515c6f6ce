"""The simulator's host link follows a board through a reset: a board on a serial line (the qemu board's UART1) keeps its
connection across machine.reset(), so it says `boot` as it comes up, and the host answers as it does a board that
has just connected: "sync", then the table's inputs (the chips, the cover, the key switch) as they are."""
import socket
import time

from sim.hostlink_server import HostLinkServer


def lines(sock, n, timeout=5):
    got = b""
    deadline = time.monotonic() + timeout
    while got.count(b"\n") < n:
        assert time.monotonic() < deadline, got
        got += sock.recv(1024)
    return got.decode().splitlines()


def test_a_board_that_says_boot_gets_sync_and_the_tables_inputs_again():
    server = HostLinkServer()
    board = socket.create_connection(server.address, timeout=5)
    try:
        assert lines(board, 1) == ["sync"]
        for line in ("key 1", "seat 3 1", "cover 0"):
            server.send(line)
        assert lines(board, 3) == ["key 1", "seat 3 1", "cover 0"]
        board.sendall(b'{"t": "hello", "game": "fantan"}\n{"t": "out", "service_key": 1}\n')
        deadline = time.monotonic() + 5
        while server.snapshot()[1]["out"].get("service_key") != 1:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        board.sendall(b'{"t": "boot"}\n')  # machine.reset(): the same connection, a board with its pins at rest
        assert lines(board, 4) == ["sync", "cover 0", "key 1", "seat 3 1"]
        board.sendall(b'{"t": "out", "service_key": 1}\n{"t": "bogus"}\nnot json\n')
        assert server.snapshot()[1]["connected"] is True
    finally:
        board.close()
        server.close()
