"""The sim board with the graphic display (TABLECTL_DISPLAY=SSD1306, `make sim OLED=1`), in headless Chromium:
the page's canvas holds, pixel for pixel, the frame the firmware drew (tablectl.hw.oled through
micropython-lib's driver, the board's virtual SSD1306 and the link): the round's English and its Chinese.
Screenshot for docs/: simulator-oled.png."""
import pathlib

import pytest

from harness.table_page import browser, click, open_table, throw_dice, wait_lcd, wait_state  # noqa: F401
from building import oledfont
from tablectl.hw.oled import Oled
from harness.panel import Panel  # the driver's side Oled draws on

pytestmark = pytest.mark.browser
DOCS = pathlib.Path(__file__).resolve().parent.parent.parent / "docs"


def expected(lines):
    """The panel's pixels ('1' lit, row by row) for the display's two lines, as tablectl.hw.oled draws them."""
    p = Panel()
    d = Oled(p, oledfont.load())
    for row, line in enumerate(lines):
        d.text(row, line)
    return "".join("1" if p.buffer[(y >> 3) * 128 + x] >> (y & 7) & 1 else "0" for y in range(64) for x in range(128))


def shown(page):
    return page.evaluate("""() => { const c = document.querySelector('#oled');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let s = '';
        for (let i = 0; i < d.length; i += 4) s += d[i + 1] ? '1' : '0'; return s; }""")


@pytest.fixture
def oled_table(open_table, monkeypatch):  # noqa: F811 (the fixture's value)
    from building import mplib
    mplib.folder()  # micropython-lib's ssd1306 on the board process's path, as python -m sim --oled fetches it
    monkeypatch.setenv("TABLECTL_DISPLAY", "SSD1306")  # the board process inherits it, as `python -m sim --oled` sets it
    return open_table


def test_the_page_shows_the_graphic_displays_frame_english_above_chinese(oled_table):
    sim, page = oled_table("sicbo")
    page.wait_for_selector("#oled:not([hidden])")
    assert not page.is_visible("#lcd")  # the character display's box stands aside
    throw_dice(page, (2, 2, 5))
    lines = ["2 2 5=9 SMALL", "CONFIRM = PAID"]
    wait_lcd(page, lines)
    want = expected(lines)
    got = shown(page)
    assert got.count("1") > 500 and got == want  # 2 2 5=9 小 and 派彩後按確認 beneath the English
    page.locator("#oled").screenshot(path=str(DOCS / "simulator-oled.png"))
    click(page, "CONFIRM")
    wait_state(page, "idle")
    page.wait_for_function("w => { const c = document.querySelector('#oled'); const d = c.getContext('2d')"
                           ".getImageData(0, 0, 128, 64).data; let s = ''; for (let i = 0; i < d.length; i += 4) "
                           "s += d[i + 1] ? '1' : '0'; return s === w; }",
                           arg=expected([page.text_content("#lcd0"), page.text_content("#lcd1")]))
