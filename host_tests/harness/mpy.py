"""Run code on the MicroPython unix port from pytest: the firmware as built by tools/building/build_mpy.py."""
import contextlib
import os
import pathlib
import pty
import re
import subprocess
import sys
import tty

from building.build_mpy import venv_tool

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
BUILD = ROOT / "build" / "sim"
HOST_TESTS = ROOT / "host_tests"  # on the unix port's path for the harness package
MICROPYTHON = venv_tool("micropython") or "micropython"
DEFAULT_HEAP = "64K"


def rom32():
    """The 32-bit unix port with a ROMFS partition (tools/building/romfs_port; built, or rebuilt when its
    variant changed, as `make rom32` does): its path."""
    subprocess.run([sys.executable, str(ROOT / "tools" / "building" / "romfs_port" / "build.py")], check=True)
    return venv_tool("micropython-rom32")


def _stale():
    manifest = BUILD / "fwmanifest.json"
    if not manifest.exists():
        return True
    built = manifest.stat().st_mtime
    return any(p.stat().st_mtime > built for base in (ROOT / "firmware", ROOT / "boards" / "sim")
               for p in base.rglob("*.py")) or \
        any(p.stat().st_mtime > built for p in (ROOT / "tools").glob("oled*.py"))  # the glyph module's


def ensure_build():
    """Rebuild the .mpy files when a source is newer than the build (e.g. running one test file)."""
    if _stale():
        subprocess.run([sys.executable, str(ROOT / "tools" / "building" / "build_mpy.py"), "--board", "sim",
                        "--out", str(BUILD)], check=True)
    from building import mplib
    try:  # micropython-lib's modules (ssd1306 for host_tests/hardware/test_hw_oled.py), fetched once
        mplib.folder()
    except mplib.FetchError as e:
        print("mpy: %s" % e, file=sys.stderr)


def run(args, heap=DEFAULT_HEAP, path=(), timeout=120, input=None, env=None, cwd=None):
    """micropython -X heapsize=HEAP ARGS with MICROPYPATH = path + build/sim + host_tests (harness) + tools.

    By default it runs in the repository root with relative paths, so that the heap holds the same
    strings (file names in code objects, sys.path) wherever the repository is cloned: a heap budget
    measured here is the budget on CI."""
    ensure_build()
    full = dict(os.environ)
    here = ROOT if cwd is None else pathlib.Path(cwd)
    ours = [os.path.relpath(p, here) for p in (BUILD, HOST_TESTS, ROOT / "tools")]
    full["MICROPYPATH"] = ":".join([".frozen"] + [str(p) for p in path] + ours)
    full.update(env or {})
    return subprocess.run([MICROPYTHON, "-X", "heapsize=" + heap] + list(args), capture_output=True,
                          text=True, timeout=timeout, input=input, env=full, cwd=str(here))


HEAP_LINE = re.compile(r"^# mp-heap: *(\w+)", re.M)


def heap_of(module_path):
    """The heap a test module asks for with its line '# mp-heap: 32K' (default 64K)."""
    m = HEAP_LINE.search(pathlib.Path(module_path).read_text())
    return m.group(1) if m else DEFAULT_HEAP


def micropython_modules(root=HOST_TESTS):
    """{name: path} of every test module that runs on the unix port too: those with a '# mp-heap:' line,
    wherever they are under host_tests (names are unique there: pytest's rootdir imports need it too)."""
    found = {}
    for p in sorted(pathlib.Path(root).rglob("test_*.py")):
        if HEAP_LINE.search(p.read_text()):
            assert p.stem not in found, "two test modules named %s: %s, %s" % (p.stem, found[p.stem], p)
            found[p.stem] = p
    return found


def skippable_of(module_path):
    """The tests a module declares it may skip on MicroPython, one line each: '# mp-skip: test_name why'
    (the reason is required: a skip nobody can explain is a test that silently stopped running)."""
    return {m.group(1): m.group(2) for m in
            re.finditer(r"^# mp-skip: *(test_\w+) +(\S.*)$", pathlib.Path(module_path).read_text(), re.M)}


def _undeclared_skips(module_path, module_name, out):
    """Why a run's skips break the module's declaration (a list of lines; empty when they do not)."""
    text = pathlib.Path(module_path).read_text()
    declared = skippable_of(module_path)
    skipped = re.findall(r"^SKIP %s\.(\w+):" % re.escape(module_name), out, re.M)
    wrong = ["%s.%s skipped on MicroPython but not declared skippable (a '# mp-skip: %s why' line)"
             % (module_name, name, name) for name in skipped if name not in declared]
    wrong += ["'# mp-skip: %s' names no test of %s" % (name, module_name) for name in declared
              if not re.search(r"^def %s\(" % name, text, re.M)]
    counted = re.search(r"mptest: \d+ passed, \d+ failed, (\d+) skipped", out)
    if counted and int(counted.group(1)) != len(skipped):
        wrong.append("mptest counted %s skips but printed %d SKIP lines for %s"
                     % (counted.group(1), len(skipped), module_name))
    return wrong


def run_tests(module_name, heap=None, where=None):
    """Run <where>/<module_name>.py (default: the test module of that name that declares its heap) under
    tools/mptest.py in its declared heap (or `heap`); returns (ok, output). ok: no test failed, one
    passed, and each skip is declared."""
    module_path = micropython_modules()[module_name] if where is None else pathlib.Path(where) / (module_name + ".py")
    heap = heap or heap_of(module_path)
    # its own folder first, relative as run() makes the others (the same heap wherever the tree is)
    extra = (os.path.relpath(module_path.parent, ROOT) if where is None else where,)
    # `-m mptest`, not the script's path: the unix port then files the runner under sys.modules["mptest"],
    # so a test's `from mptest import Skip` is the class the runner catches (run as a script, the import
    # loads a second copy, whose Skip the runner reports as a failure)
    proc = run(["-m", "mptest", module_name], heap=heap, path=extra)
    out = proc.stdout + proc.stderr
    m = re.search(r"mptest: (\d+) passed, (\d+) failed", out)
    ok = proc.returncode == 0 and m is not None and int(m.group(2)) == 0 and int(m.group(1)) > 0
    wrong = _undeclared_skips(module_path, module_name, out)
    if wrong:
        out += "\n" + "\n".join(wrong) + "\n"
    return ok and not wrong, out


@contextlib.contextmanager
def repl_on_pty(exe, env, cwd=None, heap="256K"):
    """`exe` running only the sim board's REPL task (simrepl: the raw REPL mpremote speaks), its stdin and
    stdout a pseudo-terminal, as the simulator's board process has them; yields the terminal's path."""
    master, board_side = pty.openpty()
    tty.setraw(board_side)
    os.set_blocking(board_side, False)  # simrepl polls its stdin
    os.set_blocking(master, False)
    full = dict(os.environ, MICROPYPATH=".frozen:" + str(BUILD))
    full.update(env)
    proc = subprocess.Popen([exe, "-X", "heapsize=" + heap, "-c", "import asyncio, simrepl\nasyncio.run(simrepl.task())"],
                            stdin=master, stdout=master, stderr=subprocess.DEVNULL, env=full, cwd=cwd,
                            start_new_session=True)
    try:
        yield os.ttyname(board_side)
    finally:
        proc.kill()
        proc.wait()
        os.close(master)
        os.close(board_side)
