"""tools/building/build_mpy.py: the name a compiled module gives in tracebacks."""
import pathlib

from harness import mpy
from building.build_mpy import module_name


def test_module_name_is_the_dotted_import_name():
    assert module_name(pathlib.PurePosixPath("tablectl/games/base.py")) == "tablectl.games.base"
    assert module_name(pathlib.PurePosixPath("tablectl/rules/__init__.py")) == "tablectl.rules"
    assert module_name(pathlib.PurePosixPath("board.py")) == "board"


def test_a_traceback_from_the_board_names_the_module_and_line():
    # the dotted name is interned by the import anyway: a path would be one more string in the heap
    proc = mpy.run(["-c", "import tablectl.store as s\ns.check_plain({'p': 1.5})"])
    out = proc.stdout + proc.stderr
    assert 'File "tablectl.store", line ' in out and "float values cannot be stored" in out, out
