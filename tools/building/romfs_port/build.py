"""Build MicroPython's unix port as a board: 32-bit, with a ROMFS partition. Installs .venv/bin/micropython-rom32.

    python tools/building/romfs_port/build.py          (make rom32; `make test` and `make bench` run it)

Why. PyPI's unix port is 64-bit, so every object takes up to twice the heap it takes on a board, and it
loads each .mpy file's bytecode and strings into the heap. A board with a ROMFS partition (MicroPython
1.25 and later: rp2 with MICROPY_HW_ROMFS_BYTES, esp32 with a romfs partition, stm32) runs the .mpy
files in place from flash, and only their objects (functions, classes, dicts) take heap. This build
does the same on this machine: the ROMFS image named by $MICROPY_ROMFS is mapped read-only and mounted
at /rom (variant/romfs_file.c), and it is compiled for 32 bits like an RP2040 or an ESP32. It is how
issue 5's target is checked: the firmware's .mpy files run a long session in `-X heapsize=64K`.

Source. MicroPython's C source is on no package registry reachable here but Debian's: the source
package of Debian 13 (micropython 1.25.0+ds; Debian strips the bundled libraries, so the variant leaves
out ffi, ssl and btree, which the firmware does not use, and takes hashlib.sha1, which service.verify()
needs, from the qemu board's own SHA-1), checked against its SHA-256.
Needs gcc able to build 32-bit programs and make; when gcc -m32 fails, Debian's gcc-multilib is
installed with apt (as root, or with sudo), as the Makefile installs chromium for the browser test.
The build is skipped when the installed binary was built from the same source and variant (a stamp).
"""
import contextlib
import fcntl
import hashlib
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.request

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[2]
VERSION = "1.25.0"
TARBALL = "micropython_%s+ds.orig.tar.xz" % VERSION
SHA256 = "7b25be99a502f070b2de81dafc08da7051d992325d6e67daa9045a918fffdbea"
POOL = "/pool/main/m/micropython/"
APT_SOURCES = pathlib.Path("/etc/apt")
_ARCHIVE = re.compile(r"https?://\S+/debian(/\d{8}T\d{6}Z)?$")  # the archive, or a dated snapshot of it
VARIANT = "tablectl"
PROG = "micropython-rom32"
# the qemu board's SHA-1 behind axTLS's names (variant/mpconfigvariant.h says why), copied into the variant
QEMU_BOARD = ROOT / "boards" / "qemu"
SHA1_FILES = ("sha1.c", "lib/axtls/crypto/crypto.h")


def _say(msg):
    print("rom32: " + msg, flush=True)


def _stamp():
    """What the binary is built from: the source's checksum and every file of the variant and this script."""
    h = hashlib.sha256(SHA256.encode())
    for p in sorted((HERE / "variant").iterdir()) + [QEMU_BOARD / f for f in SHA1_FILES] + [pathlib.Path(__file__)]:
        h.update(p.name.encode() + p.read_bytes())
    return h.hexdigest()


def _can_build_32bit(work):
    src = work / "probe.c"
    src.write_text("#include <stdio.h>\nint main(void) { return sizeof(void *) == 4 ? 0 : 1; }\n")
    proc = subprocess.run(["gcc", "-m32", "-o", str(work / "probe"), str(src)], capture_output=True)
    return proc.returncode == 0 and subprocess.run([str(work / "probe")]).returncode == 0


def apt_install(*packages):
    """Debian packages by apt (as root, or with sudo), without the packages they only recommend."""
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    _say("installing %s with apt" % " ".join(packages))
    subprocess.run(sudo + ["apt-get", "update", "-qq"], check=True, env=env, stdout=subprocess.DEVNULL)
    subprocess.run(sudo + ["apt-get", "install", "-y", "-qq", "--no-install-recommends"] + list(packages), check=True, env=env,
                   stdout=subprocess.DEVNULL)


def debian_archives(apt=APT_SOURCES):
    """The Debian archives this machine's apt is pointed at (its sources' URIs ending in /debian), in the
    order apt lists them; then archives named in the sources' comments (where an image records the
    dated snapshot it was installed from), which keep a version the live archive has dropped.
    TABLECTL_DEBIAN_ARCHIVE, if set, comes first. The project names no host of its own: the tarball
    comes from wherever this machine's packages come from, checked against the pinned SHA-256."""
    found, commented = [], []
    override = os.environ.get("TABLECTL_DEBIAN_ARCHIVE")
    if override:
        found.append(override.rstrip("/"))
    files = [apt / "sources.list"] + sorted((apt / "sources.list.d").glob("*.list"))
    files += sorted((apt / "sources.list.d").glob("*.sources"))
    for path in files:
        try:
            lines = path.read_text().splitlines()
        except OSError:
            continue
        for line in lines:
            text = line.strip()
            into = commented if text.startswith("#") else found
            for word in text.lstrip("#").split():
                uri = word.rstrip("/")
                if _ARCHIVE.match(uri) and uri not in found + commented:
                    into.append(uri)
    return found + commented


