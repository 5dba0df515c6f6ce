"""`python -m bench` (make bench): a piece asked for by a name it does not have is refused in one line that lists
the pieces, rather than passing as a run that measured nothing."""
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_unknown_piece_refused_in_one_line_with_the_pieces():
    proc = subprocess.run([sys.executable, "-m", "bench", "core", "nosuch"], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert proc.returncode == 2 and proc.stdout == "", (proc.returncode, proc.stdout)
    line, = proc.stderr.splitlines()
    assert line.startswith("python -m bench: no piece nosuch; the pieces: "), line
    pieces = line.split(": ")[-1].split()
    on_disk = sorted(p.stem for p in (ROOT / "tools" / "bench").glob("*.py") if not p.name.startswith("_"))
    assert pieces == on_disk and "core" in pieces and "qemu" in pieces and "__main__" not in pieces
