"""The pages in Macau's languages, in headless Chromium: the table page in Traditional Chinese first with
the English beside it, fish-prawn-crab's pictures and colours, the article ids and the raw status behind the
technician's switch; the players' results board (/board) from the controller's own history; the seat lamps
of a bet and of a win apart; a tilted table's page naming its game and what to tell the technician.
Screenshots for docs/: simulator-zh.png, board.png, board-fish-prawn-crab.png, tilt.png."""
import pathlib

import pytest

from harness.ramblockdev import flash_file
from harness.table_page import browser, click, lamps, lcd, open_table, rgb_hex, throw_dice, wait_lcd, wait_state  # noqa: F401
import board  # boards/sim
from tablectl.hw.lamps import BET, WIN
from tablectl.storage import Log
from tablectl.store import Store

pytestmark = pytest.mark.browser
DOCS = pathlib.Path(__file__).resolve().parent.parent.parent / "docs"


def texts(page, selector):
    return page.eval_on_selector_all(selector, "els => els.map(e => e.textContent)")


def open_board(browser, sim, rounds):  # noqa: F811 (the fixture's value)
    page = browser.new_page()
    page.goto(sim.url + "board")
    page.wait_for_function("n => (window.boardState && (window.boardState.status.results || []).length) === n",
                           arg=rounds)
    return page


def test_the_page_in_chinese_with_the_pictures_of_fish_prawn_crab_FPC_1_1(open_table, browser):  # noqa: F811
    sim, page = open_table("fish_prawn_crab")
    assert page.evaluate("document.documentElement.lang") == "zh-Hant"  # the default language key
    assert page.text_content('h2[data-t="result display"]') == "結果顯示 · result display"  # both, Chinese first
    # keys 1..6 are the pictures, each in its colour (FPC-1.1)
    faces = [page.inner_text('button[data-role="%d"]' % k).split() for k in range(1, 7)]
    assert [f[1:] for f in faces] == [["\U0001F41F", "魚", "fish"], ["\U0001F990", "蝦", "prawn"],
                                      ["\U0001F350", "葫蘆", "gourd"], ["\U0001FA99", "金錢", "coin"],
                                      ["\U0001F980", "蟹", "crab"], ["\U0001F413", "雞", "rooster"]]
    colours = dict(page.eval_on_selector_all('#layout [data-spot^="single_"]',
                                             "els => els.map(e => [e.dataset.spot, e.dataset.colour])"))
    assert colours == {"single_fish": "red", "single_prawn": "green", "single_gourd": "blue",
                       "single_coin": "blue", "single_crab": "green", "single_rooster": "red"}
    assert "\U0001F980" in page.inner_text('#layout [data-spot="single_crab"]')
    # the technician's things are behind the switch: the raw status, the article ids, the lamp numbers
    assert not page.is_visible("#controller-box") and not page.is_visible("#layout .articles")
    page.check("#technician")
    assert page.is_visible("#controller-box") and "FPC-5.3" in " ".join(texts(page, "#layout .articles"))
    page.uncheck("#technician")
    assert not page.is_visible("#controller-box")
    throw_dice(page, (1, 1, 6))
    wait_lcd(page, ["2 FISH 1 COCK", "CONFIRM = PAID"])  # whole words on the dealer's display
    page.screenshot(path=str(DOCS / "simulator-zh.png"), full_page=True)
    click(page, "CONFIRM")
    wait_state(page, "idle")
    throw_dice(page, (2, 5, 4))
    click(page, "CONFIRM")
    wait_state(page, "idle")
    board_page = open_board(browser, sim, 2)
    rows = board_page.eval_on_selector_all("tr[data-round]", """els => els.map(e => [e.dataset.round,
        [...e.querySelectorAll('.face')].map(f => f.dataset.face)])""")
    assert rows == [["2", ["prawn", "crab", "coin"]], ["1", ["fish", "fish", "rooster"]]]  # newest first
    assert "魚 fish" in board_page.inner_text('tr[data-round="1"]')
    board_page.screenshot(path=str(DOCS / "board-fish-prawn-crab.png"), full_page=True)
    board_page.close()


def test_the_players_board_shows_sic_bo_throws_with_total_size_parity_and_triples_SB_7(open_table, browser):  # noqa: F811
    sim, page = open_table("sicbo")
    for dice in ((2, 2, 5), (4, 4, 4), (6, 5, 3)):
        throw_dice(page, dice)
        click(page, "CONFIRM")
        wait_state(page, "idle")
    board_page = open_board(browser, sim, 3)
    rows = board_page.eval_on_selector_all("tr[data-round]", """els => els.map(e =>
        [e.dataset.round, e.dataset.total, e.dataset.size, e.dataset.parity])""")
    # the controller's own history (its status), newest first; SB-7: a triple is neither big nor small
    assert rows == [["3", "14", "big", "even"], ["2", "12", "triple", "even"], ["1", "9", "small", "odd"]]
    assert sim.link.snapshot()[1]["status"]["results"] == [[1, [2, 2, 5]], [2, [4, 4, 4]], [3, [6, 5, 3]]]
    assert "圍骰 · triple" in board_page.inner_text('tr[data-round="2"]')
    assert "小 · small" in board_page.inner_text('tr[data-round="1"]')
    board_page.screenshot(path=str(DOCS / "board.png"), full_page=True)
    # a void is on the board as a void; the board follows the table as it plays
    click(page, "SHAKE")
    wait_state(page, "betting", timeout=9000)
    page.hover('button[data-role="VOID"]')
    page.mouse.down()
    page.wait_for_timeout(1400)
    page.mouse.up()
    wait_state(page, "idle")
    board_page.wait_for_selector('tr[data-round="4"] .void')
    board_page.close()


