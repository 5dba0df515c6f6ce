"""The dealer's display on a 128x64 graphic panel (an SSD1306 by micropython-lib's driver): what
tablectl.hw.lcd.Lcd offers (text(row, s), lines, cols, rows), each of the two rows in English with the
game's terms in Traditional Chinese beneath it, drawn from the build's glyph module (tools/building/oledfont.py)."""
from tablectl import const
from tablectl.hw.lcd import changed_row

_NUMBER = const(0x23)  # '#' in a phrase: a number (digits, or '_' for one not typed yet)
_HAN = const(0x80)  # a Chinese glyph in a phrase's glyphs: this bit and the next byte hold its number
_BAND = const(16)  # pixels: a text row, two of the panel's 8-pixel pages


def _alnum(c):
    return 48 <= c <= 57 or 65 <= c <= 90 or 97 <= c <= 122


def _digit(c):
    return 48 <= c <= 57 or c == 95


class Oled:
    """panel: an SSD1306 of micropython-lib (its buffer a page per 8 pixel rows, show() sends it); font: the
    glyph module. A row's Chinese is its English with each phrase of the font's table put in Chinese; it is
    left blank when no phrase is there or when it would not fit the width (the English always fits: 16
    columns of 8 pixels). Drawing allocates nothing but the row's bytes (one per character)."""

    def __init__(self, panel, font, rows=2):
        self.panel = panel
        self.font = font
        self.width = panel.width
        self.cols = 16
        self.rows = rows
        if panel.width != 8 * self.cols:
            raise ValueError("the panel is %d pixels wide: the dealer's 16 columns need 128" % panel.width)
        if 2 * rows * _BAND > panel.height:
            raise ValueError("%d rows of English and Chinese need %d pixels, the panel has %d"
                             % (rows, 2 * rows * _BAND, panel.height))
        self.lines = [""] * rows
        self._ends = bytearray(8)  # a phrase's numbers in the row being drawn: (start, end) each
        self._zh = 0  # where the Chinese of the phrase _phrase() found is, in the font's TERMS
        buf = panel.buffer
        for i in range(len(buf)):
            buf[i] = 0
        panel.show()

    def text(self, row, s):
        s = changed_row(self, row, s)
        if s is None:
            return
        b = s.encode()
        if len(b) != len(s):  # outside ASCII: '?', as the character display shows it
            b = bytes(ord(ch) if ord(ch) < 127 else 63 for ch in s)
        self.draw(row, b)
        self._send(4 * row)

    def _send(self, page):
        """The row's four pages (English, Chinese) alone to the panel: half the frame show() would send, as
        the driver's own show() addresses it (columns 0..127, pages page..page+3)."""
        panel = self.panel
        for c in (0x21, 0, self.width - 1, 0x22, page, page + 3):  # column, then page address
            panel.write_cmd(c)
        panel.write_data(memoryview(panel.buffer)[page * self.width:(page + 4) * self.width])

    def draw(self, row, b):
        """Row `row`'s English (the bytes `b`) and its Chinese beneath, in the panel's buffer; allocates nothing."""
        page = 4 * row
        self._clear(page)
        self._clear(page + 2)
        x = 0
        for c in b:
            x = self._ascii(page, x, c)
        if 0 < self.chinese(b, -1) <= self.width:
            self.chinese(b, page + 2)

    def chinese(self, b, page):
        """Draw row `b`'s Chinese on `page` and the one below (page -1: only measure); its width in pixels,
        or 0 when it has no phrase in Chinese (then nothing is drawn)."""
        x = 0
        han = False
        i = 0
        n = len(b)
        while i < n:
            end = self._phrase(b, i) if i == 0 or not _alnum(b[i - 1]) else 0
            if end:
                x = self._glyphs(page, x, b)
                han = True
                i = end
            else:
                x = self._ascii(page, x, b[i])
                i += 1
        return x if han else 0

    def _phrase(self, b, i):
        """Where the longest phrase standing at b[i] ends (its Chinese at TERMS[_zh]), else 0."""
        c = b[i]
        end = self._group(b, i, c) if c < 127 else 0
        if not end and _digit(c):
            end = self._group(b, i, _NUMBER)
        return end

    def _group(self, b, i, first):
        font = self.font
        terms = font.TERMS
        at = font.STARTS[2 * first] << 8 | font.STARTS[2 * first + 1]
        if not at:
            return 0
        while terms[at]:
            n = terms[at]
            end = self._match(b, i, terms, at + 1, n)
            at += 1 + n
            if end:
                self._zh = at
                return end
            at += 1 + terms[at]
        return 0

    def _match(self, b, i, terms, at, length):
        """Where phrase terms[at:at + length] ends when it stands at b[i] as whole words, else 0; its
        numbers' ends in _ends."""
        ends = self._ends
        k = 0
        j = i
        n = len(b)
        for q in range(at, at + length):
            p = terms[q]
            if p == _NUMBER:
                if j >= n or not _digit(b[j]):
                    return 0
                ends[k] = j
                while j < n and _digit(b[j]):
                    j += 1
                ends[k + 1] = j
                k += 2
            elif j < n and b[j] == p:
                j += 1
            else:
                return 0
        if j < n and _alnum(b[j]) and _alnum(b[j - 1]):
            return 0
        return j

    def _glyphs(self, page, x, b):
        """The Chinese of the phrase _phrase() found (TERMS[_zh]: its length, then the glyphs)."""
        terms = self.font.TERMS
        k = 0
        i = self._zh + 1
        last = i + terms[self._zh]
        while i < last:
            c = terms[i]
            if c & _HAN:
                x = self._han(page, x, (c & 0x7F) << 8 | terms[i + 1])
                i += 2
                continue
            if c == _NUMBER:
                for j in range(self._ends[k], self._ends[k + 1]):
                    x = self._ascii(page, x, b[j])
                k += 2
            else:
                x = self._ascii(page, x, c)
            i += 1
        return x

    def _ascii(self, page, x, c):
        if not 32 <= c < 127:
            c = 63
        return self._blit(page, x, self.font.ASCII, (c - 32) * 16, 8)

    def _han(self, page, x, n):
        return self._blit(page, x, self.font.HAN, n * 32, 16)

    def _blit(self, page, x, glyphs, at, w):
        """A glyph of `w` columns (its top page's columns, then the bottom's, from glyphs[at]) at column x of
        `page` and the page below; page -1 measures only. The next glyph's column."""
        if page >= 0:  # within the width: text() cuts the English to it, draws the Chinese only when it fits
            buf = self.panel.buffer
            top = page * self.width + x
            low = top + self.width
            for k in range(w):
                buf[top + k] = glyphs[at + k]
                buf[low + k] = glyphs[at + w + k]
        return x + w

    def _clear(self, page):
        buf = self.panel.buffer
        for i in range(page * self.width, (page + 2) * self.width):
            buf[i] = 0
