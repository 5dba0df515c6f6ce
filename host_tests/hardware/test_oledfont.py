"""tools/building/oledfont.py, the graphic display's glyph module: every glyph's pixels are the font's, the phrase
table reads back as tools/building/oled_terms.py wrote it, and a missing font, a missing glyph or a phrase whose
numbers differ stops the build with a line that says which."""
import pytest

from building import oled_terms
from building import oledfont


def pixels_of_hex(bits):
    """{(x, y)} lit in a unifont hex glyph (16 rows; 8 or 16 pixels a row, the leftmost the high bit)."""
    width = len(bits) // 4
    lit = set()
    for y in range(16):
        row = int(bits[y * width // 4:(y + 1) * width // 4], 16)
        lit |= {(x, y) for x in range(width) if row & (1 << (width - 1 - x))}
    return lit, width


def pixels_of_pages(glyph, width):
    """{(x, y)} lit in a glyph of the module: two SSD1306 pages, a byte a column, the top pixel bit 0."""
    return {(x, y) for y in range(16) for x in range(width) if glyph[(y // 8) * width + x] >> (y % 8) & 1}


def test_every_glyph_is_the_fonts_own_pixel_for_pixel():
    font = oledfont.unifont()
    g = oledfont.load()
    for c in range(32, 127):
        want, width = pixels_of_hex(font[c])
        assert width == 8 and pixels_of_pages(g.ASCII[(c - 32) * 16:(c - 31) * 16], 8) == want, chr(c)
    for n, ch in enumerate(g.CHARS):
        want, width = pixels_of_hex(font[ord(ch)])
        assert width == 16 and pixels_of_pages(g.HAN[n * 32:(n + 1) * 32], 16) == want, ch
    # read off the font file by eye: '|' (007C:0000 then 08 x 14) is column 4 of rows 2..15; '_' (..7F00)
    # columns 1..7 of row 14: in pages, the bar's top byte 0xFC and its bottom 0xFF; the line one bit, 0x40
    bar = g.ASCII[(0x7C - 32) * 16:(0x7C - 31) * 16]
    assert bar == bytes((0, 0, 0, 0, 0xFC, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0, 0, 0))
    assert g.ASCII[(0x5F - 32) * 16:(0x5F - 31) * 16] == bytes(9) + bytes((0x40,) * 7)


def decode(g):
    """The phrase table read back: [(English, Chinese)] in the module's order."""
    out = []
    terms, starts = g.TERMS, g.STARTS
    for first in range(len(starts) // 2):
        at = starts[2 * first] << 8 | starts[2 * first + 1]
        if not at:
            continue
        while terms[at]:
            en = terms[at + 1:at + 1 + terms[at]].decode()
            at += 1 + terms[at]
            zh_bytes = terms[at + 1:at + 1 + terms[at]]
            at += 1 + terms[at]
            zh, i = "", 0
            while i < len(zh_bytes):
                if zh_bytes[i] & 0x80:
                    zh += g.CHARS[(zh_bytes[i] & 0x7F) << 8 | zh_bytes[i + 1]]
                    i += 2
                else:
                    zh += chr(zh_bytes[i])
                    i += 1
            assert ord(en[0]) == first
            out.append((en, zh))
    return out


def test_the_phrase_table_reads_back_as_written_longest_first():
    g = oledfont.load()
    back = decode(g)
    assert sorted(back) == sorted(oled_terms.TERMS)
    by_first = {}
    for en, _ in back:
        by_first.setdefault(en[0], []).append(len(en))
    assert all(lengths == sorted(lengths, reverse=True) for lengths in by_first.values())
    assert len(set(en for en, _ in oled_terms.TERMS)) == len(oled_terms.TERMS)  # no phrase twice


def test_what_stops_the_build_is_said_in_one_line(tmp_path):
    with pytest.raises(oledfont.FontError, match="no .*nothere.hex .*install Debian's unifont \\(make font\\)"):
        oledfont.module(path=tmp_path / "nothere.hex")
    small = tmp_path / "small.hex"
    font = oledfont.unifont()
    small.write_text("".join("%04X:%s\n" % (c, font[c]) for c in list(range(32, 127)) + [ord("大")]))
    assert "大" in oledfont.load([("BIG", "大")], small).CHARS
    with pytest.raises(oledfont.FontError, match="has no glyph for 小"):
        oledfont.module([("BIG", "大"), ("SMALL", "小")], small)
    with pytest.raises(oledfont.FontError, match="'ROUND #' and '第局' differ in their numbers"):
        oledfont.module([("ROUND #", "第局")])
    with pytest.raises(oledfont.FontError, match="'大' : a phrase is ASCII|a phrase is ASCII"):
        oledfont.module([("大", "大")])
    with pytest.raises(oledfont.FontError, match="more than four numbers"):
        oledfont.module([("# # # # #", "# # # # #")])


def test_an_option_is_refused_with_the_usage_and_writes_no_file(tmp_path):
    """`oledfont.py --help` once wrote the glyph module to a file named --help."""
    import subprocess
    import sys
    proc = subprocess.run([sys.executable, oledfont.__file__, "--help"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 1 and "oledfont.py OUT.py" in proc.stderr, (proc.returncode, proc.stderr)
    assert list(tmp_path.iterdir()) == []
