"""Sic Bo (57/2004) and Fish-Prawn-Crab (59/2004) controllers driven through handle(): the round, the lamps
against hand-written expectations, refusals that change nothing, voids, history, power cuts in every state."""
# mp-heap: 240K
from harness.rounds import dice_to_state as to_state, to_betting
from harness.tables import check_refusals, cleanup, drive, new_app, restart, state_of

EVENTS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "CLEAR", "ENTER", "SHAKE", "BELL",
          "CONFIRM", "VOID", "VOID_LONG", "LOCK", "HIT", "HISTORY")


def dice_round(app, a, b, c):
    to_betting(app)
    assert drive(app, "BELL", str(a), str(b), str(c), "ENTER") == [True] * 5
    return app.board.lit()


# dice 4 5 6: every winning area and the display line, worked out by hand for each game
ROUND_456 = {
    "sicbo": ("4 5 6=15 BIG", {"big", "odd", "total_15", "single_4", "single_5", "single_6", "combo_4_5",
                               "combo_4_6", "combo_5_6", "three_4_5_6", "four_1_4_5_6", "four_2_4_5_6",
                               "four_3_4_5_6"}),
    # coin (blue), crab (green), rooster (red): one die of each colour
    "fish_prawn_crab": ("COIN CRAB COCK", {"big", "total_15", "single_coin", "single_crab", "single_rooster",
                                        "color1_red", "color1_green", "color1_blue"}),
}


def test_round_shake_bet_bell_dice_lamps_confirm_SB_2_SB_3_FPC_2_FPC_3():
    for game in ("sicbo", "fish_prawn_crab"):
        app = new_app(game)
        c, b = app.controller, app.board
        assert drive(app, "SHAKE") == [True]
        assert c.state == "shaking" and b.shaker_pin.value() == 1 and b.betting_pin.value() == 0
        b.clock.advance(app.config["shake_ms"] - 1)
        app.tick()
        assert c.state == "shaking"
        b.clock.advance(1)
        app.tick()
        # SB-2.1, SB-2.2, FPC-2.1, FPC-2.2: the shake done, betting opens and its lamp is lit
        assert c.state == "betting" and b.shaker_pin.value() == 0 and b.betting_pin.value() == 1
        assert drive(app, "BELL") == [True]
        # SB-3.1, FPC-3.1: the bell rings and betting closes
        assert c.state == "closed" and b.bell_pin.value() == 1 and b.betting_pin.value() == 0
        b.clock.advance(1000)
        app.tick()
        assert b.bell_pin.value() == 0
        assert drive(app, "4", "5", "6", "ENTER") == [True] * 4
        line, lit = ROUND_456[game]
        # SB-3.2, FPC-3.2: the result shown and every winning area lit
        assert c.state == "result" and b.display.lines[0] == line and set(b.lit()) == lit
        # SB-4, FPC-4: no new shake (which covers the dice) until the dealer confirms the payouts
        assert drive(app, "SHAKE") == [False] and c.state == "result" and set(b.lit()) == lit
        assert drive(app, "CONFIRM") == [True]
        assert c.state == "idle" and c.round_no == 2 and b.lit() == {} and c.history() == [(1, (4, 5, 6))]
        events = [r[2] for r in app.journal.records(10)]
        assert events == ["boot", "open", "bell", "result", "confirm"]
        cleanup()


def test_triple_loses_small_and_big_SB_7():
    app = new_app()
    lit = dice_round(app, 3, 3, 3)
    assert set(lit) == {"odd", "triple_3", "any_triple", "total_9", "single_3", "double_3"}
    assert app.board.display.lines[0] == "3 3 3 TRIPLE"
    cleanup()


def test_odd_even_lose_on_triple_option():
    app = new_app("sicbo", odd_even_lose_on_triple=True)
    assert set(dice_round(app, 3, 3, 3)) == {"triple_3", "any_triple", "total_9", "single_3", "double_3"}
    cleanup()


def test_two_of_a_kind_lights_double_and_double_single_SB_5_9_SB_5_12():
    app = new_app()
    lit = dice_round(app, 2, 5, 2)
    assert set(lit) == {"small", "odd", "total_9", "single_2", "single_5", "double_2", "combo_2_5",
                        "double_single_2_5"}
    assert lit["single_2"] == 1  # the lamp is on; the 2:1 tier is the core's business
    cleanup()


def test_fish_prawn_crab_round_colours_FPC_5():
    app = new_app("fish_prawn_crab")
    # fish (1, red), fish, rooster (6, red): three red dice
    assert set(dice_round(app, 1, 1, 6)) == {"small", "total_8", "single_fish", "single_rooster",
                                             "color3_red", "any_color3"}
    assert app.board.display.lines[0] == "2 FISH 1 COCK"  # whole words, the pair counted
    drive(app, "CONFIRM")
    # prawn (2, green), crab (5, green), coin (4, blue): exactly two green, one blue
    assert set(dice_round(app, 2, 5, 4)) == {"big", "total_11", "single_prawn", "single_crab",
                                             "single_coin", "color2_green", "color1_blue"}
    cleanup()