def test_a_seat_with_a_bet_and_a_seat_that_won_are_lit_apart_and_the_board_shows_the_hit(open_table, browser):  # noqa: F811
    sim, page = open_table("caribbean_stud")
    legend = page.eval_on_selector_all("#legend .legend-item", "els => els.map(e => [e.textContent, e.dataset.rgb])")
    assert legend == [["已下注 · bet placed", rgb_hex(BET)], ["座位中獎 · seat won", rgb_hex(WIN)]]
    page.check("#seat-2")
    page.check("#seat-5")
    page.wait_for_function("() => document.querySelectorAll('#layout [data-lit=\"1\"]').length === 2")
    click(page, "LOCK")
    wait_state(page, "locked")
    shown = lamps(page)
    assert shown["seat_2"] == shown["seat_5"] == rgb_hex(BET)  # CSP-10.1: bets accepted
    click(page, "HIT", "5", "ENTER", "5", "ENTER")
    click(page, *"141131121111101", "ENTER")
    wait_lcd(page, ["TOP AWARD", "SUPERVISOR KEY"])  # the whole pool: a second person (issue 21)
    page.check("#service-key")
    page.wait_for_function("() => document.querySelector('#service-key').checked")
    click(page, "ENTER")
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('royal_flush')")
    page.uncheck("#service-key")
    page.wait_for_function("() => document.querySelector('[data-spot=\"seat_5\"]').dataset.rgb === '%s'" % rgb_hex(WIN))
    assert lamps(page)["seat_2"] == rgb_hex(BET)  # the seat that did not win keeps the bet's colour
    click(page, "CONFIRM")
    wait_state(page, "paying")
    click(page, "CONFIRM")
    wait_state(page, "betting")
    board_page = open_board(browser, sim, 1)
    assert "royal flush" in board_page.inner_text('tr[data-round="1"]') and "5" in board_page.inner_text('tr[data-round="1"]')
    assert "黃袍麒 · royal flush" in board_page.inner_text('tr[data-round="1"]')  # CSP-8.1's own name, the Chinese first
    pool = sim.link.snapshot()[1]["status"]["pool_cents"]
    assert board_page.inner_text("#pool") == "彩池 · pool %s" % "{:,.2f}".format(pool / 100)
    board_page.close()


def test_a_tilted_table_page_names_its_game_and_what_to_tell_the_technician(start_sim, browser, tmp_path):  # noqa: F811
    sim = start_sim("baccarat_a")
    sim.stop()
    # a tilt kept in the log (the 'halt' record a damaged older record leaves on migration): the
    # configuration is whole, so the table knows its game
    why = "damaged flash after saved frame #3, and later frames exist: the state before it is kept"
    Store(Log(flash_file(str(tmp_path / "baccarat_a" / "simstate"), board.FLASH_BLOCKS))).save("halt", {"why": why})
    sim = start_sim("baccarat_a")
    page = browser.new_page()
    page.goto(sim.url)
    page.wait_for_selector("#tilt:not([hidden])")
    wait_lcd(page, ["TILT: CALL TECH", "FLASH DAMAGED"])  # whole words, not the reason cut at 16
    assert page.inner_text("#tilt-game") == "百家樂 · baccarat A (baccarat_a)"
    assert page.inner_text("#tilt-why") == why and page.inner_text("#tilt-shown").endswith("FLASH DAMAGED")
    assert page.inner_text("#game") == "baccarat_a"
    page.screenshot(path=str(DOCS / "tilt.png"), full_page=True)
    page.close()


def test_the_players_board_shows_fan_tans_last_numbers_newest_first_FT_5_1(open_table, browser):  # noqa: F811
    sim, page = open_table("fantan")
    for keys in (["2", "7"], ["CLEAR", "4"], ["1", "3"]):  # 27 buttons: 3; what was left: 4; 13 buttons: 1
        click(page, "SHAKE")
        wait_state(page, "betting")
        click(page, "BELL")
        wait_state(page, "closed")
        click(page, *keys)
        click(page, "ENTER")
        wait_state(page, "result")
        click(page, "CONFIRM")
        wait_state(page, "idle")
    board_page = open_board(browser, sim, 3)
    numbers = board_page.eval_on_selector_all(".num", "els => els.map(e => [e.dataset.round, e.textContent])")
    assert numbers == [["3", "1"], ["2", "4"], ["1", "3"]]
    assert board_page.inner_text("#game-name") == "番攤 · fan-tan"
    board_page.close()
