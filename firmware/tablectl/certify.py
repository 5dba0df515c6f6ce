"""The firmware check: every file against the manifest written at deploy, and the rules for stale code deploy shares.

    examine(root=None, feed=None)  # {'ok', 'checked', 'bad', 'missing', 'unlisted', 'shadows', 'board'[, 'romfs']}
    boot_check(root=None)          # '' or 'FIRMWARE CHANGED: ...', the tilt App boots into
    code_places(), stale_files(), hidden_packages(), code_files(): tools/boardops/deploy.py's rules for what to remove
What is checked where (the manifest's folder, ROMFS, unlisted code, shadows): docs/technicians.md, selftest().
"""
import json
import sys

from tablectl.crc import crc32
from tablectl.store import exists, join
from tablectl.valid import is_int

MANIFEST = "fwmanifest.json"
# Deployed as a ROMFS image (make deploy ROMFS=1), the firmware's files are in the image, mounted at the
# manifest's "romfs" folder, but for these: a board runs main.py and boot.py from its filesystem.
ON_FILESYSTEM = ("main.py", "boot.py")


def manifest_root():
    # the working folder first: a board's root, or the folder a simulator's board runs in (where
    # `make deploy BOARD=sim` copies), before the folders the firmware may have been imported from
    for root in ["", "/"] + [p for p in sys.path if p and p != ".frozen"]:
        if exists(join(root, MANIFEST)):
            return root
    raise ValueError("no %s found (on the board it is written at deploy by tools/building/build_mpy.py)" % MANIFEST)


def pieces(path, sink, size=256):
    """Give sink(data) the file's bytes `size` at a time, through one buffer (service.verify reads so too)."""
    buf = bytearray(size)
    mv = memoryview(buf)
    with open(path, "rb") as f:
        while True:
            n = f.readinto(buf)
            if not n:
                return
            sink(mv[:n])


def _crc_file(path):
    crc = [0]

    def add(data):
        crc[0] = crc32(data, crc[0])

    pieces(path, add)
    return crc[0]


def memory(at, n):
    """The n bytes at address `at` without a copy: the frozen image where it runs."""
    try:
        import uctypes
        return uctypes.bytearray_at(at, n)
    except ImportError:  # CPython (the host tests): the same bytes through ctypes
        import ctypes
        return ctypes.string_at(at, n)


def image_region(image):
    """(address, length) of the image the manifest names ({"at", "bytes", ...}); ValueError if it names
    none in integers."""
    at, n = (image.get("at"), image.get("bytes")) if isinstance(image, dict) else (None, None)
    if not is_int(at) or not is_int(n) or at < 0 or n <= 0:
        raise ValueError("%s's image must give its address and length as integers" % MANIFEST)
    return at, n


def image_digest(image, feed=None):
    """The SHA-256 (hex) of the image region the manifest names, as it is in memory now."""
    import hashlib
    from binascii import hexlify
    at, n = image_region(image)
    h = hashlib.sha256()
    mem = memoryview(memory(at, n))
    for i in range(0, n, 1024):
        h.update(mem[i:i + 1024])
        if feed is not None:
            feed()
    return hexlify(h.digest()).decode()


def code_files(root, deep, shallow):
    """The .py/.mpy files (paths from root) in the folders `shallow` and, with every subfolder, `deep`
    ('' is root itself). Self-contained: tools/boardops/deploy.py sends this source to the board to list it."""
    import os
    found = []
    todo = [(d, 1) for d in deep] + [(d, 0) for d in shallow]
    pre = "" if root in ("", ".") else root.rstrip("/") + "/"
    ilistdir = getattr(os, "ilistdir", None)  # MicroPython's: each entry's type without a stat
    while todo:
        folder, down = todo.pop()
        at = pre + folder or "."
        try:
            entries = ilistdir(at) if ilistdir else [(n, 0) for n in os.listdir(at)]
        except OSError:  # a folder the board lacks: its listed files are reported missing
            continue
        for entry in entries:
            name = entry[0]
            path = folder + "/" + name if folder else name
            # type 0: unknown (CPython's listdir, a host filesystem without d_type): ask stat
            if (entry[1] or os.stat(pre + path)[0]) & 0x4000:
                if down:
                    todo.append((path, 1))
            elif name.endswith(".py") or name.endswith(".mpy"):
                found.append(path)
    return found


def code_places(listed):
    """(deep, shallow) for code_files(): the top folders of the listed files are the firmware's, all
    of them (lib/ aside: mip installs aiorepl there); elsewhere (root, lib/) only the folders holding
    listed files, for their .py twins."""
    deep, shallow = [], []
    for path in listed:
        cut = path.rfind("/")
        top = path[:path.find("/")] if cut > 0 else ""
        if top and top != "lib":
            if top not in deep:
                deep.append(top)
        elif path[:max(cut, 0)] not in shallow:
            shallow.append(path[:max(cut, 0)])
    return deep, shallow


