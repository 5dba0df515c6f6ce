"""Blackjack's main bet exact for a finite shoe by composition-dependent play (rulebook.blackjack.exact),
cold, in a process of its own: each figure with its CPU time, the process's peak resident memory, and the
published Appendix 9 figure beside ours. `python -m bench blackjack_exact` runs it alone."""
import json
import os
import resource
import subprocess
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parent.parent
CODE = """
import json, time
from rulebook.blackjack import exact as bx
out = []
created = dict(bx.APPENDIX_9, split_count="created")
for name, rules in (("Appendix 9", bx.APPENDIX_9), ("Appendix 9, no double after split", dict(bx.APPENDIX_9, das=False)),
                    ("Appendix 9, split_count=created", created),
                    ("Appendix 9, split_count=created, no double after split", dict(created, das=False)),
                    ("Macau (the seed's rules)", bx.MACAU)):
    for decks in (6, 8):
        t = time.process_time()
        out.append((name, decks, bx.edge(decks, **rules), time.process_time() - t))
print(json.dumps(out))
"""
# Wizard of Odds, Blackjack Appendix 9, "Expected return of game" (6 decks, 8 decks; H17, no hole card)
PUBLISHED = {("Appendix 9", 6): -0.0072705, ("Appendix 9", 8): -0.007562,
             ("Appendix 9, no double after split", 6): -0.0086975,
             ("Appendix 9, no double after split", 8): -0.0089865}
PUBLISHED.update({(name.replace("Appendix 9", "Appendix 9, split_count=created", 1), decks): value
                  for (name, decks), value in list(PUBLISHED.items())})


def main():
    load = os.getloadavg()[0]
    out = subprocess.run([sys.executable, "-c", CODE], cwd=str(TOOLS), capture_output=True, text=True, check=True)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    for name, decks, ev, cpu in json.loads(out.stdout):
        published = PUBLISHED.get((name, decks))
        beside = "" if published is None else "  (published %.7f, ours - published %+.2e)" % (published, ev - published)
        print("blackjack exact CDP, %s, %d decks: player %.7f per unit, %.1f s CPU%s"
              % (name, decks, ev, cpu, beside))
    print("  the whole run: %.1f s CPU, peak %.0f MB resident (load average %.1f on %d cores)"
          % (usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, load, os.cpu_count()))


if __name__ == "__main__":
    main()