EXPECTED_ACCEPTED = {
    "idle": {"SHAKE", "CLEAR", "HISTORY"},
    "shaking": {"CLEAR", "HISTORY", "VOID_LONG"},
    "betting": {"BELL", "CLEAR", "HISTORY", "VOID_LONG"},
    "closed": {"1", "2", "3", "4", "5", "6", "CLEAR", "HISTORY", "VOID_LONG"},
    "result": {"CONFIRM", "CLEAR", "HISTORY", "VOID_LONG"},
}


def test_every_wrong_button_in_every_state_is_refused_and_changes_nothing():
    check_refusals("sicbo", EVENTS, EXPECTED_ACCEPTED, to_state)


def test_fourth_die_refused_and_enter_needs_three_dice():
    app = new_app()
    to_state(app, "closed")
    assert drive(app, "6", "6", "ENTER") == [True, True, False]
    assert app.controller.message == "ENTER 3 DICE" and app.controller.state == "closed"
    before = state_of(app)
    assert drive(app, "6", "1") == [True, False]  # a fourth die
    assert app.controller.message == "3 DICE ENTERED" and app.controller.entry == "666"
    assert drive(app, "CLEAR", "1", "2", "3", "ENTER") == [True] * 5
    assert app.controller.dice == (1, 2, 3)
    assert before[2] == app.store.writes - 1  # only the result was saved
    cleanup()


def test_void_from_every_state_after_the_shake_SB_3_3_FPC_3_3():
    for game, state in [(g, s) for g in ("sicbo", "fish_prawn_crab")
                        for s in ("shaking", "betting", "closed", "result")]:
        app = new_app(game)
        to_state(app, state)
        c, b = app.controller, app.board
        assert drive(app, "VOID") == [False] and c.state == state  # a short press only says "hold"
        assert drive(app, "VOID_LONG") == [True]
        assert c.state == "idle" and c.round_no == 2 and c.history() == [(1, "void")]  # listed in HISTORY
        assert b.display.lines == ["ROUND 1 VOID", "PRESS SHAKE"]  # the void confirmed for a moment
        assert b.lit() == {} and b.shaker_pin.value() == 0 and b.betting_pin.value() == 0
        assert app.meters.voids == 1 and app.meters.rounds == 0
        assert app.journal.records(1)[0][2:4] == ("void", 0) or app.journal.records(1)[0][2] == "void"
        assert app.journal.records(1)[0][1] == 1  # journalled against the void round
        # another round is played at once
        to_betting(app)
        assert c.state == "betting"
        cleanup()


