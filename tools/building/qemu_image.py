"""Build the qemu board's firmware image: MicroPython 1.25's ports/qemu for the mps2-an385 with boards/qemu out
of the tree and the firmware frozen in, compiled for ARMv6-M (the RP2040's Cortex-M0+; qemu's Cortex-M3 runs
it). `make firmware BOARD=qemu` runs it.

    python tools/building/qemu_image.py [--no-frozen-firmware] [--cpu m3]   -> build/firmware-qemu[-m3]/firmware.elf

The source is the pinned Debian tarball that tools/building/romfs_port fetches (same cache, same SHA-256), unpacked
once into .venv/cache. Debian's gcc-arm-none-eabi, libnewlib-arm-none-eabi and qemu-system-arm are
installed with apt when missing. The image is rebuilt only when what goes into it changed: a stamp holds
the SHA-256 of the source, the board folder, every frozen file and this script. Debian strips the source's
micropython-lib, which the freeze step insists on: MPY_LIB_DIR names an empty folder instead (nothing
of it is frozen here).

--no-frozen-firmware builds the same board with only what the board itself freezes (_boot.py, its
flash map, asyncio) into build/firmware-qemu-bare/: the image size without the firmware, for the bench.
--cpu m3 builds for the machine's own Cortex-M3 (Thumb-2, mpy-cross -march=armv7m) into a -m3 folder.
"""
import argparse
import hashlib
import os
import pathlib
import shutil
import subprocess
import sys
import tarfile

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
from building.romfs_port import build as romfs_build  # the pinned source and its fetch

BOARD_DIR = ROOT / "boards" / "qemu"
CACHE = ROOT / ".venv" / "cache"
OUT = ROOT / "build" / "firmware-qemu"
BARE_OUT = ROOT / "build" / "firmware-qemu-bare"
RELEASE_EPOCH = 1744675200  # 2025-04-15 00:00 UTC, MicroPython 1.25.0's release: the image's build date
CPUS = ("m0plus", "m3")  # boards/qemu/mpconfigboard.mk's TABLECTL_CPU; the first is the default
APT = ("gcc-arm-none-eabi", "libnewlib-arm-none-eabi", "qemu-system-arm", "make")
TOOLS = ("arm-none-eabi-gcc", "qemu-system-arm", "make")
# what the board freezes besides the firmware: the bare image's manifest
BARE_MANIFEST = ('include("$(MPY_DIR)/extmod/asyncio")\nmodule("_boot.py", base_path="%s")\n'
                 'module("flashmap.py", base_path="%s")\n')


def _say(msg):
    print("firmware: " + msg, flush=True)


def ensure_tools():
    """The cross compiler and the emulator, installed with apt when one is missing."""
    if any(shutil.which(t) is None for t in TOOLS):
        romfs_build.apt_install(*APT)
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if missing:
        raise SystemExit("firmware: %s still missing after apt" % ", ".join(missing))


def source_tree():
    """The MicroPython source, unpacked once from the pinned tarball into .venv/cache."""
    top = CACHE / ("qemu-src-" + romfs_build.SHA256[:12]) / ("micropython-" + romfs_build.VERSION)
    if not (top / ".unpacked").exists():
        tar = romfs_build.tarball(CACHE)
        if top.parent.exists():
            shutil.rmtree(top.parent)
        top.parent.mkdir(parents=True)
        with tarfile.open(tar) as t:
            t.extractall(top.parent, filter="data")
        (top / ".unpacked").write_text(romfs_build.SHA256)
    return top


def frozen_inputs():
    """Every file whose bytes go into the image besides the MicroPython source."""
    files = sorted(p for p in BOARD_DIR.rglob("*") if p.is_file())  # lib/axtls/crypto/crypto.h too
    files += sorted((ROOT / "firmware" / "tablectl").rglob("*.py"))
    files += [ROOT / "firmware" / "service.py"]  # tablectl/manifest.py is among the package's files
    files += [ROOT / "boards" / "sim" / n for n in ("simhw.py", "hostlink.py", "simrepl.py")]
    files += [ROOT / "tools" / "bench" / "mp" / n for n in ("fwround.py", "mcusession.py")]
    return files + [pathlib.Path(__file__).resolve()]


def out_dir(bare=False, cpu=CPUS[0]):
    out = BARE_OUT if bare else OUT
    return out if cpu == CPUS[0] else out.with_name(out.name + "-" + cpu)


