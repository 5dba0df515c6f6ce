"""Generate firmware/tablectl/rules/dicetab.py: the Sic Bo and Fish-Prawn-Crab winning-spot tables.

    python tools/building/gen_dicetab.py            rewrite the table module
    python tools/building/gen_dicetab.py --check    exit 1 if the committed module differs from a fresh one

The rules of every dice bet live here, once (cited SB-/FPC- ids); the board only decodes the bytes
(tablectl/rules/dice.py). For each of the 56 unordered throws a <= b <= c, a row lists the winning
(spot, pays) pairs; pays that depend on a house option are markers the decoder resolves:
    PAY_5_16 / PAY_6_15   the table's pay for totals 5/16 and 6/15 (SB-6.6)
    ODD_EVEN_TRIPLE       odd/even on a triple: 1 unless odd_even_lose_on_triple (SB-7)
    COLOR2_OF_THREE       color2 on three dice of the colour: 3 only with color2_at_least (FPC-5.5)
host_tests/rules/test_core_dicetab_generated.py regenerates and compares; the differential test holds
the decoded tables against rulebook.sicbo / rulebook.fish_prawn_crab.
"""
import argparse
import pathlib
import sys
from itertools import combinations, combinations_with_replacement, permutations

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "firmware" / "tablectl" / "rules" / "dicetab.py"

PAY_5_16, PAY_6_15, ODD_EVEN_TRIPLE, COLOR2_OF_THREE = 251, 252, 253, 254
FACES = range(1, 7)
FPC_FACES = ("fish", "prawn", "gourd", "coin", "crab", "rooster")  # FPC-1.1
FPC_COLOURS = ("red", "green", "blue")
FPC_COLOUR_OF = {1: 0, 2: 1, 3: 2, 4: 2, 5: 1, 6: 0}  # FPC-1.1: fish/rooster red, prawn/crab green, gourd/coin blue
THROWS = list(combinations_with_replacement(FACES, 3))  # the 56 unordered throws, a <= b <= c


def total_pays(total):
    """SB-6.6 / FPC-6.10; None for 3 and 18, which have no spot."""
    return {4: 50, 17: 50, 5: PAY_5_16, 16: PAY_5_16, 6: PAY_6_15, 15: PAY_6_15, 7: 12, 14: 12, 8: 8,
            13: 8, 9: 6, 10: 6, 11: 6, 12: 6}.get(total)


def sicbo_spots():
    s = ["small", "big", "odd", "even"]
    s += ["single_%d" % n for n in FACES] + ["triple_%d" % n for n in FACES] + ["any_triple"]
    s += ["total_%d" % t for t in range(4, 18)]
    s += ["double_single_%d_%d" % ab for ab in permutations(FACES, 2)]
    s += ["three_%d_%d_%d" % abc for abc in combinations(FACES, 3)]
    s += ["combo_%d_%d" % ab for ab in combinations(FACES, 2)]
    s += ["double_%d" % n for n in FACES]
    s += ["four_%d_%d_%d_%d" % abcd for abcd in combinations(FACES, 4)]
    return s


def fpc_spots():
    s = ["small", "big"] + ["single_" + f for f in FPC_FACES]
    for k in (1, 2, 3):
        s += ["color%d_%s" % (k, c) for c in FPC_COLOURS]
    s += ["any_color3"] + ["triple_" + f for f in FPC_FACES] + ["any_triple"]
    return s + ["total_%d" % t for t in range(4, 18)]


def small_big(throw, w):
    total, triple = sum(throw), throw[0] == throw[2]
    if not triple:  # SB-7 / FPC-7: a triple loses small and big
        w.append(("small" if total <= 10 else "big", 1))  # SB-5.1/5.2, FPC-5.1/5.2
    if triple:
        w.append(("any_triple", 24))  # SB-5.5/6.5, FPC-5.9/6.9
    if total_pays(total):
        w.append(("total_%d" % total, total_pays(total)))  # SB-5.6/6.6, FPC-5.10/6.10


def sicbo_wins(throw):
    a, b, c = throw
    faces = sorted(set(throw))
    w = []
    small_big(throw, w)
    odd_even = "odd" if sum(throw) % 2 else "even"  # SB-5.7/5.8
    w.append((odd_even, ODD_EVEN_TRIPLE if a == c else 1))  # SB-7 names only small and big
    for n in faces:
        k = throw.count(n)
        w.append(("single_%d" % n, k))  # SB-5.3/6.3: 1, 2 or 3 to 1
        if k >= 2:
            w.append(("double_%d" % n, 8))  # SB-5.12/6.12 short (Interpretation: two equal faces)
        if k == 3:
            w.append(("triple_%d" % n, 150))  # SB-5.4/6.4
    for x, y in combinations(faces, 2):
        w.append(("combo_%d_%d" % (x, y), 5))  # SB-5.11/6.11 long: both faces show
    if len(faces) == 2:  # SB-5.9/6.9: exactly A,A,B (Interpretation: the player chooses A and B)
        dbl = b  # the middle die of a sorted pair-throw is always the doubled face
        w.append(("double_single_%d_%d" % (dbl, a if a != dbl else c), 50))
    if len(faces) == 3:
        w.append(("three_%d_%d_%d" % throw, 30))  # SB-5.10/6.10 (Interpretation: three distinct)
        for d in FACES:  # SB-5.13/6.13: three of the four chosen numbers show
            if d not in faces:
                w.append(("four_%d_%d_%d_%d" % tuple(sorted(faces + [d])), 7))
    return w


