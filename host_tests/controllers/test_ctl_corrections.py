"""A dice or fan-tan result mistyped and corrected before CONFIRM (journalled with what it replaced), fan-tan's
COUNT and LEFT fields kept apart, and refused entries that keep what was typed."""
# mp-heap: 248K
from harness.tables import cleanup, drive, new_app, restart, state_of
from harness.rounds import dice_to_state
from harness.rounds import fantan_to_state
from tablectl.rules import fantan


def last_entry(app):
    return app.journal.records(1)[0][2:]


def read_faces(text, names):
    """The faces a result text says were thrown, sorted (as a player reads the board)."""
    words = text.split(" ")
    if words[0] == "TRIPLE":
        return [names.index(words[1]) + 1] * 3
    if words[0] == "2":
        return sorted([names.index(words[1]) + 1] * 2 + [names.index(words[3]) + 1])
    return sorted(names.index(w) + 1 for w in words)


def test_fish_prawn_crab_faces_are_whole_words_on_16_columns_FPC_1_1():
    from tablectl.games.dice import FACES, faces_text
    assert FACES == ("FISH", "PRAWN", "GOURD", "COIN", "CRAB", "COCK")
    for a in range(1, 7):
        for b in range(1, 7):
            for c in range(1, 7):
                text = faces_text((a, b, c))
                assert len(text) <= 16, text
                # whole words only, and they say which faces were thrown, as often as they were
                assert read_faces(text, FACES) == sorted((a, b, c)), text
    assert faces_text((6, 1, 6)) == "2 COCK 1 FISH" and faces_text((3, 3, 3)) == "TRIPLE GOURD"


def test_dice_result_corrected_before_confirm_is_journalled_with_what_it_replaced_SB_3_2():
    app = new_app()
    dice_to_state(app, "result")  # 4 5 6 entered
    c, b = app.controller, app.board
    entries = app.journal.seq
    assert drive(app, "CLEAR") == [True] and b.display.lines == ["WAS 4 5 6", "NEW DICE _ _ _"]
    before = state_of(app)
    assert drive(app, "CONFIRM") == [False] and c.message == "ENTER OR CLEAR"  # nothing paid mid-correction
    assert drive(app, "4", "5", "6", "ENTER") == [True, True, True, False] and c.message == "SAME DICE AS WAS"
    assert c.entry == "456" and state_of(app) == before  # refused: what was typed is kept, nothing changed
    assert drive(app, "3") == [False] and c.message == "3 DICE ENTERED"
    assert drive(app, "CLEAR", "1", "2", "ENTER") == [True, True, True, False] and c.message == "ENTER 3 DICE"
    assert drive(app, "9") == [False] and c.message == "A DIE IS 1-6" and c.entry == "12"
    assert drive(app, "2", "ENTER") == [True, True]
    assert c.state == "result" and c.dice == (1, 2, 2) and b.display.lines == ["1 2 2=5 SMALL", "CONFIRM = PAID"]
    assert app.journal.seq == entries + 1
    assert last_entry(app) == ("correct", 122, 456, "dice 122 was 456")
    assert set(b.lit()) >= {"small", "total_5", "double_2", "double_single_2_1"} and "big" not in b.lit()
    app = restart(app)  # the correction was saved with its journal entry: a power cut keeps it
    c, b = app.controller, app.board
    assert c.state == "result" and c.dice == (1, 2, 2) and "total_5" in b.lit()
    assert drive(app, "CONFIRM") == [True] and c.history() == [(1, (1, 2, 2))]
    cleanup()


def test_a_correction_left_with_clear_keeps_the_result_and_writes_nothing():
    app = new_app("fish_prawn_crab")
    dice_to_state(app, "result")
    before = state_of(app)
    assert drive(app, "CLEAR", "1", "CLEAR", "CLEAR") == [True] * 4
    assert app.board.display.lines == ["COIN CRAB COCK", "CONFIRM = PAID"] and state_of(app) == before
    # a correction half typed when the power goes is not saved: the result as entered comes back
    drive(app, "CLEAR", "1", "1")
    app = restart(app)
    assert app.controller.dice == (4, 5, 6) and app.board.display.lines[0] == "COIN CRAB COCK"
    assert drive(app, "1") == [False] and app.controller.message == "CONFIRM FIRST"
    cleanup()


