"""Every module in host_tests/mp runs on the MicroPython unix port too, from the built .mpy files,
within the heap its '# mp-heap:' line names (a real board's budget), and still within a twentieth
less: a budget met by a few hundred bytes breaks on the next change or the next machine. `make
heapcheck` (tools/mpheap.py) measures what each module needs; a budget should keep a tenth spare."""
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
