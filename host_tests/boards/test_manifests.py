"""The boards' freeze manifests, run by MicroPython's own tools/manifestfile.py from the pinned source (the one
tools/building/qemu_image.py builds the qemu image from): each board includes the one firmware manifest
(firmware/tablectl/manifest.py, naming the board), which freezes every module of the package and the REPL
shim with tablectl.VERSION as the version, then freezes its own board.py. The qemu image is built from its manifest (test_qemu_board);
the rp2 and esp32 ports need SDKs that no registry here carries, so their manifests are run here with
their ports' own boards/manifest.py, and micropython-lib's packages (Debian strips them from the source)
stand as empty packages of the names they require: what is checked is the manifests' own lines."""
import pathlib
import re
import sys

import pytest

from building import qemu_image as fwbuild

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
# each board's port, and the port's own manifest that the board's includes
PORTS = {"pico": ("rp2", "boards/manifest.py"), "esp32": ("esp32", "boards/manifest.py"), "qemu": ("qemu", None),
         "sim": ("unix", "variants/manifest.py")}
FIRMWARE_VERSION = re.search(r'^VERSION = "([^"]+)"', (ROOT / "firmware" / "tablectl" / "__init__.py").read_text(),
                             re.M).group(1)


@pytest.fixture(scope="module")
def manifestfile():
    top = fwbuild.source_tree()
    sys.path.insert(0, str(top / "tools"))  # MicroPython's own tools/ (the pinned source's), for this import only
    try:
        import manifestfile
    finally:
        sys.path.remove(str(top / "tools"))
    return top, manifestfile


def frozen(manifestfile, board, tmp_path):
    """{target path on the board: source path} of what the board's manifest freezes, and the packages it requires."""
    top, mf = manifestfile
    lib = tmp_path / "lib"
    required = set()
    port, port_manifest = PORTS[board]
    port = top / "ports" / port
    for text in [(ROOT / "boards" / board / "manifest.py").read_text(),
                 (port / port_manifest).read_text() if port_manifest else ""]:
        required |= set(re.findall(r'require\("([\w.-]+)"', text))
    for name in required:  # a stand-in package per name (micropython-lib is not in the source here)
        (lib / "micropython" / name).mkdir(parents=True, exist_ok=True)
        (lib / "micropython" / name / "manifest.py").write_text("")
    lib.mkdir(exist_ok=True)
    (lib / "unix-ffi").mkdir(exist_ok=True)  # the unix port's manifest adds this library
    m = mf.ManifestFile(mf.MODE_FREEZE, {"MPY_DIR": str(top), "PORT_DIR": str(port), "MPY_LIB_DIR": str(lib),
                                         "BOARD_DIR": str(ROOT / "boards" / board)})
    m.execute(str(ROOT / "boards" / board / "manifest.py"))
    metas = set((f.metadata.version, f.metadata.description) for f in m.files() if f.target_path.startswith("tablectl/"))
    assert len(metas) == 1, metas  # firmware/tablectl/manifest.py's metadata, once a build
    version, description = metas.pop()
    assert version == FIRMWARE_VERSION and description.endswith(" board"), (version, description)
    return {f.target_path: f.full_path for f in m.files()}, required


def firmware_files():
    base = ROOT / "firmware"
    return {p.relative_to(base).as_posix(): str(p) for p in base.rglob("*.py")
            if p.name not in ("main.py", "manifest.py") and "__pycache__" not in p.parts}


@pytest.mark.parametrize("board", ["pico", "esp32", "qemu", "sim"])
def test_every_board_freezes_the_whole_firmware_and_its_own_board(board, manifestfile, tmp_path):
    files, required = frozen(manifestfile, board, tmp_path)
    fw = firmware_files()
    assert {k: files.get(k) for k in fw} == fw  # every firmware module, from firmware/
    assert "tablectl/manifest.py" not in files  # the manifest is not frozen as a module
    assert files["board.py"] == str(ROOT / "boards" / board / "board.py")
    assert "main.py" not in files  # a board runs main.py from its filesystem
    if board != "sim":  # the unix port builds asyncio in its standard variant
        assert "asyncio/core.py" in files  # the port's (rp2, esp32) or the qemu board's own
    if board in ("pico", "esp32"):
        assert {"neopixel", "aiorepl"} <= required  # the lamp chain's driver; the REPL beside the controller
        # the graphic display: micropython-lib's driver, and the glyph module the tool makes, frozen as the
        # firmware's own tablectl.hw.glyphs (its bytes in flash)
        from building import oledfont
        assert "ssd1306" in required
        assert pathlib.Path(files["tablectl/hw/glyphs.py"]).read_text() == oledfont.module()
    else:
        assert "tablectl/hw/glyphs.py" not in files


def test_the_qemu_image_freezes_the_sim_boards_hardware_link_and_repl(manifestfile, tmp_path):
    files, required = frozen(manifestfile, "qemu", tmp_path)
    for name in ("simhw.py", "hostlink.py", "simrepl.py"):
        assert files[name] == str(ROOT / "boards" / "sim" / name)
    assert files["_boot.py"] == str(ROOT / "boards" / "qemu" / "_boot.py") and not required


def test_the_pico_freezes_its_own_boot_that_keeps_the_log_region_and_the_ports_other_modules(manifestfile, tmp_path):
    """The rp2 port's modules/_boot.py mounts the whole storage area and formats it when that fails, which undoes
    a partition: the Pico's build freezes boards/pico/_boot.py in its place (once: two _boot.py would leave which
    one runs to the freezer), with flashparts.py, and the port's rp2.py."""
    files, _ = frozen(manifestfile, "pico", tmp_path)
    top, _ = manifestfile
    assert files["_boot.py"] == str(ROOT / "boards" / "pico" / "_boot.py")
    assert files["flashparts.py"] == str(ROOT / "boards" / "pico" / "flashparts.py")
    assert files["rp2.py"] == str(top / "ports" / "rp2" / "modules" / "rp2.py")
    mf = manifestfile[1]
    m = mf.ManifestFile(mf.MODE_FREEZE, {"MPY_DIR": str(top), "PORT_DIR": str(top / "ports" / "rp2"),
                                         "MPY_LIB_DIR": str(tmp_path / "lib"), "BOARD_DIR": str(ROOT / "boards" / "pico")})
    m.execute(str(ROOT / "boards" / "pico" / "manifest.py"))
    targets = [f.target_path for f in m.files()]
    assert len(targets) == len(set(targets))
