"""Host test set-up: tools/, host_tests/ (the harness package) and firmware/ are on the .venv's path
(`make setup` writes its tablegames.pth); the test modules' own fixtures come from the harness's plugins."""
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
# the sim board's modules (board, simhw, hostlink) are the tests' board, for the tests alone: on the .venv's
# path they would stand before a real board's files for every tool (tools/boardops/partition.py, deploy)
sys.path.insert(0, str(ROOT / "boards" / "sim"))

try:
    from building import build_mpy  # tools/
    import tablectl  # noqa: F401  (firmware/)
    import harness  # noqa: F401  (host_tests/)
except ImportError as e:  # a .venv made before the .pth named them all
    raise pytest.UsageError("%s: the .venv's tablegames.pth is out of date: run `make setup`" % e)

pytest_plugins = ("harness.simulators",)  # the simulator fixtures (start_sim, mpremote, dealer, ...)


@pytest.fixture(scope="session")
def firmware_build(tmp_path_factory):
    """build/sim as make builds it, but private: other tests rebuilding build/sim cannot pull it away.
    One for the session: the simulator's and the linked table's tests only read it."""
    out = tmp_path_factory.mktemp("simbuild") / "sim"
    build_mpy.build("sim", out)
    return out
