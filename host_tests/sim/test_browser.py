"""The simulator page in headless Chromium: rounds played by clicking, checked against the reference engine.

What the page shows comes from the firmware's virtual pins and buses; the expected winning spots come
from rulebook (tools/rulebook), written independently of the firmware's rules core. Also: the keys the
controller refuses greyed, the lamp legend and legible labels, a void and HISTORY on the display, the
winning seat marked, the jackpot digits after a hit, a power cut under the chips, a game changed at the
REPL. The sic bo test also takes the README's screenshot (docs/simulator.png).
"""
import pathlib

import pytest

from harness.table_page import (browser, click, lamps, lcd, lit, open_table, refused, rgb_hex,  # noqa: F401
                                throw_dice, wait_jackpot, wait_lcd, wait_state)  # (browser, open_table: fixtures)
from rulebook import fantan as rb_fantan
from rulebook import sicbo as rb_sicbo
from rulebook.analysis import PUSH as RB_PUSH
from tablectl.config import DEFAULTS
from tablectl.games.base import Controller
from tablectl.hw.lamps import PUSH, WIN

pytestmark = pytest.mark.browser

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
SCREENSHOT = ROOT / "docs" / "simulator.png"


# WCAG's contrast ratio of a lit spot's text against its lamp colour, for every lit spot
CONTRASTS = """() => {
  const lum = (css) => {
    const [r, g, b] = css.match(/\\d+/g).slice(0, 3).map((v) => {
      const c = Number(v) / 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  return [...document.querySelectorAll('#layout [data-lit="1"]')].map((e) => {
    const s = getComputedStyle(e), a = lum(s.color), b = lum(s.backgroundColor);
    return [e.dataset.spot, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)];
  });
}"""


def test_sicbo_round_lights_the_winning_spots_SB_5_SB_7(open_table):
    sim, page = open_table("sicbo")
    assert lit(page) == set()
    # the keys a sic bo table has no use for, or not yet, are greyed with the controller's reason
    page.wait_for_selector('button.refused[data-role="LOCK"]')
    keys = refused(page)
    assert keys["LOCK"] == "LOCK NOT USED" and keys["HIT"] == "HIT NOT USED" and keys["BELL"] == "NOT BETTING"
    assert "SHAKE" not in keys and "HISTORY" not in keys
    layout = set(lamps(page))
    for dice in ((2, 2, 5), (4, 4, 4)):
        throw_dice(page, dice)
        winners = {bet for bet, net in rb_sicbo.resolve(" ".join(map(str, dice))).items() if net > 0}
        assert winners <= layout  # every winning bet of the reference has a lamp on this layout
        page.wait_for_function("n => document.querySelectorAll('#layout [data-lit=\"1\"]').length === n",
                               arg=len(winners))
        assert lit(page) == winners, dice
        assert lcd(page)[0].startswith("%d %d %d" % dice)
        if dice == (4, 4, 4):
            assert {"small", "big"}.isdisjoint(lit(page))  # SB-7: a triple loses small and big
        else:
            SCREENSHOT.parent.mkdir(exist_ok=True)
            page.screenshot(path=str(SCREENSHOT), full_page=True)
        click(page, "CONFIRM")  # SB-4: paid, the lamps go out, the next round
        wait_state(page, "idle")
        assert lit(page) == set()
    assert sim.link.snapshot()[1]["status"]["round"] == 3