def stamp(bare=False, cpu=CPUS[0]):
    h = hashlib.sha256(romfs_build.SHA256.encode() + (b"bare" if bare else b"frozen") + cpu.encode())
    for p in frozen_inputs():
        h.update(str(p.relative_to(ROOT)).encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def build(bare=False, quiet=False, cpu=CPUS[0], out=None):
    """build/firmware-qemu[-bare][-m3]/firmware.elf (or out/firmware.elf), rebuilt if its inputs changed;
    returns its path."""
    if cpu not in CPUS:
        raise SystemExit("firmware: --cpu is one of %s, not %r" % (", ".join(CPUS), cpu))
    out = pathlib.Path(out) if out else out_dir(bare, cpu)
    elf, stamp_file = out / "firmware.elf", out / "firmware.stamp"
    want = stamp(bare, cpu)
    if elf.exists() and stamp_file.exists() and stamp_file.read_text() == want:
        return elf
    CACHE.mkdir(parents=True, exist_ok=True)
    # one build at a time on this machine's source tree: mpy-cross is made inside it, for every image
    with romfs_build.locked(CACHE / "qemu-image.lock", _say):
        if elf.exists() and stamp_file.exists() and stamp_file.read_text() == want:
            return elf  # the process this one waited for built it
        return _build(bare, quiet, cpu, out, elf, stamp_file, want)


def _build(bare, quiet, cpu, out, elf, stamp_file, want):
    ensure_tools()
    top = source_tree()
    lib = CACHE / "mpy-lib-empty"
    lib.mkdir(parents=True, exist_ok=True)
    (lib / "README.md").write_text("Debian strips micropython-lib from the source; the qemu board freezes none of it.\n")
    obj = out / ("obj-" + cpu)  # make tracks no CFLAGS: a folder of its own for each instruction set
    args = ["make", "-C", str(top / "ports" / "qemu"), "BOARD=TABLECTL", "BOARD_DIR=" + str(BOARD_DIR),
            "BUILD=" + str(obj), "MPY_LIB_DIR=" + str(lib), "TABLECTL_CPU=" + cpu, "-j%d" % (os.cpu_count() or 1)]
    if bare:
        manifest = out / "manifest.py"
        out.mkdir(parents=True, exist_ok=True)
        manifest.write_text(BARE_MANIFEST % (BOARD_DIR, BOARD_DIR))
        args.append("FROZEN_MANIFEST=" + str(manifest))
    if not quiet:
        _say("building MicroPython %s's ports/qemu for the mps2-an385 (code for the %s) with boards/qemu%s "
             "(about a minute)" % (romfs_build.VERSION, "Cortex-M0+" if cpu == "m0plus" else "Cortex-M3",
                                   " without the firmware" if bare else ""))
    out.mkdir(parents=True, exist_ok=True)
    log = out / "build.log"
    jobs = "-j%d" % (os.cpu_count() or 1)
    with open(log, "w") as f:
        # mpy-cross first, on its own: the port's make would pass it our BUILD folder
        proc = subprocess.run(["make", "-C", str(top / "mpy-cross"), jobs], stdout=f, stderr=subprocess.STDOUT)
        if proc.returncode == 0:
            # the version is MicroPython's own, not the git describe of the repository around .venv/cache
            # and its date the source's release (SOURCE_DATE_EPOCH), not the day of the build: the same
            # inputs give the same image, byte for byte
            env = dict(os.environ, GIT_CEILING_DIRECTORIES=str(top.parent), SOURCE_DATE_EPOCH=str(RELEASE_EPOCH))
            proc = subprocess.run(args, stdout=f, stderr=subprocess.STDOUT, env=env)
    if proc.returncode != 0:
        sys.stdout.write("".join(log.read_text().splitlines(True)[-30:]))
        raise SystemExit("firmware: the build failed (the log's end is above; all of it in %s)" % log)
    shutil.copyfile(obj / "firmware.elf", elf)
    stamp_file.write_text(want)
    if not quiet:
        _say("built %s" % elf.relative_to(ROOT))
    return elf


def sizes(elf):
    """(text, data, bss) of an image, as arm-none-eabi-size prints them."""
    proc = subprocess.run(["arm-none-eabi-size", str(elf)], capture_output=True, text=True, check=True)
    return tuple(int(v) for v in proc.stdout.splitlines()[1].split()[:3])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-frozen-firmware", action="store_true", help="only what the board itself freezes")
    ap.add_argument("--cpu", choices=CPUS, default=CPUS[0],
                    help="the code's instruction set: m0plus (ARMv6-M, the Pico's; default) or m3 (ARMv7-M)")
    args = ap.parse_args(argv)
    elf = build(bare=args.no_frozen_firmware, cpu=args.cpu)
    text, data, bss = sizes(elf)
    _say("%s: text %d, data %d, bss %d bytes (bss holds the %d KB heap array)"
         % (elf.relative_to(ROOT), text, data, bss, heap_array() // 1024))


def image_region(elf=None):
    """(address, bytes) of the image as the machine holds it, what service.verify() hashes on the board:
    .text (vectors, code, constant data with the frozen firmware) and .ARM.exidx, from address 0 to
    _etext. .data (the first values of C variables, a few dozen bytes) is left out: the running program
    changes it in place."""
    elf = pathlib.Path(elf or build(quiet=True))
    symbols = subprocess.run(["arm-none-eabi-nm", str(elf)], capture_output=True, text=True, check=True).stdout
    etext = [int(line.split()[0], 16) for line in symbols.splitlines() if line.endswith(" _etext")][0]
    out = elf.with_name(elf.stem + ".image")
    subprocess.run(["arm-none-eabi-objcopy", "-O", "binary", "-j", ".text", "-j", ".ARM.exidx", str(elf), str(out)],
                   check=True)
    data = out.read_bytes()
    out.unlink()
    if len(data) != etext:
        raise SystemExit("firmware: %s's image is %d bytes, _etext says %d" % (elf, len(data), etext))
    return 0, data


def heap_array():
    """MICROPY_HEAP_SIZE of the board (boards/qemu/mpconfigboard.mk): the largest heap `heap=` can give."""
    for line in (BOARD_DIR / "mpconfigboard.mk").read_text().splitlines():
        if line.startswith("MICROPY_HEAP_SIZE"):
            return int(line.split("=")[1])
    raise SystemExit("firmware: no MICROPY_HEAP_SIZE in boards/qemu/mpconfigboard.mk")


if __name__ == "__main__":
    main()
