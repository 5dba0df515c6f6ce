"""The qemu board's flash file seen from the host, on the MicroPython unix port: a block device over a region
of the file with mps2.Flash's protocol (boards/qemu/flash.c), so the host can put files and a first
configuration on a new board's LittleFS before it boots, as a factory would.

    import hostflash
    hostflash.mount(path, start, size, "/flash")   # formatted first if it holds no LittleFS
"""
import vfs

BLOCK = 4096


class FileFlash:
    def __init__(self, path, start, size):
        self.f = open(path, "r+b")
        self.start = start
        self.blocks = size // BLOCK

    def _seek(self, n, offset):
        self.f.seek(self.start + n * BLOCK + offset)

    def readblocks(self, n, buf, offset=0):
        self._seek(n, offset)
        self.f.readinto(buf)

    def writeblocks(self, n, buf, offset=None):
        if offset is None:  # erase, then program, as the board's Flash does
            offset = 0
            for b in range(n, n + (len(buf) + BLOCK - 1) // BLOCK):
                self.ioctl(6, b)
        old = bytearray(len(buf))
        self.readblocks(n, old, offset)
        for i in range(len(buf)):
            old[i] &= buf[i]  # NOR flash: programming only clears bits
        self._seek(n, offset)
        self.f.write(old)

    def ioctl(self, op, arg):
        if op == 4:
            return self.blocks
        if op == 5:
            return BLOCK
        if op == 6:
            self._seek(arg, 0)
            self.f.write(b"\xff" * BLOCK)
            return 0
        if op == 3:
            self.f.flush()
        return 0


def mount(path, start, size, at):
    dev = FileFlash(path, start, size)
    try:
        fs = vfs.VfsLfs2(dev, progsize=256)
    except OSError:
        vfs.VfsLfs2.mkfs(dev, progsize=256)  # as boards/qemu/_boot.py formats a new flash
        fs = vfs.VfsLfs2(dev, progsize=256)
    vfs.mount(fs, at)
    return dev