def test_fantan_round_lights_wins_and_ties_FT_3_FT_8(open_table):
    sim, page = open_table("fantan")
    click(page, "SHAKE")  # FT-4: the heap is covered, betting opens
    wait_state(page, "betting")
    click(page, "BELL")
    wait_state(page, "closed")
    click(page, "2", "3", "ENTER")  # 23 buttons counted off four at a time leave 3 (FT-3.1, FT-3.2)
    wait_state(page, "result")
    nets = rb_fantan.resolve("count=23")
    wins = {bet for bet, net in nets.items() if net != RB_PUSH and net > 0}
    ties = {bet for bet, net in nets.items() if net == RB_PUSH}
    assert "fan_3" in wins and ties
    shown = lamps(page)
    assert {s for s, rgb in shown.items() if rgb == rgb_hex(WIN)} == wins
    assert {s for s, rgb in shown.items() if rgb == rgb_hex(PUSH)} == ties  # FT-8: ties apart
    assert lcd(page)[0] == "NUMBER 3"
    # the legend says which colour is a win and which a tie; every lit label is legible on its lamp
    legend = page.eval_on_selector_all("#legend .legend-item", "els => els.map(e => [e.textContent, e.dataset.rgb])")
    assert [rgb for _, rgb in legend] == [rgb_hex(WIN), rgb_hex(PUSH)] and "win" in legend[0][0], legend
    assert "tie" in legend[1][0] and "FT-8" in legend[1][0], legend
    contrasts = page.evaluate(CONTRASTS)
    assert len(contrasts) == len(wins) + len(ties) and min(c for _, c in contrasts) >= 4.5, contrasts  # WCAG AA
    click(page, "0", "ENTER")  # the dealer types the next count before confirming: told to confirm first
    wait_lcd(page, ["NUMBER 3", "CONFIRM FIRST"])
    assert refused(page)["ENTER"] == "CONFIRM FIRST" and "CONFIRM" not in refused(page)
    click(page, "CONFIRM")
    wait_state(page, "idle")
    assert lit(page) == set()
    # the next round is voided (the cover knocked over): VOID held past the firmware's long press
    click(page, "SHAKE")
    wait_state(page, "betting")
    page.hover('button[data-role="VOID"]')
    page.mouse.down()
    page.wait_for_timeout(1400)
    page.mouse.up()
    wait_state(page, "idle")
    assert lcd(page) == ["ROUND 2 VOID", "COVER THEN SHAKE"]  # the void confirmed, for a moment
    status = sim.link.snapshot()[1]["status"]
    assert (status["round"], status["voids"], status["rounds"]) == (3, 1, 1)
    assert not page.is_visible("#out-betting_lamp.lit")
    click(page, "HISTORY")  # the void is listed, newest first; HISTORY then goes back to the prompt
    wait_lcd(page, ["HISTORY 1/1", "VOID 3"])
    wait_lcd(page, ["ROUND 3", "COVER THEN SHAKE"], timeout=Controller.HISTORY_MS + 3000)


