"""Every test module with a '# mp-heap:' line, wherever it is under host_tests, runs on the MicroPython unix
port too, from the built .mpy files, within the heap that line names (a real board's budget), and still within a twentieth
less: a budget met by a few hundred bytes breaks on the next change or the next machine. `make
heapcheck` (tools/mpheap.py) measures what each module needs; a budget should keep a tenth spare.
A test skipped on the unix port fails its module unless a '# mp-skip: test_name why' line of the module
declares it (none does today: the only skips are on CPython, of MicroPython-only features)."""
import pytest

from harness import mpy

MODULES = sorted(mpy.micropython_modules())
SPARE = 0.05


@pytest.mark.parametrize("module", MODULES)
def test_module_passes_on_micropython_with_some_of_its_heap_spare(module):
    # one run in the tighter heap answers both questions when it passes (the usual case); only a failure
    # pays for a second run, in the declared heap, to say which of them failed
    declared = mpy.heap_of(mpy.micropython_modules()[module])
    assert declared.endswith("K"), declared
    tighter = "%dK" % int(int(declared[:-1]) * (1 - SPARE))
    ok, out = mpy.run_tests(module, heap=tighter)
    if ok:
        return
    passes, declared_out = mpy.run_tests(module)
    assert passes, declared_out
    pytest.fail("%s passes in %s but not in %s: raise its '# mp-heap:' line\n%s" % (module, declared, tighter, out))


PROBE = '''"""A module for the skip rule's test: one test passes, one skips on MicroPython."""
%s
try:
    from pytest import skip as _pytest_skip
    Skip = _pytest_skip.Exception
except ImportError:
    from mptest import Skip


def test_runs():
    assert 1 + 1 == 2


def test_needs_what_micropython_lacks():
    raise Skip("not on this runtime")
'''


@pytest.mark.parametrize("declaration, ok", [
    ("", False),  # a skip nobody declared: the module fails, however many tests passed
    ("# mp-skip: test_needs_what_micropython_lacks the probe's own reason", True),
    ("# mp-skip: test_needs_what_micropython_lacks", False),  # a declaration without a reason is none
    ("# mp-skip: test_needs_what_micropython_lacks why\n# mp-skip: test_gone why", False),  # stale name
])
def test_a_module_fails_when_it_skips_a_test_it_does_not_declare_skippable(tmp_path, declaration, ok):
    (tmp_path / "test_skip_probe.py").write_text(PROBE % declaration)
    passed, out = mpy.run_tests("test_skip_probe", where=tmp_path)
    assert "SKIP test_skip_probe.test_needs_what_micropython_lacks: not on this runtime" in out, out
    assert passed is ok, out


HOOKS = '''
log = []

def setup_function(function):
    log.append("setup " + function.__name__)

def teardown_function(function):
    log.append("teardown " + function.__name__)
    if function.__name__ == "test_c_teardown_fails":
        raise ValueError("teardown failed")

def test_a_passes():
    log.append("a")

def test_b_fails():
    log.append("b")
    raise AssertionError("b failed")

def test_c_teardown_fails():
    log.append("c")

def test_d_sees_every_hook_so_far():
    assert log == ["setup test_a_passes", "a", "teardown test_a_passes", "setup test_b_fails", "b",
                   "teardown test_b_fails", "setup test_c_teardown_fails", "c", "teardown test_c_teardown_fails",
                   "setup test_d_sees_every_hook_so_far"], log
'''


def test_mptest_runs_setup_and_teardown_around_every_test_as_pytest_does(tmp_path):
    """tools/mptest.py on the unix port: setup_function(function) before each test, teardown_function(function)
    after it even when the test failed, and a failing teardown fails its test."""
    (tmp_path / "hooks_sample.py").write_text(HOOKS)
    proc = mpy.run([str(mpy.ROOT / "tools" / "mptest.py"), "hooks_sample"], path=[tmp_path], cwd=mpy.ROOT)
    lines = proc.stdout.splitlines()
    assert lines[0] == "ok   hooks_sample.test_a_passes", proc.stdout
    assert lines[1] == "FAIL hooks_sample.test_b_fails: AssertionError: b failed", proc.stdout
    assert "FAIL hooks_sample.test_c_teardown_fails: ValueError: teardown failed" in lines, proc.stdout
    assert "ok   hooks_sample.test_d_sees_every_hook_so_far" in lines, proc.stdout
    assert lines[-1] == "mptest: 2 passed, 2 failed, 0 skipped" and proc.returncode == 1, proc.stdout


def test_a_module_runs_on_micropython_because_its_heap_line_says_so_in_any_folder(tmp_path):
    for rel, text in [("storage/test_a.py", "# mp-heap: 64K\n"), ("rules/test_b.py", '"""B."""\n# mp-heap: 32K\n'),
                      ("mp/test_c.py", "import os\n"), ("sim/test_d.py", "x = 1  # mp-heap: 64K\n"),
                      ("harness/tables.py", "# mp-heap: 64K\n")]:
        (tmp_path / rel).parent.mkdir(exist_ok=True)
        (tmp_path / rel).write_text(text)
    assert mpy.micropython_modules(tmp_path) == {"test_a": tmp_path / "storage/test_a.py",
                                                 "test_b": tmp_path / "rules/test_b.py"}
    (tmp_path / "link").mkdir()
    (tmp_path / "link/test_a.py").write_text("# mp-heap: 64K\n")  # the unix port imports a test by its name
    with pytest.raises(AssertionError, match="two test modules named test_a"):
        mpy.micropython_modules(tmp_path)
