"""The simulator's page in headless Chromium for the browser tests: the browser and a table's page (fixtures, on
harness.simulators' start_sim), and what a test reads off the page or clicks on it."""
import pytest

from harness.chromium import launch, need_chromium
from tablectl.config import DEFAULTS
from tablectl.hw.lamps import NeoBackend

playwright_api = pytest.importorskip("playwright.sync_api")


def rgb_hex(level):
    return "%02x%02x%02x" % NeoBackend.COLOURS[level]


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    need_chromium()
    with playwright_api.sync_playwright() as p:
        context = launch(p, tmp_path_factory.mktemp("chromium-profile"), 1500)
        try:
            yield context
        finally:
            context.close()


@pytest.fixture
def open_table(browser, start_sim):
    pages = []

    def open_(game):
        sim = start_sim(game)
        page = browser.new_page()
        pages.append(page)
        page.goto(sim.url)
        page.wait_for_selector("#layout [data-lamp]")
        return sim, page

    yield open_
    for page in pages:
        page.close()


def click(page, *roles):
    for role in roles:
        page.click('button[data-role="%s"]' % role)


def wait_state(page, state, timeout=8000):
    page.wait_for_function("s => document.body.dataset.state === s", arg=state, timeout=timeout)


def lamps(page):
    """{spot id: rgb hex} of every lamp the page draws."""
    pairs = page.eval_on_selector_all("#layout [data-lamp]", "els => els.map(e => [e.dataset.spot, e.dataset.rgb])")
    return dict(pairs)


def lit(page):
    return {spot for spot, rgb in lamps(page).items() if rgb != "000000"}


def lcd(page):
    return [page.inner_text("#lcd0"), page.inner_text("#lcd1")]


def wait_jackpot(page, cents):
    """Wait until the jackpot digits read `cents` (the point and the blanks aside)."""
    page.wait_for_function("c => document.querySelector('#jackpot').textContent.replace(/[. ]/g, '') === c",
                           arg=str(cents))


def wait_lcd(page, lines, timeout=8000):
    page.wait_for_function("l => document.querySelector('#lcd0').textContent === l[0] && "
                           "document.querySelector('#lcd1').textContent === l[1]", arg=lines, timeout=timeout)


def refused(page):
    """{role: the reason shown on hover} of the keys the page greys out."""
    return dict(page.eval_on_selector_all("button.refused", "els => els.map(e => [e.dataset.role, e.title])"))


def throw_dice(page, dice):
    """One sic bo round up to the result: shake (electric, shake_ms), bell, the three dice, enter."""
    click(page, "SHAKE")
    page.wait_for_selector("#out-shaker.lit")
    wait_state(page, "betting", timeout=DEFAULTS["shake_ms"] + 5000)  # SB-2.2: betting opens after the shake
    assert page.is_visible("#out-betting_lamp.lit")
    click(page, "BELL")  # SB-3.1
    wait_state(page, "closed")
    assert not page.is_visible("#out-betting_lamp.lit")
    click(page, *[str(d) for d in dice])
    click(page, "ENTER")
    wait_state(page, "result")