def test_progressive_round_with_a_royal_flush_hit_CSP_10_2_1(open_table, start_sim):
    sim, page = open_table("caribbean_stud")
    seed = DEFAULTS["seed_cents"]
    wait_jackpot(page, seed)
    assert page.is_visible("#out-betting_lamp.lit")  # betting is open until LOCK
    page.check("#seat-2")  # chips on the progressive spots of seats 2 and 5
    page.check("#seat-5")
    page.wait_for_function("() => document.querySelectorAll('#layout [data-lit=\"1\"]').length === 2")
    assert lit(page) == {"seat_2", "seat_5"}  # CSP-10.1: the bet-accepted lights
    click(page, "LOCK")  # CSP-6.3: frozen before the first card
    wait_state(page, "locked")
    page.wait_for_selector("#out-betting_lamp:not(.lit)")
    page.uncheck("#seat-2")  # too late: the locked bets stand
    # CSP-10.1: each accepted bet feeds the pool its share, worked out here from the posted rate
    pool = seed + 2 * DEFAULTS["bet_cents"] * DEFAULTS["rate_bp"] // 10000
    wait_jackpot(page, pool)
    assert lit(page) == {"seat_2", "seat_5"}
    # HIT, seat 5, class 5 (the keypad's fifth class, royal flush), the five cards As Ks Qs Js Ts
    click(page, "HIT", "5", "ENTER", "5", "ENTER")
    click(page, *"141131121111101", "ENTER")
    wait_lcd(page, ["TOP AWARD", "SUPERVISOR KEY"])  # the whole pool: a second person (issue 21)
    # the guide follows the table's status, which the page reads after the display
    page.wait_for_function("() => document.querySelector('#guide').textContent.includes('supervisor turns the service key')")
    assert page.inner_text("#guide").startswith("最高彩金：主管轉維修鑰匙")  # the table's language first, the English under it
    page.check("#service-key")
    page.wait_for_function("() => document.querySelector('#service-key').checked")
    click(page, "ENTER")
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('royal_flush')")
    page.uncheck("#service-key")
    # the winning seat is marked, with its class; the other seat with a bet is not
    page.wait_for_selector('#layout [data-seat="5"][data-win="1"]')
    assert "WIN ROYAL FLUSH" in page.inner_text('#layout [data-seat="5"]').upper()
    assert page.get_attribute('#layout [data-seat="2"]', "data-win") == "0"
    # every figure the jackpot digits show from here on
    page.evaluate("""() => { window.jackpotSeen = [];
        new MutationObserver(() => window.jackpotSeen.push(document.querySelector('#jackpot').textContent))
            .observe(document.querySelector('#jackpot'), {childList: true, characterData: true, subtree: true}); }""")
    click(page, "CONFIRM")
    wait_state(page, "paying")
    assert lcd(page)[0] == "S5 ROYAL FLUSH"
    wait_jackpot(page, pool)  # CSP-10.2.1: a royal flush takes the whole jackpot (above the fixed amount)
    click(page, "CONFIRM")
    wait_state(page, "betting")
    wait_jackpot(page, seed)  # the next cycle starts from the seed
    seen = [int(t.replace(".", "").replace(" ", "")) for t in page.evaluate("window.jackpotSeen")]
    assert set(seen) == {pool, seed}, seen  # the award, then the reseed: never a count up from below
    assert page.is_visible("#out-betting_lamp.lit")
    # betting is open again: the sensors are read afresh, seat 5's chip is still there, seat 2's is not
    page.wait_for_function("() => document.querySelectorAll('#layout [data-lit=\"1\"]').length === 1")
    assert lit(page) == {"seat_5"}
    # the next round is locked and a hit half typed when the power goes: the board and the page come back
    # with the chips where they were, and the display asks for the hit again (the keys typed were not saved)
    click(page, "LOCK")
    wait_state(page, "locked")
    click(page, "HIT", "5", "ENTER")
    page.wait_for_function("() => document.querySelector('#lcd0').textContent.startsWith('S5 CLASS')")
    sim.stop()
    sim = start_sim("caribbean_stud")
    page.goto(sim.url)
    wait_lcd(page, ["POWER RESTORED", "RETYPE HIT ENTRY"])
    page.wait_for_function("() => document.querySelector('#seat-5').checked")
    assert not page.is_checked("#seat-2") and lit(page) == {"seat_5"}
    assert sim.link.snapshot()[1]["out"]["seats"][4] == 1  # the board reads the chip again


def test_a_game_changed_at_the_repl_follows_on_the_page_at_once(open_table, mpremote):
    """service.configure(game=...) at the board's terminal, from Caribbean Stud to Fortune 3 (the same seats,
    the same display lines): the page's header and lamps follow at once, and after a reload."""
    sim, page = open_table("caribbean_stud")
    assert page.inner_text("#game") == "caribbean_stud"
    code, out = mpremote(sim.pty, "resume", "exec", "import service; print(service.configure(game='fortune3'))")
    assert code == 0 and "the service key is off" in out, out  # the technician's key first: the page's switch
    page.check("#service-key")
    page.wait_for_function("() => document.querySelector('#lcd0').textContent === 'SERVICE KEY ON'")
    code, out = mpremote(sim.pty, "resume", "exec", "import service; print(service.configure(game='fortune3'))")
    assert code == 0 and out.startswith("REFUSED: configure refused: game fortune3 closes the caribbean_stud"), out
    confirm = out.split("confirm='")[1][:6]
    code, out = mpremote(sim.pty, "resume", "exec",
                         "import service; print(service.configure(game='fortune3', confirm='%s'))" % confirm)
    assert code == 0 and "game = 'fortune3' (now)" in out, out
    page.wait_for_function("() => document.querySelector('#game').textContent === 'fortune3'", timeout=3000)
    page.reload()
    page.wait_for_function("() => document.querySelector('#game').textContent === 'fortune3'", timeout=3000)
    page.check("#seat-3")
    page.wait_for_function("() => document.querySelectorAll('#layout [data-lit=\"1\"]').length === 1")
    assert lit(page) == {"seat_3"}
