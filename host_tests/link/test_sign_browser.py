"""The pit sign in headless Chromium (Debian's, as the simulator's test): the linked pool counting up, JACKPOT PENDING, the last hits;
then the server's status page, in Chinese first and with ?lang=en in English first, every word in both.

The tables are bare MQTT messages (jackpot.rig.RawTable); the sign is the server's page, fed by its event
stream. Every amount the test expects is the server's answer to a table; the page computes none. The
test also takes the screenshot in docs/link-sign.png.
"""
import pathlib

import pytest

from harness.chromium import launch, need_chromium
from jackpot.rig import GAME, RawTable

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
SCREENSHOT = ROOT / "docs" / "link-sign.png"


def dollars(cents):
    return "$" + "{:,}".format(cents // 100) + ".%02d" % (cents % 100)


def test_the_sign_counts_up_shows_pending_and_the_last_hits(make_link, tmp_path):
    need_chromium()
    link = make_link(("t01", "t02"), game=dict(GAME, bet_cents=250000))  # bets large enough to see a count-up
    t1, t2 = RawTable(link, "t01"), RawTable(link, "t02")
    with playwright_api.sync_playwright() as p:
        browser = launch(p, tmp_path / "profile", 1200)
        try:
            page = browser.new_page()
            page.goto(link.url + "/sign?link=pit1")
            amount = page.locator("#amount")
            page.wait_for_function("() => document.getElementById('amount').dataset.cents === '%d'" % GAME["seed_cents"])
            assert amount.inner_text() == dollars(GAME["seed_cents"])
            # every value the digits pass through, to see them count up rather than jump
            page.evaluate("""() => { window.seen = []; new MutationObserver(() =>
                window.seen.push(+document.getElementById('amount').dataset.cents)).observe(
                document.getElementById('amount'), {attributes: true}); }""")
            a = t1.send("contrib", {"round": 1, "bets": [[s, 250000] for s in range(1, 8)], "locked": list(range(1, 8))})
            page.wait_for_function("() => document.getElementById('amount').dataset.cents === '%d'" % a["pool"])
            seen = page.evaluate("window.seen")
            assert len(seen) > 2 and seen == sorted(seen) and GAME["seed_cents"] < seen[0] and seen[-1] == a["pool"]
            assert amount.inner_text() == dollars(a["pool"])
            assert page.locator("#title").inner_text().lower() == "caribbean stud progressive"
            assert page.locator("#title-zh").inner_text() == "聯獎撲克 累積獎金"  # Chinese first, the English beside
            # a royal on t01: the sign drops to the restarted pool, says a jackpot is pending, lists the hit
            won = t1.send("hit", {"round": 1, "hits": [[6, "royal_flush"]]})
            cents = won["awards"][0][2]
            page.wait_for_function("() => document.getElementById('pending').textContent.includes('JACKPOT PENDING')")
            assert page.locator("#pending").inner_text() == "JACKPOT PENDING: table t01 seat 6 " + dollars(cents)
            assert page.locator("#pending-zh").inner_text() == "頭獎待派:檯 t01 座位 6"
            assert amount.get_attribute("data-cents") == str(won["pool"])
            row = page.locator("#hits tr").first.inner_text()
            assert "t01 seat 6" in row and "royal flush" in row and dollars(cents) in row
            assert "檯 t01 座位 6 · table t01 seat 6" in row and "黃袍麒 · royal flush" in row  # CSP-8.1's name
            b = t2.send("contrib", {"round": 1, "bets": [[2, 2500]], "locked": [2]})
            page.wait_for_function("() => document.getElementById('amount').dataset.cents === '%d'" % b["pool"])
            SCREENSHOT.parent.mkdir(exist_ok=True)
            page.screenshot(path=str(SCREENSHOT))
            t1.send("paid", {"claim": won["seq"]})
            page.wait_for_function("() => document.getElementById('pending').textContent === ''")
            # the status page draws /status, every word in Chinese and English (the Chinese first unless ?lang=en)
            for query, first, title, game in (("", "彩池 · pool", "累積獎金伺服器 · jackpot server", "聯獎撲克 · caribbean stud"),
                                              ("?lang=en", "pool · 彩池", "jackpot server · 累積獎金伺服器",
                                               "caribbean stud · 聯獎撲克")):
                page.goto(link.url + "/" + query)
                page.wait_for_selector("table.meters")
                text = page.locator("#links").inner_text()
                assert "t01" in text and "t02" in text and page.locator("[data-off]").first.get_attribute("data-off") == "0"
                heads = page.locator("table.meters th").all_inner_texts()
                assert heads[0] == first and len(heads) == 16 and all(" · " in h for h in heads), heads
                assert page.locator("h1 .dim").inner_text() == title and game in text
                server = page.locator("#server").inner_text()
                assert server.count(" · ") == 4, server  # connected, messages, duplicates absorbed, refused
                assert page.evaluate("document.documentElement.lang") == ("en" if query else "zh-Hant")
                assert page.locator("#links a").first.get_attribute("href").endswith("&lang=en" if query else "link=pit1")
        finally:
            browser.close()
    for t in (t1, t2):
        t.close()