def fpc_wins(throw):
    w = []
    small_big(throw, w)
    for n in sorted(set(throw)):
        k = throw.count(n)
        w.append(("single_" + FPC_FACES[n - 1], k))  # FPC-5.3/6.3
        if k == 3:
            w.append(("triple_" + FPC_FACES[n - 1], 150))  # FPC-5.8/6.8
    for ci, colour in enumerate(FPC_COLOURS):
        k = sum(FPC_COLOUR_OF[f] == ci for f in throw)
        if k:  # FPC-5.4..5.6 / 6.4..6.6 (Interpretation: exactly one / exactly two / all three)
            w.append(("color%d_%s" % (k, colour), (1, 3, 20)[k - 1]))
        if k == 3:
            w.append(("any_color3", 7))  # FPC-5.7/6.7
            w.append(("color2_" + colour, COLOR2_OF_THREE))  # FPC-5.5 read as "at least two"
    return w


def rows(spots, wins):
    """bytes: per throw, the number of pairs then (spot index, pays) pairs, spots ascending."""
    out = bytearray()
    for throw in THROWS:
        pairs = sorted((spots.index(sid), pays) for sid, pays in wins(throw))
        out.append(len(pairs))
        for i, pays in pairs:
            out += bytes((i, pays))
    return bytes(out)


def order_index():
    """bytes: ordered throw (d1-1)*36 + (d2-1)*6 + (d3-1) -> its row among THROWS."""
    return bytes(THROWS.index(tuple(sorted(d))) for d in
                 ((d1, d2, d3) for d1 in FACES for d2 in FACES for d3 in FACES))


def wrap(name, value, width=100):
    """name = (...) over lines of at most `width` characters: a string of ids, or a bytes literal."""
    if isinstance(value, bytes):
        chunks = [repr(value[i:i + 24]) for i in range(0, len(value), 24)]
        return name + " = (\n    " + "\n    ".join(chunks) + "\n)"
    lines, line = [], " "  # padded with a space at both ends: ids.SpotIds keeps it without a copy
    for word in value.split():
        if len(line) + len(word) + 8 > width:
            lines.append(repr(line))
            line = ""
        line += word + " "
    lines.append(repr(line))
    return name + " = (\n    " + "\n    ".join(lines) + "\n)"


def render():
    sicbo, fpc = sicbo_spots(), fpc_spots()
    parts = [
        '"""Generated by tools/building/gen_dicetab.py: Sic Bo and Fish-Prawn-Crab winning-spot rows. Do not edit."""',
        "# rows: per unordered throw (a <= b <= c, in order 111, 112, ... 666) a count, then (spot, pays)",
        "# pairs; pays markers: %d pay_5_16, %d pay_6_15, %d odd/even on a triple, %d color2 on three"
        % (PAY_5_16, PAY_6_15, ODD_EVEN_TRIPLE, COLOR2_OF_THREE),
        "PAY_5_16 = %d" % PAY_5_16,
        "PAY_6_15 = %d" % PAY_6_15,
        "ODD_EVEN_TRIPLE = %d" % ODD_EVEN_TRIPLE,
        "COLOR2_OF_THREE = %d" % COLOR2_OF_THREE,
        "# spot ids, space-separated and padded: one string costs far less RAM than a tuple of strings,",
        "# and a table's ids.SpotIds keeps it as it is",
        wrap("SICBO_SPOTS", " ".join(sicbo)),
        wrap("FPC_SPOTS", " ".join(fpc)),
        wrap("SICBO_ROWS", rows(sicbo, sicbo_wins)),
        wrap("FPC_ROWS", rows(fpc, fpc_wins)),
        wrap("ORDER", order_index()),
    ]
    return "\n".join(parts) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed module instead of writing")
    args = ap.parse_args(argv)
    text = render()
    if args.check:
        same = OUT.exists() and OUT.read_text() == text
        print("gen_dicetab: %s is %s" % (OUT.relative_to(ROOT), "up to date" if same else "STALE"))
        return 0 if same else 1
    OUT.write_text(text)
    print("gen_dicetab: wrote %s (%d bytes)" % (OUT.relative_to(ROOT), len(text)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
