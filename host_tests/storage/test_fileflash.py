"""tablectl.hw.fileflash on a region of a larger image (the qemu board's records region, as the host writes a new
board's first configuration into it): reads, programs and erases land inside the region only, and a file too
short for the region is refused before anything is written."""
# mp-heap: 64K
import mptest
from harness.ramblockdev import remove_dir, scratch_dir
from tablectl.hw.fileflash import FileFlash

BLOCK = 4096


def image(path, blocks, fill):
    with open(path, "wb") as f:
        page = bytes([fill]) * 256
        for _ in range(blocks * BLOCK // 256):
            f.write(page)


def read_at(path, at, n):
    with open(path, "rb") as f:
        f.seek(at)
        return f.read(n)


def filled(path, at, n, byte):
    """True if the file's n bytes at `at` all hold `byte` (read a page at a time: the heap is small)."""
    while n > 0:
        if read_at(path, at, min(n, 256)) != bytes([byte]) * min(n, 256):
            return False
        at += 256
        n -= 256
    return True


def test_a_region_reads_programs_and_erases_only_its_own_blocks():
    root = scratch_dir("region")
    try:
        path = root + "/image.bin"
        image(path, 4, 0x5A)
        dev = FileFlash(path, blocks=2, start=BLOCK)
        assert dev.ioctl(4, 0) == 2 and dev.ioctl(5, 0) == BLOCK
        dev.ioctl(6, 1)  # the region's block 1 is the image's block 2
        dev.writeblocks(1, b"\x0f" * 256, 256)
        buf = bytearray(2)
        dev.readblocks(1, buf, 255)
        assert bytes(buf) == b"\xff\x0f"
        assert filled(path, 2 * BLOCK + 256, 256, 0x0F)
        assert filled(path, 2 * BLOCK, 256, 0xFF) and filled(path, 2 * BLOCK + 512, BLOCK - 512, 0xFF)
        for b in (0, 1, 3):  # the blocks around it are untouched
            assert filled(path, b * BLOCK, BLOCK, 0x5A), b
        dev.close()
    finally:
        remove_dir(root)


def test_a_region_past_the_end_of_the_file_is_refused_and_nothing_is_written():
    root = scratch_dir("region_short")
    try:
        path = root + "/image.bin"
        image(path, 2, 0x5A)
        e = mptest.raises(ValueError, FileFlash, path, 2, BLOCK, 256, BLOCK)
        assert "no region of 8192 bytes at 4096" in e
        assert filled(path, 0, 2 * BLOCK, 0x5A)
        mptest.raises(ValueError, FileFlash, root + "/missing.bin", 2, BLOCK, 256, 0)
    finally:
        remove_dir(root)


def test_the_flash_time_is_the_datasheets_for_the_pages_and_blocks_touched():
    root = scratch_dir("timing")
    try:
        dev = FileFlash(root + "/flash.bin", blocks=2)
        assert dev.busy_us() == (0, 0)
        dev.ioctl(6, 0)
        dev.writeblocks(0, b"\x00" * 256, 0)  # one page
        dev.writeblocks(0, b"\x00" * 512, 256)  # two
        dev.writeblocks(0, b"\x00" * 10, 1020)  # ten bytes across a page boundary: two
        dev.writeblocks(1, b"\x00", 4095)  # the last byte: one
        dev.writeblocks(1, b"", 0)  # nothing programmed: none
        assert (dev.pages, dev.erases) == (6, 1)
        # W25Q16JV: tPP 0.4 ms typical, 3 ms at most; tSE 45 ms typical, 400 ms at most
        assert dev.busy_us() == (6 * 400 + 45000, 6 * 3000 + 400000)
        dev.close()
    finally:
        remove_dir(root)
