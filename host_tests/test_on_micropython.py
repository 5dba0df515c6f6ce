"""Every module in host_tests/mp runs on the MicroPython unix port too, from the built .mpy files,
within the heap its '# mp-heap:' line names (a real board's budget), and still within a twentieth
less: a budget met by a few hundred bytes breaks on the next change or the next machine. `make
heapcheck` (tools/mpheap.py) measures what each module needs; a budget should keep a tenth spare.
A test skipped on the unix port fails its module unless a '# mp-skip: test_name why' line of the module
declares it (none does today: the only skips are on CPython, of MicroPython-only features)."""
import pytest

import mpy

MODULES = sorted(p.stem for p in mpy.MP_TESTS.glob("test_*.py"))
SPARE = 0.05


@pytest.mark.parametrize("module", MODULES)
def test_module_passes_on_micropython(module):
    ok, out = mpy.run_tests(module)
    assert ok, out


@pytest.mark.parametrize("module", MODULES)
def test_module_keeps_some_of_its_heap_spare(module):
    declared = mpy.heap_of(mpy.MP_TESTS / (module + ".py"))
    assert declared.endswith("K"), declared
    tighter = "%dK" % int(int(declared[:-1]) * (1 - SPARE))
    ok, out = mpy.run_tests(module, heap=tighter)
    assert ok, "%s passes in %s but not in %s: raise its '# mp-heap:' line\n%s" % (module, declared, tighter, out)


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
