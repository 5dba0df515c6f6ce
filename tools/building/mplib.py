"""micropython-lib packages for the unix port, from their sdists on the package registry, pinned by SHA-256.

    python tools/building/mplib.py            fetch (once) and print the folder to put on MICROPYPATH
    mplib.folder()                   the same from Python: .venv/cache/mplib, holding umqtt/simple.mpy, ssd1306.mpy

A board gets micropython-lib's packages with `mpremote mip install` (tools/boardops/deploy.py). The unix port
that runs the tests has no mip index to ask here, and pip refuses these sdists (they carry no
setup.py), so the sdist is fetched by package name with a registry client library (pypi-simple), its
SHA-256 checked against the pin below, cached in .venv/cache (as tools/building/romfs_port/build.py caches
MicroPython's source), and its modules compiled with mpy-cross beside it, as mip installs them on a
board (.mpy: the import compiles nothing in the heap). Nothing of it is copied into the repository.
"""
import fcntl
import hashlib
import io
import pathlib
import sys
import tarfile
import subprocess
import urllib.request

from building.build_mpy import mpy_cross

ROOT = pathlib.Path(__file__).resolve().parents[2]
CACHE = ROOT / ".venv" / "cache"
FOLDER = CACHE / "mplib"  # what folder() fills; a MICROPYPATH entry even before it is fetched
# (package, version, sdist SHA-256, module files in the sdist -> where they go under the folder)
PACKAGES = (
    ("micropython-umqtt.simple", "1.3.4", "b6a2520239e3992c63a7de9370ee9b3d9d27819a90359c521f1c0f7ccab8d12f",
     {"umqtt/simple.py": "umqtt/simple.py"}),
    # micropython-lib's SSD1306 driver (micropython/drivers/display/ssd1306), the graphic display's
    ("micropython-ssd1306", "0.3", "d00cae1ff680e6ae504e258e700f002874b0d924b1a604253b6ea63144b58289",
     {"ssd1306.py": "ssd1306.py"}),
)


class FetchError(RuntimeError):
    pass


def _sdist(name, version, sha256):
    """The sdist's bytes: from the cache, or by package name through pypi-simple; FetchError if no copy
    has the pinned SHA-256."""
    filename = "%s-%s.tar.gz" % (name, version)
    cached = CACHE / filename
    if cached.exists():
        data = cached.read_bytes()
        if hashlib.sha256(data).hexdigest() == sha256:
            return data
    try:
        from pypi_simple import PyPISimple
        with PyPISimple() as client:
            page = client.get_project_page(name)
    except Exception as e:  # network, or the registry's answer
        raise FetchError("cannot list %s on the package registry: %s" % (name, e))
    for pkg in page.packages:
        if pkg.filename == filename:
            with urllib.request.urlopen(pkg.url, timeout=60) as r:
                data = r.read()
            if hashlib.sha256(data).hexdigest() != sha256:
                raise FetchError("%s: SHA-256 differs from the pinned one" % filename)
            CACHE.mkdir(parents=True, exist_ok=True)
            cached.write_bytes(data)
            return data
    raise FetchError("%s has no sdist %s on the package registry" % (name, filename))


def folder():
    """.venv/cache/mplib with every pinned package's modules unpacked (fetched the first time)."""
    out = FOLDER
    out.mkdir(parents=True, exist_ok=True)
    with open(out / ".lock", "w") as lock:
        # one process at a time (make test's workers start link demos together): another's unlink of a source
        # between this one's write and its mpy-cross made it fail; the stamps are read again under the lock
        fcntl.flock(lock, fcntl.LOCK_EX)
        _fill(out)
    return out


def _fill(out):
    for name, version, sha256, files in PACKAGES:
        stamp = out / (".%s-%s.mpy" % (name, version))
        if stamp.exists():
            continue
        with tarfile.open(fileobj=io.BytesIO(_sdist(name, version, sha256)), mode="r:gz") as tar:
            top = "%s-%s/" % (name, version)
            for src, dst in files.items():
                member = tar.extractfile(top + src)
                if member is None:
                    raise FetchError("%s %s has no %s" % (name, version, src))
                source = out / dst
                source.parent.mkdir(parents=True, exist_ok=True)
                source.write_bytes(member.read())
                subprocess.run([mpy_cross(), "-o", str(source.with_suffix(".mpy")), "-s", dst, str(source)],
                               check=True)
                source.unlink()
        stamp.write_text(sha256 + "\n")


if __name__ == "__main__":
    try:
        print(folder())
    except FetchError as e:
        print("mplib: %s" % e, file=sys.stderr)
        sys.exit(1)
