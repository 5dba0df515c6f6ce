"""The graphic display (tablectl.hw.oled) over micropython-lib's SSD1306 driver on a fake I2C bus: the exact
frame it sends for known texts, English above and the game's terms in Chinese beneath, numbers carried
into the Chinese, whole words only, a row too wide in Chinese left blank, nothing allocated to draw."""
# mp-heap: 88K
# (80K until its helpers became the harness package: the package moves its frame buffers' luck by 8 KB)
import sys

from harness.fakebus import I2c
from harness.panel import Panel
from mptest import Skip, raises
from tablectl.hw.oled import Oled

try:
    import micropython
except ImportError:
    micropython = None
try:
    from tablectl.hw import glyphs  # the build's module (the unix port runs build/sim)
except ImportError:
    from building import oledfont  # CPython: the same module, made by the tool from the font
    glyphs = oledfont.load()

ADDR = 0x3C
W = 128


def ssd1306_module():
    """micropython-lib's driver (tools/building/mplib.py fetches it; mip installs it on a board): it needs framebuf."""
    if ".venv/cache/mplib" not in sys.path:
        sys.path.append(".venv/cache/mplib")
    try:
        import ssd1306
    except ImportError as e:
        raise Skip("micropython-lib's ssd1306 needs MicroPython's framebuf: %s" % e)
    return ssd1306


def frame(*placed):
    """The panel buffer the texts should make: (page, x, character) each, placed from the font's glyphs."""
    buf = bytearray(W * 8)
    for page, x, ch in placed:
        if ord(ch) < 127:
            g, w = glyphs.ASCII[(ord(ch) - 32) * 16:(ord(ch) - 31) * 16], 8
        else:
            n = glyphs.CHARS.index(ch)
            g, w = glyphs.HAN[n * 32:(n + 1) * 32], 16
        buf[page * W + x:page * W + x + w] = g[:w]
        buf[(page + 1) * W + x:(page + 1) * W + x + w] = g[w:]
    return buf


def run(page, x, text):
    """(page, x, ch) for each character of `text` from column x: ASCII 8 pixels, Han 16."""
    out = []
    for ch in text:
        out.append((page, x, ch))
        x += 8 if ord(ch) < 127 else 16
    return out


def test_the_driver_sends_its_init_then_the_frame_for_a_known_text():
    ssd1306 = ssd1306_module()
    bus = I2c()
    d = Oled(ssd1306.SSD1306_I2C(128, 64, bus, ADDR), glyphs)
    assert all(addr == ADDR for addr, _ in bus.writes)
    cmds = [w[1] for _, w in bus.writes if len(w) == 2 and w[0] == 0x80]
    assert cmds[:3] == [0xAE, 0x20, 0x00] and 0xAF in cmds  # off, horizontal addressing, ..., on
    data = [w for _, w in bus.writes if w[0] == 0x40]
    assert data and data[-1] == b"\x40" + bytes(1024)  # cleared
    bus.writes.clear()
    d.text(0, "2 2 5=9 SMALL")
    # the row's pages alone: columns 0..127 and pages 0..3 (each command 0x80-prefixed), then its 512 bytes
    assert [w for _, w in bus.writes[:6]] == [bytes((0x80, c)) for c in (0x21, 0, 127, 0x22, 0, 3)]
    want = frame(*(run(0, 0, "2 2 5=9 SMALL") + run(2, 0, "2 2 5=9 小")))
    assert bus.writes[6] == (ADDR, b"\x40" + bytes(want[:4 * W])) and len(bus.writes) == 7
    bus.writes.clear()
    d.text(1, "NO MORE BETS")  # row 1: pages 4..7
    assert [w for _, w in bus.writes[:6]] == [bytes((0x80, c)) for c in (0x21, 0, 127, 0x22, 4, 7)]
    want = frame(*(run(0, 0, "2 2 5=9 SMALL") + run(2, 0, "2 2 5=9 小") + run(4, 0, "NO MORE BETS") +
                   run(6, 0, "停止下注")))
    assert bus.writes[6] == (ADDR, b"\x40" + bytes(want[4 * W:])) and len(bus.writes) == 7
    assert d.panel.buffer == want


def test_each_row_has_its_english_above_and_its_chinese_beneath_numbers_carried():
    p = Panel()
    d = Oled(p, glyphs)
    assert (d.cols, d.rows, d.lines) == (16, 2, ["", ""])
    d.text(0, "ROUND 12 VOID")
    d.text(1, "FISH CRAB COCK")
    assert p.buffer == frame(*(run(0, 0, "ROUND 12 VOID") + run(2, 0, "第12局作廢") +
                              run(4, 0, "FISH CRAB COCK") + run(6, 0, "魚 蟹 雞")))
    assert d.lines == ["ROUND 12 VOID", "FISH CRAB COCK"]
    shows = p.shows
    d.text(1, "FISH CRAB COCK")  # unchanged: not sent again
    assert p.shows == shows
    d.text(1, "HITS 2 CONFIRM")  # HITS, not HIT and an S: phrases are whole words, the longest first
    assert p.buffer[4 * W:] == frame(*(run(4, 0, "HITS 2 CONFIRM") + run(6, 0, "中獎數 2 確認")))[4 * W:]


