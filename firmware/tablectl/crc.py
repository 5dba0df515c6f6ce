"""CRC-32 (IEEE 802.3, as zlib and binascii compute it) for the flash log, the manifest check and confirmation codes."""
try:
    from binascii import crc32 as _crc32
except ImportError:  # some ports build binascii without crc32
    _crc32 = None

_TABLE = None


def _table():
    global _TABLE
    if _TABLE is None:
        t = []
        for n in range(256):
            c = n
            for _ in range(8):
                c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
            t.append(c)
        _TABLE = t
    return _TABLE


def crc32_table(data, crc=0):
    """CRC-32 from a 256-entry table: the fallback where binascii lacks it."""
    t = _table()
    crc ^= 0xFFFFFFFF
    for byte in data:
        crc = t[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def crc32(data, crc=0):
    """CRC-32 of bytes `data`, continuing from `crc`; always a non-negative int."""
    if _crc32 is not None:
        return _crc32(data, crc) & 0xFFFFFFFF
    return crc32_table(data, crc)
