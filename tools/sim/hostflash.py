"""The qemu board's flash file seen from the host, on the MicroPython unix port: its regions (boards/qemu/flashmap.py)
as the firmware's FileFlash, a block device with mps2.Flash's protocol and program unit (boards/qemu/flash.c), so
the host can put files and a first configuration on a new board before it boots, as a factory would.

    import hostflash
    hostflash.mount(path, start, size, "/flash")   # the LittleFS region, formatted first if it holds none
    hostflash.region(path, start, size)            # the records region: Log(hostflash.region(...)) as board.flash
"""
import vfs

from tablectl.hw.fileflash import FileFlash

BLOCK = 4096
PROG = 256  # mps2.Flash's program unit (flash.c)


def region(path, start, size):
    return FileFlash(path, blocks=size // BLOCK, block_size=BLOCK, prog=PROG, start=start)


def mount(path, start, size, at):
    # mtime=False: the files get no time stamp, where the host's clock would put 8 bytes that differ on every
    # new flash, and with them the heap and the instruction counts of the board that reads them
    dev = region(path, start, size)
    try:
        fs = vfs.VfsLfs2(dev, progsize=PROG, mtime=False)
    except OSError:
        vfs.VfsLfs2.mkfs(dev, progsize=PROG)  # as boards/qemu/_boot.py formats a new flash
        fs = vfs.VfsLfs2(dev, progsize=PROG, mtime=False)
    vfs.mount(fs, at)
    return dev
