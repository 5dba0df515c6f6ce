"""The sim board's host link under a fragmented heap: a MemoryError costs a message, never the link's status task or the
controller that changed an output (the board's host link ran on, frozen on a stale status, when it did)."""
import asyncio
import importlib.util
import pathlib

PATH = pathlib.Path(__file__).resolve().parent.parent.parent / "boards" / "sim" / "hostlink.py"


def load():
    spec = importlib.util.spec_from_file_location("simlink_under_test", PATH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class Stream:
    def __init__(self):
        self.sent = []

    def write(self, data):
        self.sent.append(data)
        return len(data)


class Board:
    def __init__(self):
        self.listeners = []  # each test's own: the HostLink adds its listener here


def test_the_status_task_outlives_a_memory_error_and_sends_everything_after():
    mod = load()
    mod.STATUS_MS = 0
    link = mod.HostLink(Board(), Stream())
    calls = []

    def status():
        calls.append("status")
        if len(calls) == 1:
            raise MemoryError("memory allocation failed, allocating 929 bytes")

    link.status = status
    link.everything = lambda: calls.append("everything") or setattr(link, "resync", False)

    async def run():
        task = asyncio.ensure_future(mod._status_loop(link))
        while len(calls) < 3 and not task.done():
            await asyncio.sleep(0)
        assert not task.done(), task.exception()  # still serving
        task.cancel()

    asyncio.run(run())
    assert calls[:3] == ["status", "everything", "status"]  # after the refused message, everything again


def test_a_message_the_heap_refuses_marks_a_resync_instead_of_raising():
    mod = load()

    class Full(Stream):
        def write(self, data):
            raise MemoryError

    link = mod.HostLink(Board(), Full())
    link.send({"t": "out", "lamps": "00"})  # must not raise into the controller that changed the lamps
    assert link.resync


def test_a_long_status_goes_out_whole_in_pieces_no_block_as_long_as_itself():
    """json.dumps(msg) + '\\n' and its encode() took three blocks as long as a status (over a kilobyte with its
    results), which a linked table's heap in the sim's 256 KB had not: the page froze on a stale status."""
    import json
    mod = load()

    class Copying(Stream):  # as a socket's write does: the link reuses its buffer
        def write(self, data):
            return Stream.write(self, bytes(data))

    stream = Copying()
    link = mod.HostLink(Board(), stream)
    msg = {"t": "status", "results": [[r, "no hit: %d" % r] for r in range(200)], "state": "betting"}
    link.send(msg)
    data = b"".join(bytes(d) for d in stream.sent)
    assert data.endswith(b"\n") and data.count(b"\n") == 1 and json.loads(data) == msg
    assert len(data) > 4000 and max(len(d) for d in stream.sent) <= 128 and not link.resync


def test_a_short_write_breaks_off_the_line_and_marks_a_resync():
    mod = load()

    class Short(Stream):
        def write(self, data):
            self.sent.append(bytes(data))
            return len(data) - 1 if len(self.sent) == 2 else len(data)

    stream = Short()
    link = mod.HostLink(Board(), stream)
    link.send({"t": "status", "results": list(range(200))})
    assert link.resync and len(stream.sent) == 2  # nothing written after the short piece
    link.resync = False
    link.send({"t": "out", "lamps": "00"})
    assert stream.sent[-1] == b'{"t": "out", "lamps": "00"}\n' and not link.resync  # the next line starts afresh


class Copying(Stream):  # as a socket's write does: the link reuses its buffer
    def write(self, data):
        return Stream.write(self, bytes(data))


def test_the_lamps_go_out_as_one_message_their_hex_a_slice_at_a_time():
    import binascii
    import json

    class Pixels:
        shown = bytearray(range(256)) + bytearray(range(104))  # 120 lamps of RGB

    mod = load()
    board = Board()
    board.neopixel = Pixels()
    stream = Copying()
    mod.HostLink(board, stream).send_lamps()
    data = b"".join(stream.sent)
    assert json.loads(data) == {"t": "out", "lamps": binascii.hexlify(Pixels.shown).decode()}
    assert data.endswith(b"}\n") and max(len(d) for d in stream.sent) <= 128


def test_a_memory_error_in_an_output_change_is_the_links_never_the_controllers():
    """The controller's key changed the lamps; the link's message for it met a full heap: the button task
    that pressed the key ran on (it ended, with the table deaf to its keys, when it did not)."""
    mod = load()
    link = mod.HostLink(Board(), Stream())

    def full():
        raise MemoryError("memory allocation failed, allocating 721 bytes")

    link.hello_if_rewired = full
    link.changed("display")  # must not raise into the board's write
    assert link.resync
