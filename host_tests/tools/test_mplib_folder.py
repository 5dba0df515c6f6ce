"""tools/building/mplib.folder() filled by several processes at once, as make test's workers start link demos
together on a fresh clone: every one gets the whole folder (one of them once failed, its source unlinked by
another between its write and its mpy-cross)."""
import pathlib
import subprocess
import sys

FILL = ("import pathlib, sys\n"
        "from building import mplib\n"
        "mplib.FOLDER = pathlib.Path(sys.argv[1])\n"
        "mplib.folder()\n")


def test_processes_filling_the_folder_at_once_each_get_it_whole(tmp_path):
    from building import mplib
    mplib.folder()  # the pinned sdists in the cache: no fetch in the race below
    for attempt in range(3):
        out = tmp_path / str(attempt)
        procs = [subprocess.Popen([sys.executable, "-c", FILL, str(out)], stderr=subprocess.PIPE, text=True)
                 for _ in range(6)]
        errors = [p.communicate(timeout=120)[1] for p in procs]
        assert [p.returncode for p in procs] == [0] * 6, errors
        made = sorted(str(f.relative_to(out)) for f in out.rglob("*.mpy") if f.name[0] != ".")  # not the stamps
        want = sorted(str(pathlib.Path(dst).with_suffix(".mpy")) for _, _, _, files in mplib.PACKAGES
                      for dst in files.values())
        assert made == want and not list(out.rglob("*.py")), made
