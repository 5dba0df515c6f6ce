"""A frame of the flash log, as it lies in flash, and the streams that write and read one a page at a time.

    length u16 | flags u8 | 0 | seq u32 | CRC-32 of those 8 bytes | payload: JSON, length bytes | CRC-32

the payload's CRC continuing from the header's. A block's own header: b'TLOG', version, 3 zero bytes, its
sequence number u32, CRC-32 of those 12 bytes. The layout is docs/storage.md's; it never changes without
a new VERSION.
"""
import struct
import sys

from tablectl import const
from tablectl.crc import crc32

MAGIC = b"TLOG"
VERSION = const(1)
BHDR = const(16)
FHDR = const(12)
UNIT = const(256)  # bytes programmed at a time (a multiple of the program unit): a Pico's flash page
CHUNK = const(32)  # bytes a long frame is read in (Reader)
ERASED = b"\xff" * UNIT  # a page as erased flash reads: the padding after a frame

F_REC = const(1)     # sets, patches or removes records
F_ENT = const(2)     # journal entries
F_CKPT = const(4)    # a checkpoint part: one record's full value
F_END = const(8)     # a checkpoint's end
F_ACK = const(16)    # the damage right before it is a torn write, discarded
F_VITAL = const(32)  # writes the record the log watches (Log.watch: the configuration)

# A frame's text is built in one piece by json.dumps (C: the fast way) when the heap has the block; when it
# has not (after hours of play a 64 KB heap may have none as long as a kilobyte), json.dump hands it out in
# pieces, streamed into flash page by page. A MicroPython without io.IOBase cannot take a Python stream.
STREAM = False
if sys.implementation.name == "micropython":
    try:
        from io import IOBase as _Base
        STREAM = True
    except ImportError:
        pass
if not STREAM:
    _Base = object


def pack_header(hdr, n, flags, seq):
    """A frame's 12-byte header into hdr; returns its CRC (where the payload's CRC starts)."""
    struct.pack_into("<HBBI", hdr, 0, n, flags, 0, seq)
    crc = crc32(hdr[:8])
    struct.pack_into("<I", hdr, 8, crc)
    return crc


def pack_block_header(h, bseq):
    """A block's header into h (16 bytes, or more: the rest left erased)."""
    for i in range(len(h)):
        h[i] = 0xFF
    h[0:4] = MAGIC
    h[4] = VERSION
    h[5] = h[6] = h[7] = 0
    struct.pack_into("<I", h, 8, bseq)
    struct.pack_into("<I", h, 12, crc32(memoryview(h)[:12]))


def block_seq(h):
    """The sequence number in a block's 16-byte header, 0 when it is not valid (erased, torn or damaged)."""
    if h[:4] != MAGIC or h[4] != VERSION:
        return 0
    bseq, crc = struct.unpack_from("<II", h, 8)
    return bseq if crc32(memoryview(h)[:12]) == crc else 0


class Pages(_Base):
    """What json.dump writes. First pass: staged in the page buffer after room for the frame's header, and
    counted; a frame that fits the buffer (most: a round's step) is then programmed in one go. Second pass,
    for a longer one: programmed page by page with the payload's CRC-32. The buffer is the log's, allocated
    once; `ring` programs it (align, program)."""

    def __init__(self, ring):
        self.ring = ring
        self.buf = bytearray(UNIT)
        self.counting = True
        self.n = 0
        self.crc = 0
        self.block = 0
        self.offset = 0
        self.fill = 0

    def stage(self):
        """Begin the first pass: `n` counts the payload; `fill` is where it stands in the buffer until it
        no longer fits (then 0: the second pass programs it)."""
        self.counting = True
        self.n = 0
        self.fill = FHDR

    def start(self, block, offset):
        self.counting = False
        self.block = block
        self.offset = offset
        self.fill = 0

    def write(self, data):
        n = len(data)
        if self.counting:
            self.n += n
            fill = self.fill
            if fill and fill + n <= UNIT - 4:  # room for the payload's CRC after it
                self.buf[fill:fill + n] = data
                self.fill = fill + n
            else:
                self.fill = 0
        else:
            self.crc = crc32(data, self.crc)
            self.raw(data)
        return n

    def raw(self, data):
        buf = self.buf
        mv = memoryview(data)
        i, n, size = 0, len(data), len(buf)
        while i < n:
            take = min(n - i, size - self.fill)
            buf[self.fill:self.fill + take] = mv[i:i + take]
            self.fill += take
            i += take
            if self.fill == size:
                self.flush()

    def flush(self):
        """Program what the buffer holds, padded with 0xFF (left erased) to the program unit."""
        if not self.fill:
            return
        size = self.ring.align(self.fill)
        buf = self.buf
        if size > self.fill:  # one copy in C, where a loop a byte took 60k instructions a frame on a Pico
            buf[self.fill:size] = memoryview(ERASED)[:size - self.fill]
        self.ring.program(self.block, memoryview(buf)[:size], self.offset)
        self.offset += size
        self.fill = 0


class Reader(_Base):
    """A long frame's payload as json.load reads it (a character at a time) out of a small buffer, its CRC-32
    taken on the way: reading a checkpoint's part or a baccarat round's entries (over a kilobyte) then needs
    no block of heap as long as the frame, which a heap fragmented by hours of play may not have."""

    def __init__(self, dev, block, off, n, crc):
        self.dev = dev
        self.block = block
        self.off = off  # the next byte to read from flash
        self.left = n   # bytes of the payload not read yet
        self.crc = crc
        self.buf = bytearray(CHUNK)
        self.at = self.fill = 0

    def readinto(self, b):
        if self.at == self.fill:
            if not self.refill():
                return 0
        buf, at = self.buf, self.at
        k = min(len(b), self.fill - at)
        for i in range(k):  # by item: a slice would allocate, and json.load asks for one byte at a time
            b[i] = buf[at + i]
        self.at = at + k
        return k

    def refill(self):
        k = min(self.left, CHUNK)
        if not k:
            return 0
        mv = self.buf if k == CHUNK else memoryview(self.buf)[:k]
        self.dev.readblocks(self.block, mv, self.off)
        self.crc = crc32(mv, self.crc)
        self.off += k
        self.left -= k
        self.at, self.fill = 0, k
        return k

    def rest(self):
        """Read what json.load left (nothing, for a sound frame), then the stored CRC: True if they agree."""
        while self.refill():
            pass
        mv = memoryview(self.buf)[:4]
        self.dev.readblocks(self.block, mv, self.off)
        return struct.unpack_from("<I", mv, 0)[0] == self.crc
