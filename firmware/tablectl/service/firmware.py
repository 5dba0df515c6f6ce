"""selftest(): the technician's report of the firmware check (tablectl.certify.examine) at the REPL."""
import gc

from tablectl.certify import MANIFEST, examine
from tablectl.service.context import Report, feed, running_app
from tablectl.store import join


def _shadowed(path, rom):
    """The certified file that `path`, on the filesystem, is imported instead of."""
    if path.endswith("/"):
        return join(rom, path)
    mpy = path if path.endswith(".mpy") else path[:-3] + ".mpy"
    return join(rom, mpy) if rom else mpy


def selftest(root=None):
    try:
        app = running_app()  # a running table's watchdog is fed file by file (CRC-32 in Python can be slow)
    except ValueError:
        app = None
    gc.collect()  # the call's own modules just loaded: the manifest's JSON wants a free block (a 64 KB ROMFS board)
    data = examine(root, lambda: feed(app))
    rom = data.get("romfs")
    ok, bad, missing, unlisted, shadows = data["ok"], data["bad"], data["missing"], data["unlisted"], data["shadows"]
    where = "board %s%s" % (data.pop("board"), ", ROMFS at " + rom if rom else "")
    lines = ["%d files checked against %s (%s): %s" % (data["checked"], MANIFEST, where, "all OK" if ok else "FAILED")]
    lines += ["CRC mismatch: " + p if p != "image" else "image SHA-256 mismatch: the frozen image is not the "
              "release's" for p in bad] + ["missing: " + p for p in missing]
    lines += ["unlisted: " + p for p in unlisted]
    lines += ["shadows: %s (imported instead of %s)" % (p, _shadowed(p, rom)) for p in shadows]
    if unlisted or shadows:
        lines.append("not the certified file set: make deploy removes them")
    return Report("selftest", lines, data)
