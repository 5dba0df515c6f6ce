"""A flash block device kept in a file: the sim board's flash, and the log's home on a board without a raw region.

    dev = FileFlash('flash.bin', blocks=256, block_size=4096, prog=256)   # created erased (0xFF) if missing
    dev = FileFlash('flash.bin', blocks=64, start=1 << 20)   # a region of a larger flash image (it must exist)
    dev.readblocks(n, buf, offset); dev.writeblocks(n, buf, offset); dev.ioctl(6, n)   # erase block n

The extended block protocol of vfs.AbstractBlockDev, as tablectl.storage uses it. Writes go straight to the
file (no buffering), so a process killed at any moment leaves what a board's flash would hold after a
power cut at that moment. A program only clears bits, as on NOR flash (new = old & data), so code that
programs without erasing first is caught here as it would be on a board. `erases` and `programs`
count the operations since the device was opened, `pages` the program pages they touched, and busy_us()
is the time a Pico's flash chip would have been busy for them (boards/qemu/flash.c has the same model).
"""
import os

# W25Q16JV datasheet, 8.6 AC electrical characteristics, in microseconds (typical, at most): tPP, a page
# program; tSE, a 4 KB sector erase. Counted, never slept: a Pico's CPU is stalled for it (the rp2 port
# programs with interrupts off), and the bench adds it to a key's time.
PAGE_US = (400, 3000)
ERASE_US = (45000, 400000)


class FileFlash:
    def __init__(self, path, blocks=256, block_size=4096, prog=256, start=None):
        self.path = path
        self.start = start or 0  # the region's first byte in the file (None: the file is the device)
        self.blocks = blocks
        self.block_size = block_size
        self.prog = prog
        self.erases = 0
        self.programs = 0
        self.pages = 0
        size = blocks * block_size
        try:
            found = os.stat(path)[6]
        except OSError:
            found = None
        if start is not None:  # a region of another device's image (the qemu board's flash, seen from the host)
            if found is None or found < start + size:
                raise ValueError("%s holds %s bytes: no region of %d bytes at %d" % (path, found, size, start))
        elif found is None:
            with open(path, "wb") as f:
                ones = b"\xff" * 256
                for _ in range(size // 256):
                    f.write(ones)
        elif found != size:
            raise ValueError("%s holds %d bytes, not the %d of %d blocks of %d: another board's flash?"
                             % (path, found, size, blocks, block_size))
        self.f = open(path, "r+b")
        self._buf = bytearray(256)  # one buffer for every operation: a flash chip costs the heap nothing

    def close(self):
        self.f.close()

    def readblocks(self, block, buf, offset=0):
        self.f.seek(self.start + block * self.block_size + offset)
        self.f.readinto(buf)

    def busy_us(self):
        """(typical, at most): microseconds the chip was busy programming and erasing since it was opened."""
        return (self.pages * PAGE_US[0] + self.erases * ERASE_US[0],
                self.pages * PAGE_US[1] + self.erases * ERASE_US[1])

    def writeblocks(self, block, buf, offset=0):
        self.programs += 1
        at = self.start + block * self.block_size + offset
        if len(buf):
            self.pages += (at - self.start + len(buf) - 1) // self.prog - (at - self.start) // self.prog + 1
        old = self._buf
        mv = memoryview(buf)
        f = self.f
        for i in range(0, len(buf), len(old)):  # NOR: a program clears bits, it never sets one
            part = mv[i:i + len(old)]
            chunk = memoryview(old)[:len(part)]
            f.seek(at + i)
            f.readinto(chunk)
            for k in range(len(part)):
                chunk[k] &= part[k]
            f.seek(at + i)
            f.write(chunk)
        f.flush()

    def ioctl(self, op, arg):
        if op == 4:
            return self.blocks
        if op == 5:
            return self.block_size
        if op == 6:
            self.erases += 1
            f = self.f
            f.seek(self.start + arg * self.block_size)
            ones = self._buf
            for i in range(256):
                ones[i] = 0xFF
            for _ in range(self.block_size // 256):
                f.write(ones)
            f.flush()
            return 0
        return 0