def stale_files(listed, present, rom=False):
    """(unlisted, shadows): the code files in the firmware's folders that the manifest does not list,
    and the X.py beside a listed X.mpy (the import takes X.py first); each sorted, each file once.
    With the firmware in ROMFS (rom), a listed file found on the filesystem is a shadow too: the import
    looks in the working folder before /rom."""
    deep = code_places(listed)[0]
    unlisted, shadows = [], []
    for path in sorted(present):
        if path in listed:
            if rom and path not in ON_FILESYSTEM:
                shadows.append(path)
            continue
        if path.endswith(".py") and path[:-3] + ".mpy" in listed:
            shadows.append(path)
        elif "/" in path and path[:path.find("/")] in deep:
            unlisted.append(path)
    return unlisted, shadows


def hidden_packages(hidden, unlisted, shadows):
    """(unlisted, shadows) with the firmware in ROMFS: a folder on the filesystem named like one of its
    packages (`hidden`, those present) hides /rom's package from the import, even empty, so the folder
    is the shadow ('tablectl/') and what it holds goes with it. tools/boardops/deploy.py removes by the same rule."""

    def outside(p):
        return p[:max(p.find("/"), 0)] not in hidden

    return [p for p in unlisted if outside(p)], [d + "/" for d in hidden] + [p for p in shadows if outside(p)]


def examine(root=None, feed=None):
    """The check itself: {'ok', 'checked', 'bad', 'missing', 'unlisted', 'shadows', 'board'[, 'romfs']};
    ValueError when there is no manifest to check against. feed() is called once a file (a watchdog)."""
    if root is None:
        root = manifest_root()
    elif not isinstance(root, str):
        raise ValueError("root must be the folder holding %s, as a str, got %r" % (MANIFEST, root))
    path = join(root, MANIFEST)
    try:
        with open(path) as f:
            manifest = json.load(f)
    except OSError as e:
        raise ValueError("cannot read %s (%s): give the folder the firmware was deployed to" % (path, e))
    except ValueError:
        raise ValueError("%s is not valid JSON: deploy the firmware again" % path)
    files = manifest.get("files") if isinstance(manifest, dict) else None
    if not isinstance(files, dict) or not files:
        raise ValueError("%s lists no files" % MANIFEST)
    rom = manifest.get("romfs")
    if rom is not None and not isinstance(rom, str):
        raise ValueError("%s: romfs must name the folder the image is mounted at" % MANIFEST)
    bad, missing = [], []
    image = manifest.get("image")
    if image is not None and image_digest(image, feed) != image.get("sha256"):
        bad.append("image")  # the frozen image as it runs, against the release's digest of it
    for path in sorted(files):
        if feed is not None:
            feed()
        full = join(rom if rom and path not in ON_FILESYSTEM else root, path)
        try:
            crc = _crc_file(full)
        except OSError:
            missing.append(path)
            continue
        if crc != files[path]:
            bad.append(path)
    deep, shallow = code_places(files)
    unlisted, shadows = stale_files(files, code_files(root, deep, shallow), bool(rom))
    if rom:
        hidden = [d for d in deep if exists(join(root, d))]
        unlisted, shadows = hidden_packages(hidden, unlisted, shadows)
    data = {"ok": not (bad or missing or unlisted or shadows), "checked": len(files), "bad": bad,
            "missing": missing, "unlisted": unlisted, "shadows": shadows, "board": manifest.get("board")}
    if rom:
        data["romfs"] = rom
    return data


def boot_check(root=None):
    """'' if the firmware about to run is the certified file set, else why not in one line, for the tilt the
    table boots into (App, at every boot from main.py): 'FIRMWARE CHANGED: ...'. A frozen build, whose code
    is in the MicroPython image itself, is checked when a manifest came with it (the release's, naming the
    image's region and SHA-256: make deploy, make mcu); without one it passes, its image is what was built."""
    try:
        data = examine(root)
    except ValueError as e:
        return "" if _frozen() and "no %s found" % MANIFEST in str(e) else "FIRMWARE CHANGED: " + str(e)
    if data["ok"]:
        return ""
    for label in ("bad", "missing", "unlisted", "shadows"):
        if data[label]:
            what = {"bad": "changed", "missing": "missing", "unlisted": "not certified",
                    "shadows": "shadowing the certified one"}[label]
            more = len(data["bad"]) + len(data["missing"]) + len(data["unlisted"]) + len(data["shadows"]) - 1
            return "FIRMWARE CHANGED: %s %s%s" % (data[label][0], what, (" (+%d more)" % more) if more else "")


def _frozen():
    """True when the firmware runs frozen into the MicroPython image: its modules name files that are not
    on any filesystem."""
    import tablectl
    return not exists(getattr(tablectl, "__file__", ""))
