"""Storage test fixtures: a RAM flash that can cut the power mid-write (for the flash log), frame surgery on
the flash log, and scratch folders.

    dev = RamBlockDev(block_size=4096, blocks=16, prog=256)   # the Pico's erase block and page
    dev.cut_after(5)                 # the 5th block write/erase from now stops half done: PowerCut
    try: code_under_test()           # raises PowerCut
    except PowerCut: pass
    assert not dev.powered           # ...and the cut really happened
    dev = dev.reboot()               # boot: the same flash behind a new device object
    image = dev.snapshot(); dev.restore(image)   # rewind the flash (snapshot(into=buf) reuses buf)

The device behaves like NOR flash: an erase sets a block to 0xFF and a program can only clear bits
(new = old & data), so code that programs without erasing is caught. `ops` counts block programs and
erases since creation (the power-cut tests enumerate them), `erases` and `programs` each kind. After the cut nothing
reaches the flash (the CPU is dead on a board): later programs are dropped, and the old device
object stays dead after reboot(). Only the extended block protocol (offsets) is implemented, which is
what the flash log uses.
skip(why) skips a test on CPython and on the board alike (pytest.skip, or mptest.Skip on the board).
scratch_dir() gives an empty folder on the host filesystem (CPython and the unix port alike).
"""
import os


class PowerCut(Exception):
    """The power failed during a block write."""


def skip(why):
    try:
        import pytest
    except ImportError:
        import mptest
        raise mptest.Skip(why)
    pytest.skip(why)


class RamBlockDev:
    """RAM flash: readblocks/writeblocks(block, buf, offset)/ioctl; cut_after(n) for power-cut tests."""

    def __init__(self, block_size=4096, blocks=8, data=None, prog=16):
        self.block_size = block_size
        self.blocks = blocks
        self.prog = prog  # the program unit the flash log aligns its writes to (a Pico's: 256)
        if data is None:
            data = bytearray(block_size * blocks)
            for i in range(len(data)):  # erased flash, without a temporary copy in the heap
                data[i] = 0xFF
        self.data = data
        self.ops = 0
        self.erases = 0
        self.programs = 0
        self._cut = 0  # ops left before the cut; 0 = no cut planned
        self._done = None  # bytes of the cut operation that reach the flash (None: half)
        self._noise = 0  # the cut leaves the rest of the operation's bytes as noise, from this seed
        self.powered = True

    def cut_after(self, n, done=None, noise=0):
        """The n-th program/erase from now (n >= 1) is interrupted with `done` of its bytes done
        (default half; 0: the cut comes just before it, len: just after it); with noise (a seed), the
        bytes after those are left random, as a flash cell interrupted mid-program or mid-erase may be."""
        if n < 1:
            raise ValueError("n >= 1")
        self._cut = n
        self._done = done
        self._noise = noise

    def _scribble(self, start, end):
        """Noise over data[start:end] (an LCG: the same noise for the same seed)."""
        x = self._noise
        data = self.data
        for i in range(start, end):
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            data[i] = (x >> 16) & 0xFF

    def _op(self):
        """Count one program/erase; True if this one is to be cut half way, None if the power is off
        (what the code under test still tries after the cut, e.g. closing files, never arrives)."""
        if not self.powered:
            return None
        self.ops += 1
        if self._cut:
            self._cut -= 1
            if self._cut == 0:
                self.powered = False
                return True
        return False

    def _part(self, size):
        done = size // 2 if self._done is None else self._done
        return done if done < size else size

    def readblocks(self, block, buf, offset=0):
        start = block * self.block_size + offset
        if self.powered:
            buf[:] = self.data[start:start + len(buf)]
        else:  # a file left open by the cut, finalised by the gc with the heap locked: no slice
            data = self.data
            for i in range(len(buf)):
                buf[i] = data[start + i]

    def writeblocks(self, block, buf, offset=None):
        start = block * self.block_size + (offset or 0)
        cut = self._op()
        if cut is None:
            return
        n = self._part(len(buf)) if cut else len(buf)
        data = self.data
        for i in range(n):
            data[start + i] &= buf[i]  # NOR flash: a program only clears bits
        self.programs += 1
        if cut:
            if self._noise:
                self._scribble(start + n, start + len(buf))
            raise PowerCut("power cut while writing block %d" % block)

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return self.blocks
        if op == 5:  # block size
            return self.block_size
        if op == 6:  # erase block arg
            cut = self._op()
            if cut is None:
                return 0
            start = arg * self.block_size
            n = self._part(self.block_size) if cut else self.block_size
            for i in range(start, start + n):
                self.data[i] = 0xFF
            self.erases += 1
            if cut:
                if self._noise:
                    self._scribble(start + n, start + self.block_size)
                raise PowerCut("power cut while erasing block %d" % arg)
            return 0
        return 0  # 1 init, 2 deinit, 3 sync: nothing to do in RAM

    def cut_during(self, n, step):
        """step() with its n-th program/erase from now cut (as cut_after), then the same flash booted again:
        the device a board finds after that brown-out."""
        self.cut_after(n)
        try:
            step()
        except PowerCut:
            pass
        return self.reboot()

    def reboot(self):
        """The same flash behind a new device object, powered. The old object stays dead for good:
        whatever still holds it can never reach the flash again."""
        dev = RamBlockDev(self.block_size, self.blocks, self.data, self.prog)
        dev.ops = self.ops
        self.powered = False
        return dev

    def snapshot(self, into=None):
        """A copy of the flash; into=a bytearray of the same size is reused (no heap churn)."""
        if into is None:
            return bytearray(self.data)
        into[:] = self.data
        return into

    def restore(self, image):
        self.data[:] = image


