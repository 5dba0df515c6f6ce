"""The ring of flash blocks the log is written in: the device's geometry, block headers and where each
sequence number lies, and the frames a block holds as read back (offset, flags, seq, length, CRC).

The device: readblocks(block, buf, offset), writeblocks(block, buf, offset) (programs, never erases),
ioctl(4) block count, ioctl(5) block size, ioctl(6, block) erase; `dev.prog` (default 16) is the smallest
unit it programs, to which every write is aligned (a Pico's flash programs 256-byte pages).
"""
import json
import struct

from tablectl.crc import crc32
from tablectl.storage.frame import BHDR, F_ENT, FHDR, STREAM, UNIT, Pages, Reader, block_seq, pack_block_header


class Ring:
    def __init__(self, dev):
        self.dev = dev
        self.blocks = dev.ioctl(4, 0)
        self.block_size = dev.ioctl(5, 0)
        self.prog = getattr(dev, "prog", 16)
        if self.blocks < 5 or self.block_size < 1024 or self.block_size % UNIT or UNIT % self.prog:
            raise ValueError("flash: %d blocks of %d bytes, program unit %d: the log needs 5 or more blocks of "
                             "a multiple of %d bytes (1 KB or more), and a unit dividing %d"
                             % (self.blocks, self.block_size, self.prog, UNIT, UNIT))
        self.first = self.align(BHDR)  # where a block's first frame goes
        self._hdr = bytearray(FHDR)
        self._bhdr = bytearray(BHDR)
        self._pages = Pages(self)
        self.erases = 0      # blocks erased since boot
        self.programs = 0    # program operations since boot
        self.head = -1       # the block frames go to (-1: none yet, a fresh log)
        self.bseq = 0        # its sequence number
        self.pos = 0         # where its next frame goes
        self._end = None     # where the block frames() read ends

    def align(self, n):
        p = self.prog
        return (n + p - 1) // p * p

    def usable(self):
        """Bytes of frames a block holds."""
        return self.block_size - self.first

    def program(self, block, data, offset):
        self.programs += 1
        self.dev.writeblocks(block, data, offset)

    def erase(self, block):
        self.dev.ioctl(6, block)
        self.erases += 1

    def start_block(self, block, bseq):
        """Erase nothing; program block's header (the block erased already) and make it the head."""
        h = memoryview(self._pages.buf)[:self.first]  # free between frames
        pack_block_header(h, bseq)
        self.program(block, h, 0)
        self.head, self.bseq, self.pos = block, bseq, self.first

    def _bseq(self, block):
        """The block's sequence number, 0 when its header is not valid (erased, torn or damaged)."""
        h = self._bhdr
        self.dev.readblocks(block, h, 0)
        return block_seq(h)

    def _block_of(self, bseq):
        """Where the ring keeps block sequence number bseq (it may have been reused since)."""
        return (self.head - (self.bseq - bseq)) % self.blocks

    def _ring(self):
        """(block, bseq) from the head backwards, while the headers say the ring is unbroken."""
        for k in range(self.blocks):
            bseq = self.bseq - k
            block = self._block_of(bseq)
            if bseq < 1 or self._bseq(block) != bseq:
                return
            yield block, bseq

    def _erased(self, block, offset):
        """True if the block is erased (0xFF) from offset to its end."""
        buf = self._pages.buf  # free between frames
        while offset < self.block_size:
            mv = memoryview(buf)[:min(len(buf), self.block_size - offset)]
            self.dev.readblocks(block, mv, offset)
            for b in mv:
                if b != 0xFF:
                    return False
            offset += len(mv)
        return True

    def _frames(self, block):
        """Each frame of a block in order: (offset, flags, seq, length, header CRC); where a header is
        damaged, one (offset, None, None, 0, None), then the scan resyncs on the next valid header.
        Ends at erased space: self._end is its offset (None if the block is full or damaged there)."""
        hdr = self._hdr
        size = self.block_size
        off = self.first
        self._end = None
        damaged = False
        while off + FHDR + 4 <= size:
            self.dev.readblocks(block, hdr, off)
            n, flags, _, seq, crc = struct.unpack_from("<HBBII", hdr, 0)
            if crc32(memoryview(hdr)[:8]) == crc and self.align(off + FHDR + n + 4) <= size:
                yield off, flags, seq, n, crc
                damaged = False
                off = self.align(off + FHDR + n + 4)
                continue
            if n == 0xFFFF and flags == 0xFF and seq == 0xFFFFFFFF and crc == 0xFFFFFFFF and not damaged:
                self._end = off
                return
            if not damaged:
                damaged = True
                yield off, None, None, 0, None
            off += self.prog

    def _payload(self, block, off, n, hcrc):
        """The frame's payload decoded, None if its CRC fails or it is not a JSON object."""
        if STREAM and n > UNIT:
            reader = Reader(self.dev, block, off + FHDR, n, hcrc)
            try:
                obj = json.load(reader)
            except (ValueError, UnicodeError):
                return None
            return obj if reader.rest() and isinstance(obj, dict) else None
        raw = bytearray(n + 4)
        self.dev.readblocks(block, raw, off + FHDR)
        if crc32(memoryview(raw)[:n], hcrc) != struct.unpack_from("<I", raw, n)[0]:
            return None
        try:
            obj = json.loads(memoryview(raw)[:n] if STREAM else bytes(raw[:n]))
        except (ValueError, UnicodeError):
            return None
        return obj if isinstance(obj, dict) else None

    def payloads(self):
        """Every frame of the ring, oldest first, as (flags, payload): payload None where the frame is damaged
        (flags None too where its header is). One frame at a time: what a long read needs of the heap."""
        if self.head < 0:
            return
        oldest = self.bseq
        for block, bseq in self._ring():
            oldest = bseq
        for bseq in range(oldest, self.bseq + 1):
            block = self._block_of(bseq)
            if self._bseq(block) != bseq:
                yield None, None
                continue
            for off, flags, seq, size, crc in self._frames(block):
                yield flags, (self._payload(block, off, size, crc) if crc is not None else None)

    def entries(self, n):
        """([the last n journal entries in the ring, oldest first], damaged frames met on the way)."""
        out = []
        damaged = 0
        if n <= 0 or self.head < 0:
            return out, 0
        for block, bseq in self._ring():  # newest block first; within one, oldest entry first
            found = []
            for off, flags, seq, size, crc in self._frames(block):
                obj = self._payload(block, off, size, crc) if crc is not None and flags & F_ENT else None
                if obj is None:
                    if crc is None or flags & F_ENT:
                        damaged += 1
                    continue
                found.extend(obj.get("j", ()))
            out = found[len(found) - min(len(found), n - len(out)):] + out  # only what the n still need
            if len(out) >= n:
                break
        return out, damaged
