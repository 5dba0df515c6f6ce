"""Caribbean Stud's exact ante/raise analysis (rulebook.caribbean.exact) from a cold start, in a process
of its own: wall time, CPU time and peak resident memory, with the machine's load beside them (the CPU
time is the figure that survives a shared machine). `python -m bench caribbean` runs it alone."""
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

TOOLS = Path(__file__).resolve().parent.parent
CODE = ("from rulebook.caribbean import exact as x; e = x.ante_raise_edge(); "
        "print(e['house_edge'].numerator, e['house_edge'].denominator)")


def main():
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", CODE], cwd=str(TOOLS), capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    num, den = map(int, out.stdout.split())
    print("caribbean_exact.ante_raise_edge, cold: %.1f s wall, %.1f s CPU, peak %.0f MB resident "
          "(load average %.1f on %d cores)" % (wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024,
                                             load, os.cpu_count()))
    print("  house edge per ante %.6f%% (exact %d/%d)" % (100 * num / den, num, den))


if __name__ == "__main__":
    main()
