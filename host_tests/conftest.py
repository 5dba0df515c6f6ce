"""Host test set-up: the firmware and the rulebook import on CPython; the mp/ suite is collected too."""
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
for p in (ROOT / "firmware", ROOT / "boards" / "sim", ROOT / "tools", ROOT / "host_tests", ROOT / "host_tests" / "mp"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))
