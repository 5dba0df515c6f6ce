"""Every module in host_tests/mp runs on the MicroPython unix port too, from the built .mpy files,
within the heap its '# mp-heap:' line names (a real board's budget)."""
import pytest

import mpy

MODULES = sorted(p.stem for p in mpy.MP_TESTS.glob("test_*.py"))


@pytest.mark.parametrize("module", MODULES)
def test_module_passes_on_micropython(module):
    ok, out = mpy.run_tests(module)
    assert ok, out