def test_a_word_no_phrase_covers_stays_english_and_a_row_with_none_has_no_chinese():
    p = Panel()
    d = Oled(p, glyphs)
    d.text(0, "S3 STR FLUSH")
    d.text(1, "1234 S7")
    assert p.buffer == frame(*(run(0, 0, "S3 STR FLUSH") + run(2, 0, "S3 同花順") + run(4, 0, "1234 S7")))
    for inside in (b"SHAKER", b"ABIG", b"S3BIG", b"CARDSS"):  # a phrase inside a longer word is none
        assert d.chinese(inside, -1) == 0, inside
    assert d.chinese(b"SHAKE", -1) == 32 and d.chinese(b"A BIG", -1) == 32
    d.text(0, "LEFT 1-4: 3")  # a phrase at the start, the rest as it is
    assert p.buffer[:4 * W] == frame(*(run(0, 0, "LEFT 1-4: 3") + run(2, 0, "餘數 1-4: 3")))[:4 * W]
    d.text(0, "ENTER THE COUP")  # the longest phrase, not ENTER and then THE COUP
    assert p.buffer[:4 * W] == frame(*(run(0, 0, "ENTER THE COUP") + run(2, 0, "請輸入整局牌")))[:4 * W]
    d.text(0, "3 DICE ENTERED")  # a phrase that starts with its number
    assert p.buffer[:4 * W] == frame(*(run(0, 0, "3 DICE ENTERED") + run(2, 0, "已輸入3粒骰")))[:4 * W]


def test_a_row_too_wide_in_chinese_keeps_its_english_alone_and_a_long_text_is_cut_to_16_columns():
    p = Panel()
    d = Oled(p, glyphs)
    d.text(0, "HIT HIT HIT HIT")  # 15 columns; its Chinese 4 x 32 + 3 x 8 pixels: 152
    assert d.chinese(b"HIT HIT HIT HIT", -1) == 152
    assert p.buffer == frame(*run(0, 0, "HIT HIT HIT HIT"))
    d.text(1, "0123456789ABCDEFGHIJ")
    assert d.lines[1] == "0123456789ABCDEF"
    assert p.buffer[4 * W:] == frame(*run(4, 0, "0123456789ABCDEF"))[4 * W:]
    d.text(1, "WAS \u00e9")  # outside ASCII: '?'
    assert p.buffer[4 * W:] == frame(*(run(4, 0, "WAS ?") + run(6, 0, "原為 ?")))[4 * W:]


def test_bad_rows_and_a_panel_too_small_are_refused_with_a_line_that_says_so():
    d = Oled(Panel(), glyphs)
    assert raises(ValueError, d.text, 2, "X") == "row 2 outside 0..1"
    assert raises(ValueError, d.text, -1, "X") == "row -1 outside 0..1"
    assert raises(ValueError, Oled, Panel(128, 32), glyphs) == \
        "2 rows of English and Chinese need 64 pixels, the panel has 32"
    assert raises(ValueError, Oled, Panel(64, 48), glyphs) == \
        "the panel is 64 pixels wide: the dealer's 16 columns need 128"


def test_drawing_a_row_allocates_nothing():
    if micropython is None or not hasattr(micropython, "heap_lock"):
        raise Skip("micropython.heap_lock is MicroPython-only")
    p = Panel()
    d = Oled(p, glyphs)
    rows = [b"2 2 5=9 SMALL", b"ROUND 12 VOID", b"HIT HIT HIT HIT", b"CARD 2: 3 DIGITS", b"S3 6 SAME COLOUR"]
    micropython.heap_lock()
    try:
        for b in rows:
            d.draw(0, b)
            d.draw(1, b)
    finally:
        micropython.heap_unlock()
    assert p.buffer[:4 * W] == frame(*(run(0, 0, "S3 6 SAME COLOUR") + run(2, 0, "S3 六張同色同點")))[:4 * W]


def test_a_board_whose_pins_csv_says_ssd1306_gets_this_display_at_0x3c():
    ssd1306_module()
    from tablectl.hw.wiring import text_display
    bus = I2c()
    d = text_display({"DISPLAY": "SSD1306"}, bus)
    assert isinstance(d, Oled) and (d.cols, d.rows) == (16, 2)
    assert bus.writes and all(addr == ADDR for addr, _ in bus.writes)
    d.text(1, "PLACE BETS")
    assert bus.writes[-1] == (ADDR, b"\x40" + bytes(frame(*(run(4, 0, "PLACE BETS") + run(6, 0, "請下注")))[4 * W:]))


def test_the_sim_boards_virtual_ssd1306_holds_the_frame_the_driver_sent():
    ssd1306_module()
    from simoled import VirtualSsd1306
    from tablectl.hw.wiring import text_display
    seen = []

    class Board:
        def changed(self, what):
            seen.append(what)

    chip = VirtualSsd1306(Board())
    d = text_display({"DISPLAY": "SSD1306"}, chip)
    assert chip.on and chip.ram == bytearray(1024)
    del seen[:]
    d.text(0, "NUMBER 3")
    assert seen == ["display"]
    assert chip.ram == frame(*(run(0, 0, "NUMBER 3") + run(2, 0, "開 3")))
    assert raises(OSError, chip.writeto, 0x27, b"\x80\xaf")  # nothing answers at another address
    d.panel.poweroff()
    assert not chip.on
