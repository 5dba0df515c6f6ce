"""Host test set-up: the firmware and the rulebook import on CPython; the mp/ suite is collected too."""
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
for p in (ROOT / "firmware", ROOT / "boards" / "sim", ROOT / "tools", ROOT / "host_tests", ROOT / "host_tests" / "mp"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from building import build_mpy  # noqa: E402  (tools/, on the path from here on)


@pytest.fixture(scope="session")
def firmware_build(tmp_path_factory):
    """build/sim as make builds it, but private: other tests rebuilding build/sim cannot pull it away.
    One for the session: the simulator's and the linked table's tests only read it."""
    out = tmp_path_factory.mktemp("simbuild") / "sim"
    build_mpy.build("sim", out)
    return out
