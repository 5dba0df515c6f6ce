"""rp2.Flash of MicroPython 1.25's rp2 port (ports/rp2/rp2_flash.c) on the unix port: the storage area is the
file FAKEPICO_FLASH (STORAGE bytes), and the constructor takes its arguments by that file's rules exactly:
keyword-only start and len, -1 for either left out; start in [0, STORAGE) and a multiple of 4096, len
positive, a multiple of 4096 and within the area; anything else ValueError with no message. Writes go to
the file unbuffered (a process killed is a power cut); a program only clears bits, as on NOR flash. Nothing here
allocates (the C does not): LittleFS may write from a finaliser, with the heap locked."""
import os

BLOCK = 4096
STORAGE = int(os.getenv("FAKEPICO_STORAGE") or 1408 * 1024)  # RPI_PICO's MICROPY_HW_FLASH_STORAGE_BYTES
PAGE = 256
_file = open(os.getenv("FAKEPICO_FLASH"), "r+b")  # kept open: / is remounted after this import
_page = bytearray(PAGE)
_erased = b"\xff" * PAGE


class Flash:
    def __init__(self, *, start=-1, len=-1):
        if start == -1 and len == -1:
            start, len = 0, STORAGE
        if start == -1:
            start = 0
        elif not (0 <= start < STORAGE and start % BLOCK == 0):
            raise ValueError
        if len == -1:
            len = STORAGE - start
        elif not (0 < len and start + len <= STORAGE and len % BLOCK == 0):
            raise ValueError
        self.base = start
        self.size = len

    def _at(self, block, offset, n):
        at = block * BLOCK + offset
        if at < 0 or at + n > self.size:  # the C reads and programs past the object's end: a test must not
            raise OSError(5)
        return self.base + at

    def readblocks(self, block, buf, offset=0):
        _file.seek(self._at(block, offset, len(buf)))
        _file.readinto(buf)

    def writeblocks(self, block, buf, offset=None):
        if offset is None:  # three arguments: erase the blocks first (flash_range_erase, whole sectors)
            if len(buf) % BLOCK:
                raise ValueError
            for b in range(len(buf) // BLOCK):
                self.ioctl(6, block + b)
            offset = 0
        if len(buf) % PAGE:  # whole pages: what LittleFS (progsize 256) and the log program
            raise ValueError
        at = self._at(block, offset, len(buf))
        for i in range(0, len(buf), PAGE):
            _file.seek(at + i)
            _file.readinto(_page)
            for k in range(PAGE):
                _page[k] &= buf[i + k]
            _file.seek(at + i)
            _file.write(_page)
        _file.flush()

    def ioctl(self, op, arg):
        if op in (1, 2, 3):
            return 0
        if op == 4:
            return self.size // BLOCK
        if op == 5:
            return BLOCK
        if op == 6:
            _file.seek(self._at(arg, 0, BLOCK))
            for _ in range(BLOCK // PAGE):
                _file.write(_erased)
            _file.flush()
            return 0
        return None
