"""The qemu board's start-up, frozen (board.c runs it at every reset): LittleFS on the flash, mounted at /;
a new flash is formatted first, as the rp2 port does."""
import sys
import vfs

import mps2
from flashmap import FS

bdev = mps2.Flash(*FS)
try:
    vfs.mount(vfs.VfsLfs2(bdev, progsize=256), "/")
except OSError:
    vfs.VfsLfs2.mkfs(bdev, progsize=256)
    vfs.mount(vfs.VfsLfs2(bdev, progsize=256), "/")
sys.path.append("/lib")
del sys, vfs, mps2, FS, bdev