def tarball(cache):
    """The source tarball in `cache`, downloaded if missing; SystemExit if no copy has the pinned SHA-256."""
    path = cache / TARBALL
    if path.exists() and hashlib.sha256(path.read_bytes()).hexdigest() == SHA256:
        return path
    faults = []
    archives = debian_archives()
    if not archives:
        raise SystemExit("rom32: apt names no Debian archive here (/etc/apt/sources.list*); set "
                         "TABLECTL_DEBIAN_ARCHIVE to one (its URL, ending in /debian) to fetch %s" % TARBALL)
    for url in (a + POOL + TARBALL for a in archives):
        try:
            with urllib.request.urlopen(url, timeout=120) as r:
                data = r.read()
        except OSError as e:
            faults.append("%s: %s" % (url, e))
            continue
        if hashlib.sha256(data).hexdigest() != SHA256:
            faults.append("%s: SHA-256 differs from the pinned one" % url)
            continue
        cache.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        return path
    raise SystemExit("rom32: no copy of %s could be fetched:\n  %s" % (TARBALL, "\n  ".join(faults)))


def _current(target, stamp):
    return target.exists() and stamp.exists() and stamp.read_text() == _stamp()


@contextlib.contextmanager
def locked(path, say=None):
    """One build at a time: two pytest workers (or make test beside make sim) that find a build stale
    would both make it and both write it, one over the other as it runs (the qemu image's too)."""
    with open(path, "a") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            (say or _say)("waiting for the build another process is making")
            fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _install(built, target):
    """A new file renamed over the old: a process running the old binary keeps it (writing into it would
    fail with ETXTBSY, or hand a half-written file to the next exec)."""
    tmp = target.with_name("%s.%d.tmp" % (target.name, os.getpid()))
    shutil.copyfile(built, tmp)
    tmp.chmod(0o755)
    os.replace(tmp, target)


def _compile(work):
    """Build the port in the empty folder `work`; the path of its binary there."""
    for tool in ("gcc", "make"):
        if shutil.which(tool) is None:
            apt_install("gcc", "make")
            break
    if not _can_build_32bit(work):
        apt_install("gcc-multilib")
        if not _can_build_32bit(work):
            raise SystemExit("rom32: gcc cannot build a 32-bit program, even with gcc-multilib")
    tar = tarball(ROOT / ".venv" / "cache")
    _say("building MicroPython %s's unix port, 32-bit with ROMFS (about a minute)" % VERSION)
    with tarfile.open(tar) as t:
        t.extractall(work, filter="data")
    top = work / ("micropython-" + VERSION)
    # The freeze step insists on micropython-lib, which Debian strips; the variant freezes only
    # asyncio, from the MicroPython tree itself.
    (top / "lib" / "micropython-lib" / "README.md").write_text("stripped by Debian; nothing used\n")
    variant = top / "ports" / "unix" / "variants" / VARIANT
    shutil.copytree(HERE / "variant", variant)
    for f in SHA1_FILES:  # the port compiles the variant's *.c and has the variant on its include path
        (variant / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(QEMU_BOARD / f, variant / f)
    log = work / "build.log"
    with open(log, "w") as out:
        proc = subprocess.run(["make", "-C", str(top / "ports" / "unix"), "VARIANT=" + VARIANT,
                               "MICROPY_FORCE_32BIT=1", "-j%d" % (os.cpu_count() or 1)],
                              stdout=out, stderr=subprocess.STDOUT)
    if proc.returncode != 0:
        sys.stdout.write("".join(log.read_text().splitlines(True)[-30:]))
        raise SystemExit("rom32: the build failed (the log's end is above)")
    return top / "ports" / "unix" / ("build-" + VARIANT) / "micropython"


def build(bin_dir):
    bin_dir = pathlib.Path(bin_dir)
    target = bin_dir / PROG
    stamp = bin_dir / (PROG + ".stamp")
    if _current(target, stamp):
        return target
    bin_dir.mkdir(parents=True, exist_ok=True)
    with locked(bin_dir / (PROG + ".lock")):
        if _current(target, stamp):  # built by the process this one waited for
            return target
        with tempfile.TemporaryDirectory(prefix="rom32_") as tmp:
            _install(_compile(pathlib.Path(tmp)), target)
        # the stamp last: a binary that is not yet the stamp's is built again, never taken for it
        stamp.write_text(_stamp())
    _say("installed " + str(target))
    return target


def main():
    build(pathlib.Path(sys.executable).parent)


if __name__ == "__main__":
    main()