def _rmtree(path):
    for entry in os.listdir(path):
        full = path + "/" + entry
        try:
            os.remove(full)
        except OSError:
            _rmtree(full)
    os.rmdir(path)


def scratch_dir(tag="st"):
    """An empty folder under /tmp (removed first if a previous run left it)."""
    name = "/tmp/tablectl_%s_%s" % (tag, "".join("%02x" % b for b in os.urandom(4)))
    try:
        _rmtree(name)
    except OSError:
        pass
    os.mkdir(name)
    return name


def remove_dir(path):
    try:
        _rmtree(path)
    except OSError:
        pass


# -- the flash log, frame by frame (what a test damages to see what the firmware makes of it) --------------
def log_frames(dev, payloads=True):
    """Every frame of the table's log on `dev`, oldest first: (block, offset, flags, seq, length, payload);
    payload None where the CRC fails (or not asked for), flags/seq None where the header is damaged too."""
    from tablectl.storage import Log
    log = Log(dev)
    out = []
    if log.head < 0:
        return out
    ring = list(log._ring())
    ring.reverse()
    for block, bseq in ring:
        for off, flags, seq, n, crc in log._frames(block):
            obj = log._payload(block, off, n, crc) if crc is not None and payloads else None
            out.append((block, off, flags, seq, n, obj))
    return out


def _poke(dev, start, raw):
    """Bytes `raw` onto the flash at byte `start`, past writeblocks: a program could only clear bits."""
    if hasattr(dev, "data"):  # RAM flash
        dev.data[start:start + len(raw)] = raw
    else:  # a file
        with open(dev.path, "r+b") as f:
            f.seek(start)
            f.write(raw)


def flip(dev, block, offset, mask=0xFF):
    """XOR one byte of the flash (a bit flip, or a whole byte) where no write of the firmware would put it."""
    buf = bytearray(1)
    dev.readblocks(block, buf, offset)
    buf[0] ^= mask
    _poke(dev, block * dev.block_size + offset, buf)


def touches(obj, name):
    """True if a log payload sets, patches or removes record `name`."""
    return obj is not None and (name in obj.get("r", {}) or name in obj.get("p", {}) or name in obj.get("d", []))


def damage_record(dev, name):
    """Flip a byte in the payload of the newest frame that writes record `name`; returns its seq. (It reads
    the ring from its newest block back and stops at the first that has one: little heap on the port.)"""
    from tablectl.storage import Log
    log = Log(dev)
    for block, bseq in log._ring():
        hit = None
        for off, flags, seq, n, crc in log._frames(block):
            if crc is not None and touches(log._payload(block, off, n, crc), name):
                hit = (off, seq, n)
        if hit is not None:
            off, seq, n = hit
            flip(dev, block, off + 12 + n // 2)
            return seq
    raise AssertionError("no frame writes record %r" % name)


def flash_file(root, blocks=16):
    """A test table's flash: a file in folder `root` (64 KB by default: a few hundred rounds before the ring
    wraps), as the sim board keeps it."""
    from tablectl.hw.fileflash import FileFlash
    return FileFlash(root + "/flash.bin", blocks=blocks)


def rewrite_payload(dev, block, off, edit):
    """What someone who knows the format could do to a frame: replace its payload by edit(payload bytes)
    (same length) and make its CRC right again. Returns the new payload."""
    import struct
    from tablectl.crc import crc32
    hdr = bytearray(12)
    dev.readblocks(block, hdr, off)
    n, hcrc = struct.unpack_from("<H", hdr, 0)[0], struct.unpack_from("<I", hdr, 8)[0]
    old = bytearray(n)
    dev.readblocks(block, old, off + 12)
    new = bytes(edit(bytes(old)))
    if len(new) != n:
        raise ValueError("the edit must keep the payload's length (%d, got %d)" % (n, len(new)))
    raw = new + struct.pack("<I", crc32(new, hcrc))
    _poke(dev, block * dev.block_size + off + 12, raw)
    return new