def test_history_keeps_the_last_20_rounds_and_pages_on_the_display():
    app = new_app()
    rolls = [((i % 6) + 1, ((i // 6) % 6) + 1, ((i * 5) % 6) + 1) for i in range(25)]
    for d in rolls:
        dice_round(app, *d)
        drive(app, "CONFIRM")
    h = app.controller.history()
    assert len(h) == 20 and h == [(i + 1, rolls[i]) for i in range(5, 25)]
    assert app.controller.history(3) == [(i + 1, rolls[i]) for i in range(22, 25)]
    before = state_of(app)
    assert drive(app, "HISTORY") == [True]
    assert app.board.display.lines[0].startswith("HISTORY 1/")
    newest = "%d %d %d" % rolls[24]
    assert app.board.display.lines[1].startswith(newest[:5])
    assert state_of(app) == before  # showing history changes nothing
    cleanup()


def test_manual_handle_three_presses_open_betting_SB_2_1():
    app = new_app("sicbo", shaker="manual")
    c = app.controller
    assert drive(app, "SHAKE", "SHAKE") == [True, True] and c.state == "idle"
    assert app.board.display.lines[1] == "HANDLE 2/3"
    assert drive(app, "SHAKE") == [True]
    assert c.state == "betting" and app.board.shaker_pin.value() == 0
    cleanup()


def test_a_configured_shake_longer_than_the_shakers_max_runs_shortened_to_the_max():
    # the configuration allows 10000 ms and this board's shaker stops at 8000 ms; the technician's
    # service refuses such a value, but a record written before (another board, an older firmware) may
    # hold one: the shake must still run, for the shaker's max on-time, not be refused
    app = new_app("sicbo", shake_ms=10000)
    c, b = app.controller, app.board
    assert app.config["shake_ms"] == 10000 and b.shaker.max_on_ms == 8000
    assert drive(app, "SHAKE") == [True]
    assert c.state == "shaking" and b.shaker_pin.value() == 1
    b.clock.advance(7999)
    app.tick()
    assert c.state == "shaking" and b.shaker_pin.value() == 1
    b.clock.advance(1)
    app.tick()
    assert c.state == "betting" and b.shaker_pin.value() == 0 and b.betting_pin.value() == 1
    cleanup()


def test_shake_refused_with_the_cover_unclipped_SB_2_1():
    app = new_app()
    app.board.set_cover(False)
    before = state_of(app)
    assert drive(app, "SHAKE") == [False]
    assert "COVER" in app.controller.message and state_of(app) == before
    cleanup()


def test_cover_off_mid_shake_stops_the_shaker_and_betting_stays_closed_SB_2_1():
    app = new_app()
    drive(app, "SHAKE")
    app.board.clock.advance(1000)
    app.tick()
    app.board.set_cover(False)
    app.tick()
    c = app.controller
    assert app.board.shaker_pin.value() == 0 and c.state == "idle" and c.message == "SHAKE STOPPED"
    assert app.board.betting_pin.value() == 0 and app.store.load("round")["state"] == "idle"
    app.board.set_cover(True)
    drive(app, "SHAKE")
    app.board.clock.advance(app.config["shake_ms"])
    app.tick()
    assert c.state == "betting"
    cleanup()


def test_power_cut_in_every_state_resumes_where_it_was():
    for state in ("idle", "shaking", "betting", "closed", "result"):
        app = new_app()
        dice_round(app, 1, 1, 2)
        drive(app, "CONFIRM")
        to_state(app, state)
        rec = app.controller.record()
        lit = app.board.lit()
        root, app = app.root, None  # the board's RAM is gone with the power
        app2 = restart(root)
        c2 = app2.controller
        # the shake is not saved: a cut mid-shake leaves round 2 waiting for a new shake, motor off
        want = "idle" if state == "shaking" else state
        assert c2.state == want and c2.round_no == 2 and c2.history() == [(1, (1, 1, 2))]
        assert app2.board.shaker_pin.value() == 0
        assert app2.board.betting_pin.value() == (1 if state == "betting" else 0)
        if state != "shaking":
            assert c2.record() == rec
            assert app2.board.lit() == lit
        if state == "result":
            assert c2.dice == (4, 5, 6) and drive(app2, "CONFIRM") == [True]
            assert c2.history()[-1] == (2, (4, 5, 6))
        cleanup()


def wait(app, ms):
    app.board.clock.advance(ms)
    app.tick()


def test_a_void_shows_then_the_prompt_and_history_lists_it_and_times_out_SB_3_3():
    """VOID_LONG: 'ROUND n VOID' for NOTICE_MS, then the next round's prompt; HISTORY shows the void among
    the results and goes back to the prompt HISTORY_MS after the last press (a key brings it back sooner)."""
    app = new_app()
    c, d = app.controller, app.board.display
    dice_round(app, 1, 1, 2)
    drive(app, "CONFIRM")
    to_betting(app)
    drive(app, "VOID_LONG")
    assert d.lines == ["ROUND 2 VOID", "PRESS SHAKE"]
    wait(app, c.NOTICE_MS - 1)
    assert d.lines[0] == "ROUND 2 VOID"
    wait(app, 1)
    assert d.lines == ["ROUND 3", "PRESS SHAKE"]
    assert drive(app, "HISTORY") == [True] and d.lines == ["HISTORY 1/2", "VOID"]  # newest first
    wait(app, c.HISTORY_MS - 1)
    drive(app, "HISTORY")  # the next page: a press restarts the time
    wait(app, c.HISTORY_MS - 1)
    assert d.lines == ["HISTORY 2/2", "1 1 2=4 SMALL"]
    wait(app, 1)
    assert d.lines == ["ROUND 3", "PRESS SHAKE"]
    drive(app, "HISTORY", "SHAKE")  # a key the controller takes ends it at once
    assert d.lines == ["SHAKING", "ROUND 3"]
    cleanup()


def test_a_key_while_the_result_shows_asks_for_confirm():
    """0 then ENTER with the dice shown (the dealer starting the next round too early): CONFIRM FIRST."""
    app = new_app()
    to_state(app, "result")
    before = state_of(app)
    for key in ("0", "4", "ENTER", "BELL"):
        assert drive(app, key) == [False] and app.controller.message == ("NOT BETTING" if key == "BELL" else "CONFIRM FIRST")
    assert state_of(app) == before
    cleanup()


def test_dice_typed_before_a_power_cut_are_asked_for_again():
    """The keypad entry is not saved (a write a key would wear the flash): after the cut the display says
    the dice must be typed again, until the first key."""
    app = new_app()
    to_state(app, "closed")
    drive(app, "4", "5")
    app2 = restart(app)
    assert app2.controller.state == "closed" and app2.controller.entry == ""
    assert app2.board.display.lines == ["POWER RESTORED", "RETYPE THE DICE"]
    assert drive(app2, "4") == [True] and app2.board.display.lines == ["NO MORE BETS", "DICE 4 _ _"]
    cleanup()
