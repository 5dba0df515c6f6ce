"""The graphic display's glyph module: GNU Unifont's 8x16 ASCII and 16x16 Han glyphs of exactly the
characters tools/building/oled_terms.py uses, laid out as an SSD1306 page buffer holds them, and that table's phrases
with their Chinese as glyph numbers (tablectl/hw/oled.py draws them without a string operation).

    python tools/building/oledfont.py OUT.py     write the module (tools/building/build_mpy.py builds it as tablectl/hw/glyphs)
    oledfont.load()                     the module, made in this process (the host tests)

The font is Debian's `unifont` 15.0 (/usr/share/unifont/unifont.hex; GPL-2+ by Debian's copyright file,
upstream adds the GNU font embedding exception): a bitmap font already, so no rasteriser and no hinting
choices, and its 16-pixel cells make the dealer's 16 columns exactly the panel's 128 pixels. It is read at
build time: no glyph is in the repository, and a build's glyphs.mpy carries the font's licence.
"""
import pathlib
import sys

from building.oled_terms import TERMS

HEX = pathlib.Path("/usr/share/unifont/unifont.hex")
FIRST, LAST = 32, 126  # the ASCII glyphs, one for each character a display text can hold
NUMBER = 0x23  # '#' in a phrase: a number, and where it goes in the Chinese
HAN = 0x80  # a Chinese glyph: this bit and the next byte hold its number


class FontError(RuntimeError):
    pass


def unifont(path=HEX):
    """{code point: hex bitmap} of the font file; FontError (what to install) when it is not there."""
    try:
        text = pathlib.Path(path).read_text()
    except OSError as e:
        raise FontError("no %s (%s): install Debian's unifont (make font)" % (path, e.strerror))
    return dict((int(cp, 16), bits) for cp, bits in (line.split(":") for line in text.split()))


def pages(bits):
    """A glyph's hex rows (16 rows of 8 or 16 pixels, top first, leftmost pixel the high bit) as two SSD1306
    pages, the top page's columns then the bottom's: each byte a column of 8 pixels, the top one bit 0."""
    width = len(bits) * 4 // 16  # 32 hex digits: 8 pixels a row; 64: 16
    rows = [int(bits[r * width // 4:(r + 1) * width // 4], 16) for r in range(16)]
    out = bytearray()
    for page in (0, 1):
        for x in range(width):
            col = 0
            for b in range(8):
                if rows[page * 8 + b] >> (width - 1 - x) & 1:
                    col |= 1 << b
            out.append(col)
    return bytes(out)


def han_characters(terms=TERMS):
    return sorted(set(ch for _, zh in terms for ch in zh if ord(ch) > LAST))


def encode(zh, index):
    """The Chinese of a phrase as the module holds it: ASCII as itself, '#' a number, a Han glyph as two bytes."""
    out = bytearray()
    for ch in zh:
        c = ord(ch)
        if c > LAST:
            n = index[ch]
            out += bytes((HAN | n >> 8, n & 0xFF))
        elif c < FIRST:
            raise FontError("%r: a control character in the Chinese" % zh)
        else:
            out.append(c)
    return bytes(out)


def phrase_table(terms, index):
    """(TERMS, STARTS): the phrases in one bytes, grouped by first character, and where each group starts."""
    by_first = {}
    for en, zh in sorted(terms, key=lambda t: -len(t[0])):  # the longest phrase first
        by_first.setdefault(ord(en[0]), []).append((en.encode(), encode(zh, index)))
    blob = bytearray(b"\x00")  # offset 0: no group
    starts = bytearray(2 * (LAST + 1))
    for first in sorted(by_first):
        starts[2 * first], starts[2 * first + 1] = len(blob) >> 8, len(blob) & 0xFF
        for en, zh in by_first[first]:
            if len(en) > 255 or len(zh) > 255:
                raise FontError("%r: a phrase of more than 255 bytes" % en)
            blob += bytes((len(en),)) + en + bytes((len(zh),)) + zh
        blob.append(0)
    if len(blob) > 0xFFFF:
        raise FontError("the phrases take more than 64 KB")
    return bytes(blob), bytes(starts)


def check(terms):
    for en, zh in terms:
        if en.count("#") > 4:  # tablectl/hw/oled.py keeps the ends of four
            raise FontError("%r: more than four numbers" % en)
        if en.count("#") != zh.count("#"):
            raise FontError("%r and %r differ in their numbers ('#')" % (en, zh))
        if not en or not all(FIRST <= ord(c) <= LAST for c in en):
            raise FontError("%r: a phrase is ASCII" % en)


def module(terms=TERMS, path=HEX):
    """The glyph module's source."""
    check(terms)
    font = unifont(path)
    han = han_characters(terms)
    missing = [ch for ch in [chr(c) for c in range(FIRST, LAST + 1)] + han if ord(ch) not in font]
    if missing:
        raise FontError("%s has no glyph for %s" % (path, " ".join(missing)))
    ascii_ = b"".join(pages(font[c]) for c in range(FIRST, LAST + 1))
    if len(ascii_) != 16 * (LAST - FIRST + 1):
        raise FontError("%s: an ASCII glyph is not 8 pixels wide" % path)
    glyphs = [pages(font[ord(ch)]) for ch in han]
    if any(len(g) != 32 for g in glyphs):
        raise FontError("%s: a Han glyph is not 16 pixels wide" % path)
    index = dict((ch, n) for n, ch in enumerate(han))
    terms_blob, starts = phrase_table(terms, index)
    lines = ['"""Generated by tools/building/oledfont.py from GNU Unifont (Debian\'s unifont, GPL-2+; upstream adds the GNU',
             'font embedding exception) and tools/building/oled_terms.py: do not edit."""',
             "ASCII = %r  # ' '..'~': 16 bytes each, the top page's 8 columns then the bottom's" % ascii_,
             "HAN = %r  # 32 bytes each: 16 columns, two pages" % b"".join(glyphs),
             "CHARS = %r  # HAN's characters, in its order" % "".join(han),
             "# the phrases, by their first character and the longest first: its length, the English, the length",
             "# of its Chinese, the Chinese as glyphs; a length 0 ends a character's phrases",
             "TERMS = %r" % terms_blob,
             "STARTS = %r  # where a character's phrases start in TERMS: two bytes each, 0 for none" % starts]
    return "\n".join(lines) + "\n"


def load(terms=TERMS, path=HEX):
    """The glyph module itself (on CPython, where no build is imported): what tablectl.hw.glyphs holds."""
    import types
    glyphs = types.ModuleType("tablectl.hw.glyphs")
    exec(module(terms, path), glyphs.__dict__)
    return glyphs


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):  # `--help` is no file name to write the module to
        raise SystemExit(__doc__.split("\n\n")[1])
    try:
        source = module()
        pathlib.Path(sys.argv[1]).parent.mkdir(parents=True, exist_ok=True)
        pathlib.Path(sys.argv[1]).write_text(source)
    except FontError as e:
        raise SystemExit("oledfont: %s" % e)
