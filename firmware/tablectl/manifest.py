# The firmware, frozen into a MicroPython build: every board's manifest.py include()s this file, naming
# itself (include(".../firmware/tablectl/manifest.py", board="Raspberry Pi Pico")), then freezes its own
# board.py. MicroPython's manifest runner executes it from this folder; metadata() may be called once a
# build, so it is called here. The version is written once, as tablectl.VERSION in __init__.py, which a
# running firmware reports too.
import os

with open("__init__.py") as f:
    version = [line.split('"')[1] for line in f if line.startswith("VERSION = ")][0]
metadata(description="tablectl table-controller firmware" + (", %s board" % options.board if options.board else ""),
         version=version)
# every module of the package but this file (package() alone would freeze it as tablectl.manifest)
files = sorted(os.path.join(folder, name)[2:] for folder, _, names in os.walk(".") for name in names
               if name.endswith(".py") and os.path.join(folder, name) != "./manifest.py")
package("tablectl", files=files, base_path="..")
module("service.py", base_path="..")  # what a technician imports at the REPL
if options.glyphs:  # a board that offers DISPLAY,SSD1306: the glyph module (tools/building/oledfont.py, from Debian's
    import subprocess  # unifont) written under build/glyphs, then frozen: its bytes stay in the image's flash
    import sys
    out = os.path.abspath(os.path.join("..", "..", "build", "glyphs"))
    subprocess.run([sys.executable, os.path.join("..", "..", "tools", "building", "oledfont.py"),
                    os.path.join(out, "tablectl", "hw", "glyphs.py")], check=True)
    module("tablectl/hw/glyphs.py", base_path=out)
