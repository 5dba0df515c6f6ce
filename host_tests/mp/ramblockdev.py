"""Storage test fixtures: a RAM block device for vfs.VfsLfs2 that can cut the power mid-write, and scratch folders.

    dev = RamBlockDev(block_size=4096, blocks=16)   # the Pico's erase block
    mount_fresh(dev, '/ram', progsize=256)  # format LittleFS and mount it at /ram (as the Pico does)
    dev.cut_after(5)                 # the 5th block write/erase from now stops half done: PowerCut
    try: code_under_test()           # raises PowerCut, or an OSError from LittleFS unwinding
    except (PowerCut, OSError): pass
    assert not dev.powered           # ...and the cut really happened
    dev = remount(dev, '/ram')       # boot: the flash behind a new device object, mounted again
    image = dev.snapshot(); dev.restore(image)   # rewind the flash (snapshot(into=buf) reuses buf)

The device behaves like NOR flash: an erase sets a block to 0xFF and a program can only clear bits
(new = old & data), so a filesystem that programs without erasing is caught. `ops` counts block
programs and erases since creation (the power-cut tests enumerate them). After the cut nothing
reaches the flash (the CPU is dead on a board): later programs are dropped, and the old device
object stays dead even when a file of the old mount is finalised by the gc later (MicroPython
prints those files' close errors, e.g. "OSError: 28", on stderr: expected). Only the extended
block protocol (offsets) is implemented, which is what LittleFS uses.
Use blocks of 1024 bytes or more: with 256 or 512 byte blocks, MicroPython 1.29's LittleFS was seen
to lose another file of the folder (the journal) on a cut during a record save (write + rename).
On CPython there is no vfs: need_vfs() skips a test there (pytest.skip, or mptest.Skip on the board).
scratch_dir() gives an empty folder on the host filesystem (CPython and the unix port alike).
"""
import os

try:
    import vfs
except ImportError:
    vfs = None


class PowerCut(Exception):
    """The power failed during a block write."""


def skip(why):
    try:
        import pytest
    except ImportError:
        import mptest
        raise mptest.Skip(why)
    pytest.skip(why)


def need_vfs():
    if vfs is None or not hasattr(vfs, "VfsLfs2"):
        skip("no vfs.VfsLfs2 here (CPython): the LittleFS tests run on the MicroPython unix port")


class RamBlockDev:
    """RAM flash: readblocks/writeblocks(block, buf, offset)/ioctl; cut_after(n) for power-cut tests."""

    def __init__(self, block_size=256, blocks=96, data=None):
        self.block_size = block_size
        self.blocks = blocks
        if data is None:
            data = bytearray(block_size * blocks)
            for i in range(len(data)):  # erased flash, without a temporary copy in the heap
                data[i] = 0xFF
        self.data = data
        self.lfs_options = {}
        self.ops = 0
        self._cut = 0  # ops left before the cut; 0 = no cut planned
        self._done = None  # bytes of the cut operation that reach the flash (None: half)
        self.powered = True

    def cut_after(self, n, done=None):
        """The n-th program/erase from now (n >= 1) is interrupted with `done` of its bytes done
        (default half; 0: the cut comes just before it, len: just after it)."""
        if n < 1:
            raise ValueError("n >= 1")
        self._cut = n
        self._done = done

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
        if cut:
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
            if cut:
                raise PowerCut("power cut while erasing block %d" % arg)
            return 0
        return 0  # 1 init, 2 deinit, 3 sync: nothing to do in RAM

    def reboot(self):
        """The same flash behind a new device object, powered. The old object stays dead for good:
        a file of the old mount finalised later by the gc can never reach the flash again."""
        dev = RamBlockDev(self.block_size, self.blocks, self.data)
        dev.ops = self.ops
        dev.lfs_options = self.lfs_options
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


def mount_fresh(dev, path, **lfs_options):
    """Format LittleFS v2 on dev and mount it at path; lfs_options (readsize, progsize, lookahead)
    go to VfsLfs2 now and at every remount (the Pico's MicroPython mounts with progsize=256)."""
    need_vfs()
    dev.lfs_options = lfs_options
    vfs.VfsLfs2.mkfs(dev, **lfs_options)
    vfs.mount(vfs.VfsLfs2(dev, **lfs_options), path)


def unmount(path):
    try:
        vfs.umount(path)
    except OSError:
        pass


def remount(dev, path):
    """Boot: drop the old mount for good (its device object is dead: a file it left open, finalised
    later by the gc, cannot write), then mount what the flash holds. Returns the new device."""
    import gc
    unmount(path)
    new = dev.reboot()
    gc.collect()
    vfs.mount(vfs.VfsLfs2(new, **new.lfs_options), path)
    return new


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
