"""Fan-Tan (58/2004) controller through handle(): open, bell, the count reduced four at a time, the winning
number and areas lit, refusals that change nothing, voids, history, power cuts in every state."""
# mp-heap: 232K
from harness.rounds import fantan_to_state as to_state
from harness.tables import check_refusals, cleanup, drive, new_app, restart, state_of

EVENTS = ("0", "1", "2", "3", "4", "5", "9", "CLEAR", "ENTER", "SHAKE", "BELL", "CONFIRM", "VOID",
          "VOID_LONG", "LOCK", "HIT", "HISTORY")


def fantan_round(app, count):
    to_state(app, "closed")
    assert drive(app, *(list(str(count)) + ["ENTER"])) == [True] * (len(str(count)) + 1)
    return app.board.lit()


def test_round_open_bell_count_lights_confirm_FT_4_FT_5_1_FT_5_2():
    app = new_app("fantan")
    c, b = app.controller, app.board
    assert drive(app, "SHAKE") == [True] and c.state == "betting" and b.betting_pin.value() == 1
    assert drive(app, "BELL") == [True] and c.state == "closed" and b.bell_pin.value() == 1
    assert b.betting_pin.value() == 0
    assert drive(app, "2", "7", "ENTER") == [True] * 3
    # FT-5.1: the count, reduced four at a time, announced as the round's number
    assert c.state == "result" and c.number == 3 and b.display.lines[0] == "NUMBER 3"
    lit = b.lit()
    # FT-5.2: the winning number and areas lit. FT-6.1-6.2.4 by hand for number 3: fan 3; nim 3 over
    # anything; kwok 2_3, 3_4; nga with 3 among the two; sam hong with 3; pushes (FT-8): nim W_3 and
    # nga A_B_3 (level 2)
    wins = {"fan_3", "nim_3_1", "nim_3_2", "nim_3_4", "kwok_2_3", "kwok_3_4",
            "nga_1_3_2", "nga_1_3_4", "nga_2_3_1", "nga_2_3_4", "nga_3_4_1", "nga_3_4_2",
            "sam_hong_1_2_3", "sam_hong_1_3_4", "sam_hong_2_3_4"}
    pushes = {"nim_1_3", "nim_2_3", "nim_4_3", "nga_1_2_3", "nga_1_4_3", "nga_2_4_3"}
    assert set(k for k in lit if lit[k] == 1) == wins
    assert set(k for k in lit if lit[k] == 2) == pushes
    assert drive(app, "CONFIRM") == [True]
    assert c.state == "idle" and c.round_no == 2 and b.lit() == {} and c.history() == [(1, 3)]
    cleanup()


def test_count_is_reduced_four_at_a_time_and_zero_left_is_4_FT_3():
    app = new_app("fantan")
    for count, number in ((1, 1), (4, 4), (8, 4), (13, 1), (102, 2), (499, 3), (500, 4)):
        fantan_round(app, count)
        assert app.controller.number == number, (count, app.controller.number)
        assert app.board.lit().get("fan_%d" % number) == 1
        drive(app, "CONFIRM")
    assert [r for _, r in app.controller.history()] == [1, 4, 4, 1, 2, 3, 4]
    cleanup()


EXPECTED_ACCEPTED = {
    "idle": {"SHAKE", "CLEAR", "HISTORY"},
    "betting": {"BELL", "CLEAR", "HISTORY", "VOID_LONG"},
    "closed": {"1", "2", "3", "4", "5", "9", "CLEAR", "HISTORY", "VOID_LONG"},
    "result": {"CONFIRM", "CLEAR", "HISTORY", "VOID_LONG"},
}


def test_every_wrong_button_in_every_state_is_refused_and_changes_nothing():
    check_refusals("fantan", EVENTS, EXPECTED_ACCEPTED, to_state)


def test_count_of_zero_and_result_before_bell_are_refused():
    app = new_app("fantan")
    to_state(app, "betting")
    before = state_of(app)
    assert drive(app, "3", "ENTER") == [False, False]  # a result before betting closed
    assert state_of(app) == before
    drive(app, "BELL")
    assert drive(app, "0", "ENTER") == [False, False] and app.controller.state == "closed"
    # 1,234 buttons cannot be under one cover (MAX_COUNT): refused, the three digits typed are kept
    assert drive(app, "1", "2", "3", "4") == [True] * 3 + [False]
    assert app.controller.message == "COUNT 1 TO 500" and app.controller.entry == "123"
    cleanup()


def test_void_from_every_state_after_opening():
    for state in ("betting", "closed", "result"):
        app = new_app("fantan")
        to_state(app, state)
        assert drive(app, "VOID_LONG") == [True]
        c = app.controller
        assert c.state == "idle" and c.round_no == 2 and c.history() == [(1, "void")]  # listed in HISTORY
        assert app.board.display.lines == ["ROUND 1 VOID", "COVER THEN SHAKE"]  # confirmed for a moment
        assert app.board.lit() == {} and app.board.betting_pin.value() == 0 and app.meters.voids == 1
        cleanup()


def test_power_cut_in_every_state_resumes_where_it_was():
    for state in ("idle", "betting", "closed", "result"):
        app = new_app("fantan")
        fantan_round(app, 5)
        drive(app, "CONFIRM")
        to_state(app, state)
        rec = app.controller.record()
        lit = app.board.lit()
        app2 = restart(app)
        c2 = app2.controller
        assert c2.record() == rec and c2.state == state and app2.board.lit() == lit
        assert app2.board.betting_pin.value() == (1 if state == "betting" else 0)
        assert c2.history() == [(1, 1)]
        cleanup()


def test_a_count_typed_while_the_number_shows_asks_for_confirm_and_a_cut_asks_to_retype():
    """0 ENTER with the number on the display: CONFIRM FIRST (not a word about a count), nothing changed.
    A power cut with a count half typed: the display asks for the count again (the entry is not saved)."""
    app = new_app("fantan")
    to_state(app, "result")
    before = state_of(app)
    assert drive(app, "0", "ENTER") == [False, False] and app.controller.message == "CONFIRM FIRST"
    assert app.board.display.lines == ["NUMBER 3", "CONFIRM FIRST"] and state_of(app) == before
    drive(app, "CONFIRM", "SHAKE", "BELL", "1", "2")
    app2 = restart(app)
    assert app2.board.display.lines == ["POWER RESTORED", "RETYPE THE COUNT"]
    assert drive(app2, "1", "2", "ENTER") == [True] * 3 and app2.controller.number == 4  # FT-3.2: 12 -> 4
    cleanup()