def test_void_during_a_correction_voids_the_round_SB_3_3():
    app = new_app()
    dice_to_state(app, "result")
    drive(app, "CLEAR", "1")
    assert drive(app, "VOID_LONG") == [True] and app.controller.history() == [(1, "void")]
    assert not app.controller.fixing and app.controller.state == "idle"
    cleanup()


def test_fantan_count_and_left_are_separate_fields_FT_3_1_FT_3_2():
    app = new_app("fantan")
    fantan_to_state(app, "closed")
    c, b = app.controller, app.board
    assert b.display.lines == ["NO MORE BETS", "COUNT: _"]
    assert drive(app, "5") == [True] and b.display.lines[1] == "COUNT: 5"
    assert drive(app, "CLEAR") == [True] and b.display.lines[1] == "COUNT: _"  # the digits go first
    assert drive(app, "CLEAR") == [True] and b.display.lines[1] == "LEFT 1-4: _"  # then the field
    assert drive(app, "ENTER") == [False] and c.message == "TYPE 1 TO 4"
    for d in "056789":
        assert drive(app, d) == [False] and c.message == "LEFT IS 1 TO 4" and c.entry == ""
    assert drive(app, "3", "2") == [True, False] and c.entry == "3"  # one digit: what is left
    assert drive(app, "ENTER") == [True] and c.number == 3 and b.display.lines[0] == "NUMBER 3"
    assert last_entry(app) == ("result", 3, 0, "")  # no count was typed
    assert drive(app, "CONFIRM") == [True]
    fantan_to_state(app, "closed")  # the next round starts in the count field again
    assert b.display.lines[1] == "COUNT: _"
    drive(app, "CLEAR", "CLEAR")
    assert b.display.lines[1] == "COUNT: _"
    cleanup()


def test_fantan_count_bound_refuses_above_max_count_exhaustively_FT_3_1():
    app = new_app("fantan")
    fantan_to_state(app, "closed")
    c = app.controller
    top = c.MAX_COUNT
    for n in range(1, 1000):  # every count of up to three digits, its last digit typed on the rest
        text = str(n)
        c.entry = text[:-1]
        why = c.reason(text[-1])
        assert why == ("" if n <= top else "COUNT 1 TO %d" % top), n
    c.entry = ""
    for count in (1, 4, 5, 8, 13, 102, top):
        c.entry = str(count)
        assert c.reason("ENTER") == "" and c.typed() == (fantan.result_from_count(count), count)
        assert c.typed()[0] == (count % 4 or 4)  # FT-3.2: nothing left is four
    cleanup()


def test_fantan_number_corrected_before_confirm_through_either_field():
    app = new_app("fantan")
    fantan_to_state(app, "result")  # 27 buttons: number 3
    c, b = app.controller, app.board
    assert drive(app, "CLEAR") == [True] and b.display.lines == ["WAS NUMBER 3", "NEW COUNT: _"]
    before = state_of(app)
    assert drive(app, "1", "1", "ENTER") == [True, True, False] and c.message == "NUMBER UNCHANGED"
    assert c.entry == "11" and state_of(app) == before  # 11 buttons leave 3: nothing to correct
    assert drive(app, "CONFIRM") == [False] and c.message == "ENTER OR CLEAR"
    assert drive(app, "CLEAR", "CLEAR") == [True, True] and b.display.lines[1] == "NEW LEFT 1-4: _"
    assert drive(app, "2", "ENTER") == [True, True]
    assert c.state == "result" and c.number == 2 and b.display.lines == ["NUMBER 2", "CONFIRM = PAID"]
    assert last_entry(app) == ("correct", 2, 3, "number 2 was 3")
    wins, pushes = fantan.resolve(2)
    lit = b.lit()
    shown = set(b.lamps.layout)
    assert set(k for k in lit if lit[k] == 1) == set(fantan.SPOTS[i] for i in wins) & shown
    assert set(k for k in lit if lit[k] == 2) == set(fantan.SPOTS[i] for i in pushes) & shown
    assert "fan_2" in lit and "fan_3" not in lit
    # CLEAR three times on an empty field: count, left, then the number as it was
    assert drive(app, "CLEAR", "CLEAR", "CLEAR") == [True] * 3 and b.display.lines[0] == "NUMBER 2"
    assert drive(app, "CONFIRM") == [True] and c.history() == [(1, 2)]
    cleanup()
