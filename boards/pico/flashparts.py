"""The Pico's storage area (rp2.Flash()) in two: LittleFS over its first part, the flash log's raw region over
its last LOG_BYTES. The build's frozen _boot.py mounts / with mount(); `layout` then says what it found.
The factory step (tools/boardops/partition.py, docs/technicians.md) calls repartition(), put() and erase() over mpremote;
the host imports canon() and summary() too (rp2 and vfs are imported where they are used)."""
LOG_BYTES = 1 << 20  # boards/pico/board.py's region (the same figure: a test holds them equal)
MIN_FS_BYTES = 128 * 1024  # a storage area smaller than the region and this keeps its whole filesystem
PROG = 256  # a Pico's flash programs 256-byte pages
layout = None  # mount(): 'partitioned', 'whole' (an un-partitioned board's filesystem, kept) or 'formatted'


def storage_bytes():
    import rp2
    whole = rp2.Flash()
    return whole.ioctl(4, 0) * whole.ioctl(5, 0)


def fs_device():
    """rp2.Flash over the filesystem's part, None when the storage area is too small to split."""
    import rp2
    size = storage_bytes()
    return rp2.Flash(start=0, len=size - LOG_BYTES) if size - LOG_BYTES >= MIN_FS_BYTES else None


def log_device():
    import rp2
    size = storage_bytes()
    return rp2.Flash(start=size - LOG_BYTES, len=LOG_BYTES)


def mount():
    """Mount LittleFS at /: the partition's; else an un-partitioned board's over the whole area (kept, its
    records in the file fallback, until the factory step); else a new one on the partition. A filesystem that
    mounts is never formatted (LittleFS refuses a superblock whose block count is not the device's, so
    neither mount takes the other's filesystem)."""
    global layout
    import rp2
    import vfs
    part = fs_device()
    for dev, found in ((part, "partitioned"), (rp2.Flash(), "whole")):
        if dev is None:
            continue
        try:
            fs = vfs.VfsLfs2(dev, progsize=PROG)
        except OSError:
            continue
        layout = found
        break
    else:
        dev = part or rp2.Flash()
        vfs.VfsLfs2.mkfs(dev, progsize=PROG)
        fs = vfs.VfsLfs2(dev, progsize=PROG)
        layout = "formatted" if part else "whole"
    vfs.mount(fs, "/")


def repartition(marker="deploying"):
    """The factory step's one destructive act: / becomes a new filesystem on the partition, holding only
    `marker` (main.py starts nothing while it exists). The caller has every file saved."""
    global layout
    import vfs
    part = fs_device()
    if part is None:
        raise ValueError("the storage area (%d bytes) is too small for a %d-byte log region" % (storage_bytes(), LOG_BYTES))
    vfs.umount("/")
    vfs.VfsLfs2.mkfs(part, progsize=PROG)
    vfs.mount(vfs.VfsLfs2(part, progsize=PROG), "/")
    with open("/" + marker, "wb"):
        pass
    layout = "partitioned"


def put(block, data):
    """One block of the log region erased, and data (its first bytes, whole pages) programmed."""
    dev = log_device()
    dev.ioctl(6, block)
    if data:
        dev.writeblocks(block, data, 0)


def erase(blocks):
    dev = log_device()
    for b in blocks:
        dev.ioctl(6, b)


def canon(obj):
    """obj as one text whatever the dicts' order (MicroPython's json has no sort_keys)."""
    import json
    if isinstance(obj, dict):
        return "{" + ",".join(json.dumps(k) + ":" + canon(obj[k]) for k in sorted(obj)) + "}"
    if isinstance(obj, (list, tuple)):
        return "[" + ",".join(canon(v) for v in obj) + "]"
    return json.dumps(obj)


def summary(dev, entries=40):
    """What the App boots from the log on dev: the log's problem, its records and its last journal entries."""
    from tablectl.storage import Log
    log = Log(dev)
    return canon([log.problem, {n: log.get(n) for n in log.names()}, log.entries(entries)])
